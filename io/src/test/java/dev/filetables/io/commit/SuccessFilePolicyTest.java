package dev.filetables.io.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuccessFilePolicyTest {
  @TempDir Path root;

  @Test
  void writesAnEmptySuccessFileAndIsIdempotent() throws Exception {
    Path dir = Files.createDirectories(root.resolve("dt=2020-05-20"));
    Files.write(dir.resolve("part-a-0-0.csv"), new byte[10]);
    SuccessFilePolicy policy = new SuccessFilePolicy("_SUCCESS", false);
    policy.commit(context(dir, 1));
    policy.commit(context(dir, 2));
    assertEquals(0, Files.size(dir.resolve("_SUCCESS")));
    assertEquals(List.of("_SUCCESS", "part-a-0-0.csv"), names(dir), "no temporary file is left");
  }

  @Test
  void manifestListsTheVisibleFilesAndIsRewrittenOnRecommit() throws Exception {
    Path dir = Files.createDirectories(root.resolve("dt=2020-05-20").resolve("hour=12"));
    Files.write(dir.resolve("part-a-0-0.csv"), new byte[10]);
    Files.write(dir.resolve(".part-b-0-0.csv.inprogress"), new byte[3]);
    SuccessFilePolicy policy = new SuccessFilePolicy("_SUCCESS", true);

    policy.commit(context(dir, 1));
    CommitManifest first = CommitManifest.read(dir.resolve("_SUCCESS"));
    assertEquals(List.of("part-a-0-0.csv"), List.copyOf(first.files().keySet()));
    assertEquals(10, first.files().get("part-a-0-0.csv").sizeBytes);
    assertEquals(4, first.files().get("part-a-0-0.csv").rowCount.getAsLong());
    assertEquals(1, first.commitNumber());
    assertEquals("dt=2020-05-20/hour=12", first.partitionPath());
    assertEquals("2020-05-20", first.json().path("partition").path("dt").asText());
    assertEquals("2020-05-20T12:00", first.json().path("partitionTime").asText());
    assertEquals("2020-05-20T13:00:00Z", first.json().path("watermark").asText());
    assertEquals(4, first.json().path("rowCount").asLong());
    assertEquals(List.of(), first.verify(dir));

    // late data: a second file, committed again
    Files.write(dir.resolve("part-a-0-1.csv"), new byte[7]);
    assertEquals(List.of("file part-a-0-1.csv is not in the manifest"), first.verify(dir));
    policy.commit(context(dir, 2));
    CommitManifest second = CommitManifest.read(dir.resolve("_SUCCESS"));
    assertEquals(List.of("part-a-0-0.csv", "part-a-0-1.csv"), List.copyOf(second.files().keySet()));
    assertEquals(2, second.commitNumber());
    assertEquals(List.of(), second.verify(dir));

    Files.delete(dir.resolve("part-a-0-0.csv"));
    assertEquals(List.of("missing file part-a-0-0.csv"), second.verify(dir));
  }

  @Test
  void unknownRowCountsAreNull() throws Exception {
    Path dir = Files.createDirectories(root.resolve("dt=x"));
    Files.write(dir.resolve("other-writer.csv"), new byte[5]);
    PartitionCommitContext context =
        context(dir, 1).toBuilder().setFiles(PartitionFiles.visibleDataFiles(dir)).build();
    new SuccessFilePolicy("_DONE", true).commit(context);
    CommitManifest manifest = CommitManifest.read(dir.resolve("_DONE"));
    assertTrue(manifest.json().path("rowCount").isNull());
    assertTrue(manifest.files().get("other-writer.csv").rowCount.isEmpty());
  }

  /** A context whose files are the directory's visible files, each counted as 4 rows. */
  static PartitionCommitContext context(Path dir, int commitNumber) throws Exception {
    List<CommittedFile> files =
        PartitionFiles.visibleDataFiles(dir).stream()
            .map(f -> CommittedFile.of(f.path(), f.sizeBytes(), 4))
            .collect(Collectors.toList());
    Path root = dir;
    List<String> keys = new java.util.ArrayList<>();
    List<String> values = new java.util.ArrayList<>();
    while (root.getFileName().toString().contains("=")) {
      String[] kv = root.getFileName().toString().split("=", 2);
      keys.add(0, kv[0]);
      values.add(0, kv[1]);
      root = root.getParent();
    }
    return PartitionCommitContext.builder()
        .setTableName("events")
        .setTableRoot(root)
        .setPartitionKeys(keys)
        .setPartitionValues(values)
        .setPartitionPath(root.relativize(dir).toString())
        .setNewFiles(files)
        .setFiles(files)
        .setPartitionTime(Optional.of(LocalDateTime.of(2020, 5, 20, 12, 0)))
        .setWatermark(Optional.of(Instant.parse("2020-05-20T13:00:00Z")))
        .setCommitTime(Instant.now())
        .setCommitNumber(commitNumber)
        .setReason("partition-time")
        .build();
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void nameMustBeAPlainFileName() {
    for (String bad : Arrays.asList("", "a/b", "a\\b")) {
      org.junit.jupiter.api.Assertions.assertThrows(
          IllegalArgumentException.class, () -> new SuccessFilePolicy(bad, false), bad);
    }
  }
}
