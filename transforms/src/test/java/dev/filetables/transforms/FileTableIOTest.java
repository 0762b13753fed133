package dev.filetables.transforms;

import static dev.filetables.transforms.TestTables.DATA_COLUMNS;
import static dev.filetables.transforms.TestTables.PHYSICAL;
import static dev.filetables.transforms.TestTables.collected;
import static dev.filetables.transforms.TestTables.directOptions;
import static dev.filetables.transforms.TestTables.filesByPartition;
import static dev.filetables.transforms.TestTables.hiddenFiles;
import static dev.filetables.transforms.TestTables.multiset;
import static dev.filetables.transforms.TestTables.newCollector;
import static dev.filetables.transforms.TestTables.rows;
import static dev.filetables.transforms.TestTables.visibleFiles;
import static dev.filetables.transforms.TestTables.writerId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.MetadataColumn;
import dev.filetables.io.table.MetadataKey;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.TestTables.CollectFn;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Write → read round trips and sink layouts on the Direct runner. */
class FileTableIOTest {
  private static final List<String> PHYSICAL_NAMES = PHYSICAL.getFieldNames();

  @TempDir Path dir;

  static List<WrittenFile> write(TableSpec table, Schema schema, List<Row> rows) {
    Pipeline pipeline = Pipeline.create(directOptions());
    String id = newCollector();
    pipeline
        .apply(Create.of(rows).withRowSchema(schema))
        .apply(FileTableIO.write(table))
        .apply(ParDo.of(new CollectFn<>(id)));
    pipeline.run().waitUntilFinish();
    return collected(id);
  }

  static List<Row> read(FileTableIO.Read read) {
    Pipeline pipeline = Pipeline.create(directOptions());
    String id = newCollector();
    pipeline.apply(read).apply(ParDo.of(new CollectFn<>(id)));
    pipeline.run().waitUntilFinish();
    return collected(id);
  }

