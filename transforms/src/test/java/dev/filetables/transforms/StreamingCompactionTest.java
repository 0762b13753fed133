package dev.filetables.transforms;

import static dev.filetables.transforms.TestTables.DATA_COLUMNS;
import static dev.filetables.transforms.TestTables.PHYSICAL;
import static dev.filetables.transforms.TestTables.hiddenFiles;
import static dev.filetables.transforms.TestTables.multiset;
import static dev.filetables.transforms.TestTables.rows;
import static dev.filetables.transforms.TestTables.visibleFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code auto-compaction} in the streaming sink (TestStream, Direct runner). */
@Tag("slow")
class StreamingCompactionTest {
  static {
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
  }

  @TempDir Path dir;

  private static void assertPublishedExactly(Path root, List<WrittenFile> written) {
    assertEquals(
        List.of(),
        hiddenFiles(root).stream()
            .filter(p -> !p.toString().endsWith(".replaces"))
            .collect(Collectors.toList()),
        "no input, segment or merged file stays hidden");
    assertEquals(
        new HashSet<>(visibleFiles(root)),
        written.stream().map(f -> Path.of(f.path())).collect(Collectors.toSet()));
    for (WrittenFile file : written) {
      assertEquals(
          file.sizeBytes(), Files.exists(Path.of(file.path())) ? sizeOf(file) : -1, file.path());
    }
  }

