package dev.filetables.transforms;

import static dev.filetables.transforms.TestTables.collected;
import static dev.filetables.transforms.TestTables.directOptions;
import static dev.filetables.transforms.TestTables.newCollector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.TestTables.CollectFn;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRange;
import dev.filetables.transforms.source.FileRangeReader;
import dev.filetables.transforms.source.ReadRanges;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dirty data through {@code FileTableIO.read} on the Direct runner: the three {@code
 * source.bad-records} policies, charsets, and broken, empty, vanished and unreadable files.
 */
class DirtyDataReadTest {
  static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addNullableField("name", ColumnType.STRING.fieldType())
          .build();

  @TempDir Path dir;

  private TableSpec table(String format, String... options) {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("connector", "filesystem");
    map.put("path", dir.resolve("t").toString());
    map.put("format", format);
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    return TableSpec.builder()
        .setName("dirty")
        .setSchema(SCHEMA)
        .setOptions(TableOptions.of(map))
        .build();
  }

  private String deadLetterPath() {
    return dir.resolve("dead").toString();
  }

  private TableSpec deadLetterTable(String format, String... more) {
    List<String> options =
        new ArrayList<>(
            List.of(
                "source.bad-records",
                "dead-letter",
                "source.bad-records.dead-letter.path",
                deadLetterPath()));
    options.addAll(Arrays.asList(more));
    return table(format, options.toArray(new String[0]));
  }

  private Path file(String name, byte[] content) throws Exception {
    Path path = dir.resolve("t").resolve(name);
    Files.createDirectories(path.getParent());
    return Files.write(path, content);
  }

  private Path text(String name, String content) throws Exception {
    return file(name, content.getBytes(StandardCharsets.UTF_8));
  }

  /** A valid file of a binary format with rows {@code ids}. */
  private Path binary(TableSpec table, String name, long... ids) throws Exception {
    Path path = dir.resolve("t").resolve(name);
    Files.createDirectories(path.getParent());
    try (OutputStream out = Files.newOutputStream(path);
        RowWriter writer = FileFormats.of(table.options()).createWriter(out, table.fileSchema())) {
      for (long id : ids) {
        writer.write(Row.withSchema(SCHEMA).addValues(id, "n" + id).build());
      }
    }
    return path;
  }

  /** Rows read and the pipeline result (for metrics). */
  record Read(List<Row> rows, PipelineResult result) {
    /** The ids read; fails if any row was read twice (rows compare as a multiset, not a set). */
    Set<Long> ids() {
      List<Long> all = rows.stream().map(r -> r.getInt64("id")).collect(Collectors.toList());
      Set<Long> ids = new TreeSet<>(all);
      assertEquals(ids.size(), all.size(), "a row read more than once: " + all);
      return ids;
    }

    long counter(String name) {
      MetricQueryResults metrics =
          result
              .metrics()
              .queryMetrics(
                  MetricsFilter.builder()
                      .addNameFilter(MetricNameFilter.named(FileRangeReader.NAMESPACE, name))
                      .build());
      long total = 0;
      for (MetricResult<Long> counter : metrics.getCounters()) {
        total += counter.getAttempted();
      }
      return total;
    }
  }

  static Read read(FileTableIO.Read read, PipelineOptions options) {
    Pipeline pipeline = Pipeline.create(options);
    String id = newCollector();
    pipeline.apply(read).apply(ParDo.of(new CollectFn<>(id)));
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    return new Read(collected(id), result);
  }

  private static Read read(TableSpec table) {
    return read(FileTableIO.read(table), directOptions());
  }

