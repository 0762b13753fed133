package dev.filetables.transforms;

import static dev.filetables.transforms.TestTables.DATA_COLUMNS;
import static dev.filetables.transforms.TestTables.PHYSICAL;
import static dev.filetables.transforms.TestTables.collected;
import static dev.filetables.transforms.TestTables.directOptions;
import static dev.filetables.transforms.TestTables.hiddenFiles;
import static dev.filetables.transforms.TestTables.multiset;
import static dev.filetables.transforms.TestTables.newCollector;
import static dev.filetables.transforms.TestTables.rows;
import static dev.filetables.transforms.TestTables.visibleFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.TestTables.CollectFn;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FileTableIO.write on unbounded input (TestStream, Direct runner): write, roll, publish, read
 * back.
 */
@Tag("slow")
class StreamingWriteTest {
  static {
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
  }

  private static final Instant T0 = new Instant(1_590_000_000_000L);

  @TempDir Path dir;

  /** Rows as a stream: {@code batch} rows per step, one second of processing time between steps. */
  static TestStream<Row> stream(Schema schema, List<Row> rows, int batch) {
    TestStream.Builder<Row> builder = TestStream.create(RowCoder.of(schema));
    for (int i = 0; i < rows.size(); i += batch) {
      for (int k = i; k < Math.min(rows.size(), i + batch); k++) {
        builder =
            builder.addElements(TimestampedValue.of(rows.get(k), T0.plus(Duration.millis(k))));
      }
      builder = builder.advanceProcessingTime(Duration.standardSeconds(1));
    }
    return builder.advanceWatermarkToInfinity();
  }

  static List<WrittenFile> write(TableSpec table, TestStream<Row> stream, FileTableIO.Write write) {
    Pipeline pipeline = Pipeline.create(directOptions());
    String id = newCollector();
    PCollection<Row> input = pipeline.apply(stream);
    assertEquals(PCollection.IsBounded.UNBOUNDED, input.isBounded());
    input.apply(write).apply(ParDo.of(new CollectFn<>(id)));
    pipeline.run().waitUntilFinish();
    return collected(id);
  }

  static List<Row> read(TableSpec table) {
    return FileTableIOTest.read(FileTableIO.read(table));
  }

  private static void assertAllPublished(Path root, List<WrittenFile> written, int rows)
      throws Exception {
    assertEquals(List.of(), hiddenFiles(root), "no in-progress file or segment remains");
    Set<Path> paths = written.stream().map(f -> Path.of(f.path())).collect(Collectors.toSet());
    assertEquals(new HashSet<>(visibleFiles(root)), paths);
    assertEquals(rows, written.stream().mapToLong(WrittenFile::rowCount).sum());
    for (WrittenFile file : written) {
      assertEquals(Files.size(Path.of(file.path())), file.sizeBytes(), file.path());
      assertTrue(file.rowCount() > 0, "no empty files: " + file);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void roundTripsThroughSegmentsAndMerges(String format) throws Exception {
    Path root = dir.resolve("t");
    // one writer per partition; a tiny buffer makes every file out of several merged segments
    TableSpec table =
        TestTables.partitioned(root, format, TableOptions.SHUFFLE_BY_PARTITION, "true");
    List<Row> input = rows(PHYSICAL, 400);

    List<WrittenFile> written =
        write(table, stream(PHYSICAL, input, 50), FileTableIO.write(table).withBufferSize(300));

    assertAllPublished(root, written, 400);
    assertEquals(
        TestTables.DT_VALUES.size() * TestTables.HOUR_VALUES.size(),
        written.size(),
        "one file per partition: nothing rolls before the input ends");
    List<Row> output = read(table);
    assertEquals(
        multiset(input, PHYSICAL.getFieldNames()), multiset(output, PHYSICAL.getFieldNames()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "parquet"})
  void rollsBySize(String format) throws Exception {
    Path root = dir.resolve("sized");
    TableSpec table =
        TestTables.unpartitioned(
            root,
            format,
            TableOptions.SINK_PARALLELISM,
            "1",
            TableOptions.ROLLING_FILE_SIZE,
            "4kb");
    List<Row> input = rows(DATA_COLUMNS, 600);

    List<WrittenFile> written =
        write(
            table, stream(DATA_COLUMNS, input, 100), FileTableIO.write(table).withBufferSize(1000));

    assertAllPublished(root, written, 600);
    assertTrue(written.size() >= 3, "expected several rolled files, got " + written.size());
    List<WrittenFile> bySize =
        written.stream()
            .sorted((a, b) -> Long.compare(a.sizeBytes(), b.sizeBytes()))
            .collect(Collectors.toList());
    // all but the last (closed by the end of input) reached the rolling size, roughly
    for (WrittenFile file : bySize.subList(1, bySize.size())) {
      assertTrue(file.sizeBytes() >= 3 * 1024, "rolled early: " + file);
    }
    assertEquals(
        multiset(input, DATA_COLUMNS.getFieldNames()),
        multiset(read(table), DATA_COLUMNS.getFieldNames()));
  }

  @Test
  void sinkParallelismWithShuffleByPartitionUsesOneWriterPerPartition() throws Exception {
    Path root = dir.resolve("shuffled");
    TableSpec table =
        TestTables.partitioned(
            root,
            "csv",
            TableOptions.SINK_PARALLELISM,
            "3",
            TableOptions.SHUFFLE_BY_PARTITION,
            "true");
    List<Row> input = rows(PHYSICAL, 270);

    List<WrittenFile> written = write(table, stream(PHYSICAL, input, 90), FileTableIO.write(table));

    assertAllPublished(root, written, 270);
    Map<String, List<Path>> byPartition = TestTables.filesByPartition(root);
    for (Map.Entry<String, List<Path>> partition : byPartition.entrySet()) {
      assertEquals(1, partition.getValue().size(), partition.toString());
    }
    Set<String> writers =
        visibleFiles(root).stream().map(TestTables::writerId).collect(Collectors.toSet());
    assertTrue(Set.of("0", "1", "2").containsAll(writers), writers.toString());
  }

  @Test
  void sinkParallelismAloneSpreadsPartitionsOverWriters() throws Exception {
    Path root = dir.resolve("spread");
    TableSpec table = TestTables.unpartitioned(root, "json", TableOptions.SINK_PARALLELISM, "3");
    List<Row> input = rows(DATA_COLUMNS, 90);

    List<WrittenFile> written =
        write(
            table,
            stream(DATA_COLUMNS, input, 30),
            FileTableIO.write(table).withWriteUuid("fixed-write-1"));

    assertAllPublished(root, written, 90);
    List<PartFileName.Parts> names =
        visibleFiles(root).stream()
            .map(p -> PartFileName.parse(p.getFileName().toString()).get())
            .collect(Collectors.toList());
    assertEquals(
        Set.of("fixed-write-1"),
        names.stream().map(PartFileName.Parts::uuid).collect(Collectors.toSet()));
    assertEquals(
        Set.of("0", "1", "2"),
        names.stream().map(PartFileName.Parts::writer).collect(Collectors.toSet()));
    assertEquals(3, written.size(), "one file per writer");
  }
}
