package dev.filetables.transforms.commit;

import static dev.filetables.transforms.commit.CommitTestSupport.visibleFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionCommitterTest {
  private static final String HOUR_12 = "dt=2020-05-20/hour=12";

  @TempDir Path root;

  @Test
  void restartBetweenVisibilityAndCommit() throws Exception {
    TableSpec table = CommitTestSupport.hourly(root);
    // run 1 published two files and committed once (manifest with row counts) ...
    WrittenFile a = visibleFile(root, HOUR_12, 2);
    new PartitionCommitter(table).commit(HOUR_12, List.of(a), 1, Optional.empty(), "process-time");
    // ... then published one more and died before committing it
    WrittenFile b = visibleFile(root, HOUR_12, 3);
    // run 2 (no state) gets a new file and commits: the manifest has all three, with their counts
    // where known: b's rows were never recorded
    WrittenFile c = visibleFile(root, HOUR_12, 4);
    PartitionCommitContext context =
        new PartitionCommitter(table)
            .commit(HOUR_12, List.of(c), 1, Optional.empty(), "process-time");
    assertEquals(3, context.files().size());
    assertEquals(
        List.of(c.path()),
        context.newFiles().stream()
            .map(f -> f.path())
            .collect(java.util.stream.Collectors.toList()));
    Path dir = root.resolve(HOUR_12);
    CommitManifest manifest = CommitManifest.read(dir.resolve("_SUCCESS"));
    assertEquals(List.of(), manifest.verify(dir));
    String nameA = Path.of(a.path()).getFileName().toString();
    String nameB = Path.of(b.path()).getFileName().toString();
    assertEquals(2, manifest.files().get(nameA).rowCount.getAsLong(), "from the previous manifest");
    assertTrue(manifest.files().get(nameB).rowCount.isEmpty(), "unknown, not guessed");
    assertTrue(manifest.json().path("rowCount").isNull());
  }

  @Test
  void escapedPartitionValuesAreUnescapedForTheExtractor() throws Exception {
    PartitionCommitter committer =
        new PartitionCommitter(
            CommitTestSupport.hourly(
                root,
                TableOptions.TIME_EXTRACTOR_PATTERN,
                "$dt",
                TableOptions.TIME_EXTRACTOR_FORMATTER,
                "yyyy-MM-dd HH:mm"));
    // ':' is escaped in directory names
    assertEquals(
        java.time.LocalDateTime.of(2020, 5, 20, 12, 30),
        committer.partitionTime("dt=2020-05-20 12%3A30/hour=x"));
    Files.createDirectories(root.resolve("dt=2020-05-20 12%3A30/hour=x"));
    PartitionCommitContext context =
        committer.commit(
            "dt=2020-05-20 12%3A30/hour=x", List.of(), 1, Optional.empty(), "end-of-input");
    assertEquals(List.of("2020-05-20 12:30", "x"), context.partitionValues());
  }
}