  /**
   * Published files are exactly the visible files, with true sizes and partition paths, and nothing
   * is hidden.
   */
  private static void assertPublished(Path root, List<WrittenFile> written, int rowCount)
      throws Exception {
    assertEquals(List.of(), hiddenFiles(root), "no in-progress file remains");
    Set<Path> paths = written.stream().map(f -> Path.of(f.path())).collect(Collectors.toSet());
    assertEquals(new HashSet<>(visibleFiles(root)), paths);
    assertEquals(rowCount, written.stream().mapToLong(WrittenFile::rowCount).sum());
    for (WrittenFile file : written) {
      Path path = Path.of(file.path());
      assertEquals(Files.size(path), file.sizeBytes(), file.path());
      assertEquals(root.resolve(file.partitionPath()).normalize(), path.getParent(), file.path());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void roundTripsTwoPartitionLevelsWithNullAndSpecialValues(String format) throws Exception {
    Path root = dir.resolve("t");
    TableSpec table = TestTables.partitioned(root, format);
    List<Row> input = rows(PHYSICAL, 300);

    List<WrittenFile> written = write(table, PHYSICAL, input);

    assertPublished(root, written, 300);
    Set<String> partitions = filesByPartition(root).keySet();
    assertEquals(
        TestTables.DT_VALUES.size() * TestTables.HOUR_VALUES.size(),
        partitions.size(),
        partitions.toString());
    for (String expected :
        List.of(
            "dt=2020-05-20/hour=0",
            "dt=a%2Fb/hour=12",
            "dt=x%3Dy/hour=0",
            "dt=100%25/hour=12",
            "dt=with space/hour=0",
            "dt=ünïcødé ✓/hour=12",
            "dt=%6Eull/hour=0",
            "dt=%4EULL/hour=__DEFAULT_PARTITION__",
            "dt=__DEFAULT_PARTITION__/hour=__DEFAULT_PARTITION__")) {
      assertTrue(partitions.contains(expected), expected + " not in " + partitions);
    }
    assertTrue(
        partitions.stream().noneMatch(p -> p.startsWith("dt=null/") || p.startsWith("dt=NULL/")),
        "a 'null' string must not look like null: " + partitions);

    List<Row> output = read(FileTableIO.read(table));
    assertEquals(multiset(input, PHYSICAL_NAMES), multiset(output, PHYSICAL_NAMES));
    assertEquals(table.schema(), output.get(0).getSchema());
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void roundTripsAnUnpartitionedTable(String format) throws Exception {
    Path root = dir.resolve("plain");
    TableSpec table = TestTables.unpartitioned(root, format);
    List<Row> input = rows(DATA_COLUMNS, 200);

    List<WrittenFile> written = write(table, DATA_COLUMNS, input);

    assertPublished(root, written, 200);
    written.forEach(f -> assertEquals("", f.partitionPath()));
    List<Row> output = read(FileTableIO.read(table).withTargetSplitSize(512));
    assertEquals(
        multiset(input, DATA_COLUMNS.getFieldNames()),
        multiset(output, DATA_COLUMNS.getFieldNames()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "parquet", "orc"})
  void rollsFilesBySize(String format) throws Exception {
    Path root = dir.resolve("rolled");
    // one writer (shuffle by partition, unpartitioned table), so every extra file is a roll
    TableSpec table =
        TestTables.unpartitioned(
            root,
            format,
            TableOptions.SHUFFLE_BY_PARTITION,
            "true",
            TableOptions.ROLLING_FILE_SIZE,
            "4kb");
    List<Row> input = rows(DATA_COLUMNS, 300);

    List<WrittenFile> written = write(table, DATA_COLUMNS, input);

    assertPublished(root, written, 300);
    assertTrue(written.size() > 2, "expected several rolled files, got " + written.size());
    List<Path> files = visibleFiles(root);
    assertEquals(Set.of("0"), files.stream().map(TestTables::writerId).collect(Collectors.toSet()));
    List<Row> output = read(FileTableIO.read(table));
    assertEquals(
        multiset(input, DATA_COLUMNS.getFieldNames()),
        multiset(output, DATA_COLUMNS.getFieldNames()));
  }

  @Test
  void sinkParallelismWritesWithAtMostThatManyWriters() throws Exception {
    Path root = dir.resolve("sharded");
    TableSpec table = TestTables.partitioned(root, "json", TableOptions.SINK_PARALLELISM, "3");
    List<Row> input = rows(PHYSICAL, 300);

    List<WrittenFile> written = write(table, PHYSICAL, input);

    assertPublished(root, written, 300);
    Set<String> writers = new HashSet<>();
    filesByPartition(root)
        .forEach(
            (partition, files) -> {
              assertTrue(files.size() <= 3, partition + " has " + files);
              files.forEach(f -> writers.add(writerId(f)));
            });
    assertEquals(Set.of("0", "1", "2"), writers);
    assertEquals(
        multiset(input, PHYSICAL_NAMES), multiset(read(FileTableIO.read(table)), PHYSICAL_NAMES));
  }

  @Test
  void shuffleByPartitionWritesOneFilePerPartition() throws Exception {
    Path root = dir.resolve("by-partition");
    TableSpec table =
        TestTables.partitioned(root, "csv", TableOptions.SHUFFLE_BY_PARTITION, "true");
    List<Row> input = rows(PHYSICAL, 300);

    List<WrittenFile> written = write(table, PHYSICAL, input);

    assertPublished(root, written, 300);
    filesByPartition(root).forEach((partition, files) -> assertEquals(1, files.size(), partition));
    assertEquals(
        multiset(input, PHYSICAL_NAMES), multiset(read(FileTableIO.read(table)), PHYSICAL_NAMES));
  }

  @Test
  void shuffleByPartitionWithParallelismKeepsEachPartitionOnOneWriter() throws Exception {
    Path root = dir.resolve("hash");
    TableSpec table =
        TestTables.partitioned(
            root,
            "avro",
            TableOptions.SHUFFLE_BY_PARTITION,
            "true",
            TableOptions.SINK_PARALLELISM,
            "3");

    List<WrittenFile> written = write(table, PHYSICAL, rows(PHYSICAL, 300));

    assertPublished(root, written, 300);
    filesByPartition(root)
        .forEach(
            (partition, files) -> {
              assertEquals(1, files.size(), partition);
              assertTrue(Set.of("0", "1", "2").contains(writerId(files.get(0))), files.toString());
            });
  }

  @Test
  void writingTwiceKeepsBothWrites() throws Exception {
    Path root = dir.resolve("twice");
    TableSpec table = TestTables.partitioned(root, "parquet");
    List<Row> input = rows(PHYSICAL, 100);

    List<WrittenFile> first = write(table, PHYSICAL, input);
    List<WrittenFile> second = write(table, PHYSICAL, input);

    assertEquals(List.of(), hiddenFiles(root));
    List<Path> files = visibleFiles(root);
    assertEquals(first.size() + second.size(), files.size());
    assertEquals(2, files.stream().map(TestTables::writeUuid).distinct().count());
    first.forEach(f -> assertTrue(Files.exists(Path.of(f.path())), f.path()));
    List<Row> doubled = new ArrayList<>(input);
    doubled.addAll(input);
    assertEquals(
        multiset(doubled, PHYSICAL_NAMES), multiset(read(FileTableIO.read(table)), PHYSICAL_NAMES));
  }

  @Test
  void emptyPartitionValueReadsBackAsNull() throws Exception {
    Path root = dir.resolve("empty");
    TableSpec table = TestTables.partitioned(root, "csv");
    List<Row> input = new ArrayList<>();
    for (Row row : rows(PHYSICAL, 10)) {
      input.add(Row.fromRow(row).withFieldValue("dt", "").build());
    }
    write(table, PHYSICAL, input);
    assertTrue(
        filesByPartition(root).keySet().stream()
            .allMatch(p -> p.startsWith("dt=__DEFAULT_PARTITION__/")));
    for (Row row : read(FileTableIO.read(table))) {
      assertNull(row.getString("dt"));
    }
  }

  /** A data file no format can read, in a partition that a filter excludes. */
  private static Path plantGarbage(Path root, String partition, String extension) throws Exception {
    Path garbage = root.resolve(partition).resolve("part-garbage" + extension);
    Files.createDirectories(garbage.getParent());
    Files.write(garbage, "\u0000\u0001 not data {{{ ,,,\nxyz\n".getBytes(StandardCharsets.UTF_8));
    return garbage;
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "orc"})
  void partitionFilterPrunesDirectoriesItExcludes(String format) throws Exception {
    Path root = dir.resolve("pruned");
    TableSpec table = TestTables.partitioned(root, format);
    List<Row> input = rows(PHYSICAL, 300);
    write(table, PHYSICAL, input);
    Path garbage = plantGarbage(root, "dt=zzz/hour=1", "." + format);

    // without pruning the garbage file breaks the read, naming the file
    Exception failure = assertThrows(Exception.class, () -> read(FileTableIO.read(table)));
    assertTrue(stackText(failure).contains(garbage.toString()), stackText(failure));

    List<Row> ab = read(FileTableIO.read(table).withPartitionFilter("dt = 'a/b'"));
    assertEquals(
        multiset(filter(input, r -> "a/b".equals(r.getString("dt"))), PHYSICAL_NAMES),
        multiset(ab, PHYSICAL_NAMES));

    List<Row> nullHours =
        read(FileTableIO.read(table).withPartitionFilter("dt <> 'zzz' AND hour IS NULL"));
    // SQL logic: dt <> 'zzz' is unknown (not true) where dt is null
    assertEquals(
        multiset(
            filter(input, r -> r.getInt32("hour") == null && r.getString("dt") != null),
            PHYSICAL_NAMES),
        multiset(nullHours, PHYSICAL_NAMES));

    List<Row> noon = read(FileTableIO.read(table).withPartitionFilter(new HourIs("12")));
    assertEquals(
        multiset(filter(input, r -> Objects.equals(r.getInt32("hour"), 12)), PHYSICAL_NAMES),
        multiset(noon, PHYSICAL_NAMES));
  }

  /** A hand-written filter: hour equals a raw value (prunes dt=zzz/hour=1 at the second level). */
  private static final class HourIs implements PartitionFilter {
    private static final long serialVersionUID = 1L;
    private final String hour;

    HourIs(String hour) {
      this.hour = hour;
    }

    @Override
    public boolean test(Map<String, String> partialPartition) {
      return !partialPartition.containsKey("hour") || hour.equals(partialPartition.get("hour"));
    }

    @Override
    public Set<String> referencedKeys() {
      return Set.of("hour");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void badFileFailsTheReadNamingTheFile(String format) throws Exception {
    Path root = dir.resolve("bad");
    TableSpec table = TestTables.unpartitioned(root, format);
    Path garbage = plantGarbage(root, "", "." + format);
    Exception failure = assertThrows(Exception.class, () -> read(FileTableIO.read(table)));
    assertTrue(stackText(failure).contains(garbage.toString()), stackText(failure));
  }

  @ParameterizedTest
  @ValueSource(strings = {"avro", "orc"})
  void fillsMetadataColumns(String format) throws Exception {
    Path root = dir.resolve("meta");
    TableSpec table =
        TestTables.withMetadata(
            TestTables.partitioned(root, format),
            List.of(
                MetadataColumn.of("file_path", MetadataKey.FILE_PATH),
                MetadataColumn.of("file_name", MetadataKey.FILE_NAME),
                MetadataColumn.of("file_size", MetadataKey.FILE_SIZE),
                MetadataColumn.of("file_time", MetadataKey.FILE_MODIFICATION_TIME)));
    assertEquals(PHYSICAL, table.physicalSchema());
    List<Row> input = rows(PHYSICAL, 100);
    write(table, PHYSICAL, input);

    List<Row> output = read(FileTableIO.read(table));

    assertEquals(multiset(input, PHYSICAL_NAMES), multiset(output, PHYSICAL_NAMES));
    Set<Path> seen = new HashSet<>();
    for (Row row : output) {
      Path path = Path.of(row.getString("file_path"));
      seen.add(path);
      assertEquals(path.getFileName().toString(), row.getString("file_name"));
      assertEquals(Files.size(path), row.getInt64("file_size"));
      assertEquals(
          Files.getLastModifiedTime(path).toMillis(), row.getDateTime("file_time").getMillis());
    }
    assertEquals(new HashSet<>(visibleFiles(root)), seen);
  }

  @Test
  void expandRejectsMissingAndExtraColumns() {
    TableSpec table = TestTables.partitioned(dir.resolve("v"), "csv");
    Pipeline pipeline = Pipeline.create(directOptions());

    Schema missing =
        Schema.builder()
            .addFields(PHYSICAL.getFields().subList(0, PHYSICAL.getFieldCount() - 1))
            .build();
    PCollection<Row> withoutHour = pipeline.apply("Missing", Create.empty(missing));
    String message =
        assertThrows(
                IllegalArgumentException.class, () -> withoutHour.apply(FileTableIO.write(table)))
            .getMessage();
    assertTrue(message.contains("missing column(s) [hour]"), message);

    Schema extra =
        Schema.builder().addFields(PHYSICAL.getFields()).addStringField("comment").build();
    PCollection<Row> withComment = pipeline.apply("Extra", Create.empty(extra));
    message =
        assertThrows(
                IllegalArgumentException.class, () -> withComment.apply(FileTableIO.write(table)))
            .getMessage();
    assertTrue(message.contains("[comment]"), message);
  }

  @Test
  void displaysWhatMatters() {
    TableSpec table =
        TestTables.partitioned(dir.resolve("d"), "parquet", TableOptions.SINK_PARALLELISM, "4");
    DisplayData write = DisplayData.from(FileTableIO.write(table));
    assertTrue(write.toString().contains(dir.resolve("d").toString()), write.toString());
    assertTrue(write.toString().contains("parquet"), write.toString());
    assertTrue(write.toString().contains("dt, hour"), write.toString());
    assertTrue(write.toString().contains("sinkParallelism"), write.toString());
    DisplayData read = DisplayData.from(FileTableIO.read(table).withPartitionFilter("dt = 'x'"));
    assertTrue(read.toString().contains("dt = 'x'"), read.toString());
  }

  private static List<Row> filter(List<Row> rows, java.util.function.Predicate<Row> keep) {
    return rows.stream().filter(keep).collect(Collectors.toList());
  }

  private static String stackText(Throwable t) {
    StringBuilder text = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      text.append(c).append('\n');
    }
    return text.toString();
  }
}