  private static long sizeOf(WrittenFile file) {
    try {
      return Files.size(Path.of(file.path()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void smallRolledFilesAreMergedToTheTargetSize(String format) throws Exception {
    Path root = dir.resolve("t");
    TableSpec plain =
        TestTables.unpartitioned(
            root,
            format,
            TableOptions.SINK_PARALLELISM,
            "1",
            TableOptions.ROLLING_FILE_SIZE,
            "1kb");
    TableSpec table =
        TestTables.unpartitioned(
            root,
            format,
            TableOptions.SINK_PARALLELISM,
            "1",
            TableOptions.ROLLING_FILE_SIZE,
            "1kb",
            TableOptions.AUTO_COMPACTION,
            "true",
            TableOptions.COMPACTION_FILE_SIZE,
            "8kb",
            TableOptions.COMPACTION_MAX_DELAY,
            "1 h");
    List<org.apache.beam.sdk.values.Row> input = rows(DATA_COLUMNS, 400);

    List<WrittenFile> uncompacted =
        StreamingWriteTest.write(
            plain,
            StreamingWriteTest.stream(DATA_COLUMNS, input, 100),
            FileTableIO.write(plain).withBufferSize(500));
    TestTables.allFiles(root).forEach(p -> p.toFile().delete());
    List<WrittenFile> written =
        StreamingWriteTest.write(
            table,
            StreamingWriteTest.stream(DATA_COLUMNS, input, 100),
            FileTableIO.write(table).withBufferSize(500));

    assertPublishedExactly(root, written);
    assertEquals(400, written.stream().mapToLong(WrittenFile::rowCount).sum());
    // a group is sealed once its inputs reach the 8 kb target, so it holds about 8 kb / (size of a
    // rolled file) files: 8 for 1 kb JSON, about 2 for Parquet, whose rolled files of a few rows
    // come with a 4 kb footer. Rolled sizes differ between runs (bundles, batches), so ask for half
    // of that ideal.
    double averageRolled =
        uncompacted.stream().mapToLong(WrittenFile::sizeBytes).average().orElse(1);
    double idealPerGroup = Math.max(1, 8 * 1024 / averageRolled);
    assertTrue(
        written.size() * idealPerGroup / 2 <= uncompacted.size(),
        written.size()
            + " compacted files for "
            + uncompacted.size()
            + " rolled ones of "
            + Math.round(averageRolled)
            + " bytes on average");
    long merged =
        written.stream()
            .filter(f -> CompactedFileName.isCompacted(Path.of(f.path()).getFileName().toString()))
            .count();
    assertTrue(merged >= written.size() - 1, "all but maybe the last are merged: " + written);
    List<WrittenFile> bySize =
        written.stream()
            .sorted((a, b) -> Long.compare(a.sizeBytes(), b.sizeBytes()))
            .collect(Collectors.toList());
    if (format.equals("csv") || format.equals("json")) {
      // byte concatenation: the merged size is the inputs' size (Avro and Parquet keep one header
      // and footer, so their merged files are smaller than the inputs that reached the target)
      for (WrittenFile file : bySize.subList(1, bySize.size())) {
        assertTrue(file.sizeBytes() >= 7 * 1024, "merged below the target: " + file);
      }
    }
    assertEquals(
        multiset(input, DATA_COLUMNS.getFieldNames()),
        multiset(StreamingWriteTest.read(table), DATA_COLUMNS.getFieldNames()));
  }

  @Test
  void theMaximumDelayPublishesAQuietPartitionsFiles() throws Exception {
    Path root = dir.resolve("delay");
    // rolls every second of processing time; the target is never reached, the delay (3 s) decides
    TableSpec table =
        TestTables.unpartitioned(
            root,
            "json",
            TableOptions.SINK_PARALLELISM,
            "1",
            TableOptions.ROLLING_ROLLOVER_INTERVAL,
            "1 s",
            TableOptions.ROLLING_CHECK_INTERVAL,
            "1 s",
            TableOptions.AUTO_COMPACTION,
            "true",
            TableOptions.COMPACTION_FILE_SIZE,
            "64mb",
            TableOptions.COMPACTION_MAX_DELAY,
            "3 s");
    List<org.apache.beam.sdk.values.Row> input = rows(DATA_COLUMNS, 300);

    List<WrittenFile> written =
        StreamingWriteTest.write(
            table, StreamingWriteTest.stream(DATA_COLUMNS, input, 20), FileTableIO.write(table));

    assertPublishedExactly(root, written);
    assertTrue(written.size() >= 2, "published before the end by the delay: " + written);
    assertTrue(written.size() <= 8, "but merged across rolls: " + written.size() + " files");
    assertEquals(
        multiset(input, DATA_COLUMNS.getFieldNames()),
        multiset(StreamingWriteTest.read(table), DATA_COLUMNS.getFieldNames()));
  }

  @Test
  void partitionsAreCommittedAfterTheirCompaction() throws Exception {
    Path root = dir.resolve("committed");
    TableSpec table =
        TestTables.partitioned(
            root,
            "parquet",
            TableOptions.SINK_PARALLELISM,
            "2",
            TableOptions.ROLLING_FILE_SIZE,
            "1kb",
            TableOptions.AUTO_COMPACTION,
            "true",
            TableOptions.COMPACTION_FILE_SIZE,
            "1mb",
            TableOptions.COMPACTION_MAX_DELAY,
            "1 h",
            TableOptions.COMMIT_POLICY_KIND,
            "success-file",
            TableOptions.COMMIT_SUCCESS_FILE_MANIFEST,
            "true");
    List<org.apache.beam.sdk.values.Row> input = rows(PHYSICAL, 600);

    List<WrittenFile> written =
        StreamingWriteTest.write(
            table,
            StreamingWriteTest.stream(PHYSICAL, input, 100),
            FileTableIO.write(table).withBufferSize(400));

    assertPublishedExactly(root, written);
    Map<String, List<Path>> byPartition = TestTables.filesByPartition(root);
    for (Map.Entry<String, List<Path>> partition : byPartition.entrySet()) {
      assertEquals(1, partition.getValue().size(), "one merged file per partition: " + partition);
      Path success = root.resolve(partition.getKey()).resolve("_SUCCESS");
      assertTrue(Files.exists(success), partition.getKey());
      // committed after its compaction: the manifest lists the merged file, nothing hidden
      String manifest = Files.readString(success);
      assertTrue(manifest.contains(partition.getValue().get(0).getFileName().toString()), manifest);
      assertTrue(!manifest.contains(".inprogress"), manifest);
    }
    assertEquals(
        multiset(input, PHYSICAL.getFieldNames()),
        multiset(StreamingWriteTest.read(table), PHYSICAL.getFieldNames()));
  }
}