  private static String failure(TableSpec table) {
    Exception e = assertThrows(Exception.class, () -> read(table));
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t).append('\n');
    }
    return text.toString();
  }

  private static void assertContains(String text, String... parts) {
    for (String part : parts) {
      assertTrue(text.contains(part), "expected <" + part + "> in: " + text);
    }
  }

  /** Dead-letter rows, read back through the table's DDL (as {@code bin/filetables query} does). */
  private List<Row> deadLetters(TableSpec source) throws Exception {
    Path ddl = Files.writeString(dir.resolve("dead_letters.sql"), DeadLetterTable.ddl(source));
    TableSpec deadLetters = DdlParser.parseFile(ddl);
    if (!Files.exists(deadLetters.options().rootPath())) {
      return List.of();
    }
    List<Row> rows = read(deadLetters).rows();
    assertEquals(
        DuckDbDeadLetters.keysOf(rows),
        DuckDbDeadLetters.rows(deadLetters.options().rootPath()),
        "DuckDB reads the dead-letter table as FileTables does");
    return rows;
  }

  private static final String CSV_WITH_BAD_RECORDS =
      "1,a\n" + "x,not a number\n" + "3,c\r\n" + "4,d,extra\n" + "5,\"e\"\n";

  // ---- the three policies on bad records ----

  @Test
  void failIsTheDefaultAndNamesFileLineReasonAndTheOption() throws Exception {
    Path file = text("part-1.csv", CSV_WITH_BAD_RECORDS);
    assertContains(
        failure(table("csv")),
        file.toString(),
        "line 2",
        "cannot parse 'x' as BIGINT",
        "'source.bad-records' = 'skip'",
        "'dead-letter'");
  }

  @Test
  void skipDropsCountsAndReadsOn() throws Exception {
    text("part-1.csv", CSV_WITH_BAD_RECORDS);
    text("part-2.json", "");
    Read read = read(table("csv", "source.bad-records", "skip"));
    assertEquals(Set.of(1L, 3L, 5L), read.ids());
    assertEquals(2, read.counter(FileRangeReader.BAD_RECORDS));
    assertEquals(0, read.counter(FileRangeReader.DEAD_LETTERS));
  }

  @Test
  void flinksIgnoreParseErrorsSkipsAndCounts() throws Exception {
    text("part-1.json", "{\"id\":1}\n{broken\n{\"id\":2,\"name\":\"b\"}\n{\"id\":null}\n");
    Read read = read(table("json", "json.ignore-parse-errors", "true"));
    assertEquals(Set.of(1L, 2L), read.ids());
    assertEquals(2, read.counter(FileRangeReader.BAD_RECORDS));
  }

  @Test
  void deadLetterWritesAReplayableTable() throws Exception {
    Path csv = text("part-1.csv", CSV_WITH_BAD_RECORDS);
    TableSpec table = deadLetterTable("csv");
    Read read = read(table);
    assertEquals(Set.of(1L, 3L, 5L), read.ids());
    assertEquals(2, read.counter(FileRangeReader.DEAD_LETTERS));

    List<Row> dead = new ArrayList<>(deadLetters(table));
    dead.sort((a, b) -> Long.compare(a.getInt64("line_number"), b.getInt64("line_number")));
    assertEquals(2, dead.size(), dead.toString());
    Row first = dead.get(0);
    assertEquals(csv.toString(), first.getString("source_file"));
    assertEquals("record", first.getString("kind"));
    assertEquals(2L, first.getInt64("line_number"));
    assertEquals(4L, first.getInt64("byte_offset"));
    assertEquals("x,not a number\n", first.getString("raw_text"));
    assertEquals(
        "x,not a number\n",
        new String(
            Base64.getDecoder().decode(first.getString("raw_base64")), StandardCharsets.UTF_8));
    assertEquals("dev.filetables.io.format.BadRecordException", first.getString("error_class"));
    assertContains(first.getString("error_message"), "cannot parse 'x' as BIGINT");
    assertEquals(
        java.time.Instant.ofEpochMilli(first.getDateTime("error_time").getMillis())
            .toString()
            .substring(0, 10),
        first.getString("dt"));
    assertTrue(Files.isDirectory(dir.resolve("dead").resolve("dt=" + first.getString("dt"))));
    Row second = dead.get(1);
    assertEquals(4L, second.getInt64("line_number"));
    assertEquals("4,d,extra\n", second.getString("raw_text"));
    assertContains(second.getString("error_message"), "expected 2 fields but found 3");

    // replay after repair: the repaired raw text, put back into the table, reads as rows
    text("part-repaired.csv", "2,not a number\n" + "4,d\n");
    assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), read(table).ids());
  }

  @Test
  void undecodableTextGoesToTheDeadLetterTableAsBase64() throws Exception {
    byte[] gbk = "2,中文\n".getBytes(Charset.forName("GBK"));
    file(
        "part-1.csv",
        concat(
            "1,a\n".getBytes(StandardCharsets.UTF_8),
            gbk,
            "3,c\n".getBytes(StandardCharsets.UTF_8)));
    TableSpec table = deadLetterTable("csv");
    assertEquals(Set.of(1L, 3L), read(table).ids());
    Row dead = deadLetters(table).get(0);
    assertNull(dead.getString("raw_text"), "not UTF-8: base64 only");
    assertEquals(
        Arrays.toString(gbk),
        Arrays.toString(Base64.getDecoder().decode(dead.getString("raw_base64"))));
    assertContains(dead.getString("error_message"), "not valid UTF-8");

    // declared as GBK the same file reads completely, and text is decoded
    TableSpec gbkTable = table("csv", "csv.charset", "GBK");
    Read read = read(gbkTable);
    assertEquals(Set.of(1L, 2L, 3L), read.ids());
    assertTrue(read.rows().stream().anyMatch(r -> "中文".equals(r.getString("name"))));
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  // ---- broken files ----

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro", "orc"})
  void truncatedFileIsOneBadFileAndTheOthersAreRead(String format) throws Exception {
    TableSpec skip = table(format, "source.bad-records", "skip");
    binary(skip, "part-good." + format, 1, 2, 3);
    Path broken = binary(skip, "part-broken." + format, 10, 11, 12);
    byte[] bytes = Files.readAllBytes(broken);
    Files.write(broken, Arrays.copyOf(bytes, bytes.length / 2));

    Read read = read(skip);
    assertEquals(Set.of(1L, 2L, 3L), read.ids());
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES));

    assertContains(failure(table(format)), broken.toString(), "'source.bad-records'");

    TableSpec dl = deadLetterTable(format);
    assertEquals(Set.of(1L, 2L, 3L), read(dl).ids());
    List<Row> dead = deadLetters(dl);
    assertEquals(1, dead.size(), dead.toString());
    assertEquals("file", dead.get(0).getString("kind"));
    assertEquals(broken.toString(), dead.get(0).getString("source_file"));
    assertEquals(0L, dead.get(0).getInt64("byte_offset"));
    assertNull(dead.get(0).getString("raw_base64"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro", "orc"})
  void corruptFileIsABadFileEvenWhenSplitIntoManyRanges(String format) throws Exception {
    TableSpec skip = table(format, "source.bad-records", "skip");
    binary(skip, "part-good." + format, 1, 2);
    long[] many = new long[2000];
    for (int i = 0; i < many.length; i++) {
      many[i] = 100 + i;
    }
    Path broken = binary(skip, "part-corrupt." + format, many);
    byte[] bytes = Files.readAllBytes(broken);
    if (format.equals("parquet")) {
      // the footer length (4 bytes before the closing magic) points nowhere
      bytes[bytes.length - 8] = (byte) 0x7f;
      bytes[bytes.length - 5] = (byte) 0x7f;
    } else if (format.equals("orc")) {
      bytes[bytes.length - 1] = (byte) 0xFF; // the postscript's length, the file's last byte
    } else {
      bytes[0] = 'X'; // not the Avro magic
    }
    Files.write(broken, bytes);

    Read read = read(FileTableIO.read(skip).withTargetSplitSize(1024), directOptions());
    assertEquals(Set.of(1L, 2L), read.ids());
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES), "one report per file, not per range");
  }

  @Test
  void corruptAvroBlockKeepsTheBlocksBeforeIt() throws Exception {
    TableSpec skip =
        table(
            "avro", "source.bad-records", "skip", "avro.sync-interval", "64", "avro.codec", "null");
    long[] ids = new long[200];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    Path avro = binary(skip, "part-blocks.avro", ids);
    byte[] bytes = Files.readAllBytes(avro);
    // damage the last ~third of the file: later blocks fail, earlier ones are read
    for (int i = bytes.length * 2 / 3; i < bytes.length; i++) {
      bytes[i] = (byte) 0xFF;
    }
    Files.write(avro, bytes);
    Read read = read(skip);
    assertFalse(read.ids().isEmpty());
    assertTrue(read.ids().size() < ids.length, read.ids().toString());
    assertEquals(0L, read.ids().iterator().next(), "a prefix of the rows");
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES));
    // deterministic: the same bytes give the same rows
    assertEquals(read.ids(), read(skip).ids());
  }

  @Test
  void truncatedAvroKeepsTheCompleteBlocksAndReportsTheCut() throws Exception {
    TableSpec table =
        table(
            "avro", "source.bad-records", "skip", "avro.sync-interval", "64", "avro.codec", "null");
    long[] ids = new long[200];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    Path avro = binary(table, "part-cut.avro", ids);
    byte[] bytes = Files.readAllBytes(avro);
    Files.write(avro, Arrays.copyOf(bytes, bytes.length * 2 / 3));
    List<Row> rows = new ArrayList<>();
    DataFile file = DataFile.of(avro.toString(), Map.of(), Files.size(avro), 0);
    FileRangeReader.Result result =
        new FileRangeReader(table)
            .read(FileRange.of(file, ByteRange.of(0, file.size())), rows::add, rows::add);
    assertTrue(
        result.badFile(), "a cut inside a block is reported, not taken for the end: " + result);
    assertTrue(rows.size() > 50 && rows.size() < 200, rows.size() + " rows");
    assertEquals(rows.size() - 1, rows.get(rows.size() - 1).getInt64("id").longValue(), "a prefix");
  }

  @Test
  void corruptParquetPageIsCaughtByItsChecksumAndRowsBeforeAreKept() throws Exception {
    // uncompressed: without page checksums the damage would decode into wrong values silently
    TableSpec skip =
        table(
            "parquet",
            "source.bad-records",
            "skip",
            "parquet.block.size",
            "4096",
            "parquet.compression",
            "UNCOMPRESSED");
    long[] ids = new long[5000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    Path parquet = binary(skip, "part-pages.parquet", ids);
    byte[] bytes = Files.readAllBytes(parquet);
    for (int i = bytes.length / 2; i < bytes.length / 2 + 64; i++) {
      bytes[i] = (byte) 0xFF;
    }
    Files.write(parquet, bytes);
    Read read = read(skip);
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES));
    assertEquals(0, read.counter(FileRangeReader.BAD_RECORDS));
    Set<Long> expectedPrefix = new TreeSet<>();
    for (long i = 0; i < read.ids().size(); i++) {
      expectedPrefix.add(i);
    }
    assertEquals(expectedPrefix, read.ids(), "the rows before the damaged page, nothing after it");
    assertTrue(read.ids().size() > 1000 && read.ids().size() < 4000, read.ids().size() + " rows");
    assertContains(
        failure(table("parquet")), parquet.toString(), "CRC checksum verification failed");
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json"})
  void emptyTextFileHasNoRowsAndIsNoError(String format) throws Exception {
    text("part-empty." + format, "");
    text("part-1." + format, format.equals("csv") ? "1,a\n" : "{\"id\":1}\n");
    Read read = read(table(format));
    assertEquals(Set.of(1L), read.ids());
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro", "orc"})
  void emptyBinaryFileIsABadFile(String format) throws Exception {
    TableSpec skip = table(format, "source.bad-records", "skip");
    binary(skip, "part-1." + format, 1);
    Path empty = file("part-empty." + format, new byte[0]);
    Read read = read(skip);
    assertEquals(Set.of(1L), read.ids());
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES));
    assertContains(failure(table(format)), empty.toString());
  }

  @Test
  void partitionValueThatDoesNotParseIsABadFile() throws Exception {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("path", dir.resolve("t").toString());
    map.put("format", "csv");
    map.put("source.bad-records", "skip");
    TableSpec table =
        TableSpec.builder()
            .setName("hourly")
            .setSchema(
                Schema.builder()
                    .addFields(SCHEMA.getFields())
                    .addNullableField("hour", ColumnType.INT.fieldType())
                    .build())
            .setPartitionKeys(List.of("hour"))
            .setOptions(TableOptions.of(map))
            .build();
    text("hour=7/part-1.csv", "1,a\n");
    text("hour=abc/part-1.csv", "2,b\n");
    Read read = read(table);
    assertEquals(Set.of(1L), read.ids());
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES));
  }

  @Test
  void fileDeletedAfterListingIsAWarningNotAnError() throws Exception {
    TableSpec table = table("csv"); // even with the fail policy
    DataFile gone =
        DataFile.of(dir.resolve("t").resolve("part-gone.csv").toString(), Map.of(), 10, 0);
    FileRangeReader reader = new FileRangeReader(table);
    List<Row> rows = new ArrayList<>();
    FileRangeReader.Result result =
        reader.read(FileRange.of(gone, ByteRange.of(0, 10)), rows::add, rows::add);
    assertTrue(result.vanished());
    assertFalse(result.badFile());
    assertEquals(List.of(), rows);
  }

  @Test
  void fileDeletedAfterListingPassesThroughSplitAndReadOnAPipeline() throws Exception {
    TableSpec table = table("csv"); // fail policy: still not an error
    text("part-1.csv", "1,a\n");
    DataFile gone =
        DataFile.of(dir.resolve("t").resolve("part-gone.csv").toString(), Map.of(), 10_000, 0);
    DataFile present =
        DataFile.of(dir.resolve("t").resolve("part-1.csv").toString(), Map.of(), 4, 0);
    Pipeline pipeline = Pipeline.create(directOptions());
    String id = newCollector();
    pipeline
        .apply(
            org.apache.beam.sdk.transforms.Create.of(gone, present)
                .withCoder(org.apache.beam.sdk.coders.SerializableCoder.of(DataFile.class)))
        .apply(ReadRanges.splitFiles(table.options(), 1000))
        .setCoder(org.apache.beam.sdk.coders.SerializableCoder.of(FileRange.class))
        .apply(ReadWithDeadLetters.of(ReadRanges.readRows(table), DeadLetterTable.of(table)))
        .apply(ParDo.of(new CollectFn<>(id)));
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    Read read = new Read(collected(id), result);
    assertEquals(Set.of(1L), read.ids());
    assertEquals(1, read.counter(FileRangeReader.VANISHED_FILES));
  }

  @Test
  void unreadableFileFollowsThePolicy() throws Exception {
    Path secret = text("part-secret.csv", "1,a\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
    assertFalse(
        Files.isReadable(secret),
        "permissions do not stop reads here (root with its permission override?): run the tests through"
            + " Maven, whose tests-as-root profile runs them without it");
    text("part-ok.csv", "2,b\n");
    Read read = read(table("csv", "source.bad-records", "skip"));
    assertEquals(Set.of(2L), read.ids());
    assertEquals(1, read.counter(FileRangeReader.BAD_FILES));
    assertContains(failure(table("csv")), secret.toString(), "ermission denied");
  }

  @Test
  void fileThatCannotBeReadIsABadFile() throws Exception {
    // Works as root too: a directory where a file was listed fails on read like an unreadable file.
    Path notAFile = dir.resolve("t").resolve("part-dir.csv");
    Files.createDirectories(notAFile);
    DataFile listed = DataFile.of(notAFile.toString(), Map.of(), 100, 0);
    List<Row> rows = new ArrayList<>();
    List<Row> dead = new ArrayList<>();
    FileRangeReader.Result result =
        new FileRangeReader(deadLetterTable("csv"))
            .read(FileRange.of(listed, ByteRange.of(0, 100)), rows::add, dead::add);
    assertTrue(result.badFile());
    assertEquals(1, dead.size());
    assertEquals("file", dead.get(0).getString("kind"));
    assertContains(dead.get(0).getString("error_class"), "IOException");
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                new FileRangeReader(table("csv"))
                    .read(FileRange.of(listed, ByteRange.of(0, 100)), rows::add, dead::add));
    assertContains(e.getMessage(), notAFile.toString(), "'source.bad-records'");
  }

  @Test
  void writingWithANonUtf8CharsetIsRefused() {
    TableSpec table = table("json", "json.charset", "GBK");
    Pipeline pipeline = Pipeline.create(directOptions());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                pipeline
                    .apply(
                        org.apache.beam.sdk.transforms.Create.empty(SCHEMA).withRowSchema(SCHEMA))
                    .apply(FileTableIO.write(table)));
    assertContains(e.getMessage(), "'json.charset' = 'GBK' applies to reading only");
  }
}
