package dev.filetables.io.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.partition.PartitionFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The listing side of the offline compaction's swap protocol. */
class ReplacedFilesTest {
  @TempDir Path root;

  private List<String> listed() throws Exception {
    return TableListing.list(
            root, List.of("dt"), "__DEFAULT_PARTITION__", PartitionFilter.all(), Optional.empty())
        .stream()
        .map(f -> Path.of(f.path()).getFileName().toString())
        .collect(Collectors.toList());
  }

  @Test
  void readersSeeTheOldFilesOrTheMergedOneNeverBoth() throws Exception {
    Path dir = Files.createDirectories(root.resolve("dt=1"));
    List<String> old = List.of("part-u-0-1.json", "part-u-0-2.json");
    for (String name : old) {
      Files.writeString(dir.resolve(name), "{}\n");
    }
    Files.writeString(dir.resolve("part-u-0-3.json"), "{}\n"); // not merged
    String merged = CompactedFileName.visible(CompactedFileName.OFFLINE_UUID, old, ".json");
    Path hidden = dir.resolve("." + merged + ".inprogress");
    Files.writeString(hidden, "{}\n{}\n");
    ReplacedFiles.write(dir.resolve(merged), old);
    // before the rename (the commit point): the old files
    assertEquals(List.of("part-u-0-1.json", "part-u-0-2.json", "part-u-0-3.json"), listed());

    Files.move(hidden, dir.resolve(merged));
    // after it: the merged file and the file it does not replace, while the old ones still exist
    assertEquals(
        List.of(
            "part-compacted-" + merged.substring("part-compacted-".length()), "part-u-0-3.json"),
        listed());
    assertEquals(old, ReplacedFiles.read(dir.resolve(merged)));

    for (String name : old) {
      Files.delete(dir.resolve(name));
    }
    assertEquals(List.of(merged, "part-u-0-3.json"), listed());
  }

  @Test
  void aSidecarCarriesTheMergedFilesOriginsToTheListing() throws Exception {
    Path dir = Files.createDirectories(root.resolve("dt=1"));
    List<String> old = List.of("part-u-0-1.json", "part-compacted-c0123456789abcdef-2.json");
    List<ReplacedFiles.Origin> origins =
        List.of(
            new ReplacedFiles.Origin("part-u-0-1.json", 1_700_000_000_000L, 0, 3),
            new ReplacedFiles.Origin("part-u-0-7.json", 1_600_000_000_000L, 3, 6),
            new ReplacedFiles.Origin("part-u-0-8.json", 1_600_000_000_001L, 6, 6));
    String merged = CompactedFileName.visible(CompactedFileName.OFFLINE_UUID, old, ".json");
    Files.writeString(dir.resolve(merged), "{}\n{}\n");
    ReplacedFiles.write(dir.resolve(merged), old, origins);

    assertEquals(old, ReplacedFiles.read(dir.resolve(merged)), "the names, as before");
    assertEquals(
        new ReplacedFiles.Sidecar(old, origins),
        ReplacedFiles.readWhole(dir.resolve(merged)).get());
    TableListing.Result listing =
        TableListing.scan(
            root, List.of("dt"), "__DEFAULT_PARTITION__", PartitionFilter.all(), Optional.empty());
    assertEquals(
        Map.of(dir.resolve(merged).toString(), origins), listing.origins(), "with the listing");

    // a sidecar without origins (a merge that could not place its inputs, or an older sidecar)
    ReplacedFiles.write(dir.resolve(merged), old);
    assertEquals(
        new ReplacedFiles.Sidecar(old, List.of()),
        ReplacedFiles.readWhole(dir.resolve(merged)).get());
    assertEquals(
        Map.of(),
        TableListing.scan(
                root,
                List.of("dt"),
                "__DEFAULT_PARTITION__",
                PartitionFilter.all(),
                Optional.empty())
            .origins());
  }

  @Test
  void onlyOfflineMergedFilesHaveSidecarsThatReadersHonour() {
    assertEquals(
        true,
        ReplacedFiles.mayReplace(CompactedFileName.visible("compacted", List.of("a"), ".csv")));
    assertEquals(
        false,
        ReplacedFiles.mayReplace(CompactedFileName.visible("0f6c-11", List.of("a"), ".csv")));
    assertEquals(false, ReplacedFiles.mayReplace("part-compacted-0-1.csv"));
  }
}
