package dev.filetables.io.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.partition.PartitionFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
