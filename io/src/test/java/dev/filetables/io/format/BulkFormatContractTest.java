package dev.filetables.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.testing.AllTypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.junit.jupiter.api.Test;

/** The FileFormat contract, checked for each bulk format by a subclass. */
abstract class BulkFormatContractTest {
  static {
    // tiny row groups in these tests make parquet-hadoop warn about memory on every group
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
  }

  /** The format under test with its (prefix-less) options. */
  abstract FileFormat format(Map<String, String> options);

  /** Options that make files of many small row groups / blocks. */
  abstract Map<String, String> smallUnitOptions();

  /** How many row groups / blocks a file holds, to check a test really made many. */
  abstract int unitCount(byte[] file) throws IOException;

  byte[] write(FileFormat format, Schema schema, List<Row> rows) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RowWriter writer = format.createWriter(out, schema)) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    return out.toByteArray();
  }

  static List<Row> read(FileFormat format, byte[] file, ByteRange range, Schema schema)
      throws IOException {
    List<Row> rows = new ArrayList<>();
    try (SeekableByteChannel channel = new SeekableInMemoryByteChannel(file);
        RowReader reader = format.createReader(channel, file.length, range, schema)) {
      for (Row row = reader.next(); row != null; row = reader.next()) {
        rows.add(row);
      }
    }
    return rows;
  }

  static List<Row> readAll(FileFormat format, byte[] file, Schema schema) throws IOException {
    return read(format, file, ByteRange.of(0, file.length), schema);
  }

  /** The rows the format can store: all of them, unless a format says otherwise. */
  List<Row> storable(List<Row> rows) {
    return rows;
  }

  @Test
  void everyColumnTypeRoundTripsWithNulls() throws IOException {
    FileFormat format = format(Map.of());
    List<Row> rows = new ArrayList<>(AllTypes.specialRows());
    rows.addAll(AllTypes.randomRows(500, 42));
    rows = storable(rows);
    byte[] file = write(format, AllTypes.SCHEMA, rows);
    List<Row> back = readAll(format, file, AllTypes.SCHEMA);
    assertEquals(rows.size(), back.size());
    for (int k = 0; k < rows.size(); k++) {
      assertEquals(rows.get(k), back.get(k), "row " + k);
    }
    // empty string and null stay apart
    assertEquals("", back.get(1).getString("s"));
    assertNull(back.get(2).getString("s"));
  }

  @Test
  void emptyFileReadsNoRows() throws IOException {
    FileFormat format = format(Map.of());
    byte[] file = write(format, AllTypes.SCHEMA, List.of());
    assertTrue(file.length > 0);
    assertEquals(List.of(), readAll(format, file, AllTypes.SCHEMA));
  }

  @Test
  void randomRangesReadEachRowExactlyOnce() throws IOException {
    FileFormat format = format(smallUnitOptions());
    List<Row> rows = AllTypes.randomRows(3000, 7);
    byte[] file = write(format, AllTypes.SCHEMA, rows);
    assertTrue(unitCount(file) >= 10, "expected many row groups/blocks, got " + unitCount(file));
    Random random = new Random(3);
    for (int attempt = 0; attempt < 5; attempt++) {
      TreeSet<Integer> cuts = new TreeSet<>();
      int pieces = 1 + random.nextInt(40);
      for (int k = 0; k < pieces; k++) {
        cuts.add(random.nextInt(file.length));
      }
      cuts.add(0);
      List<Integer> points = new ArrayList<>(cuts);
      points.add(file.length);
      List<Row> back = new ArrayList<>();
      for (int k = 0; k + 1 < points.size(); k++) {
        back.addAll(
            read(format, file, ByteRange.of(points.get(k), points.get(k + 1)), AllTypes.SCHEMA));
      }
      assertSameRows(rows, back);
    }
    // and with the format's own split
    List<Row> back = new ArrayList<>();
    try (SeekableByteChannel channel = new SeekableInMemoryByteChannel(file)) {
      List<ByteRange> ranges = format.split(channel, file.length, file.length / 7);
      assertTrue(ranges.size() >= 7);
      for (ByteRange range : ranges) {
        back.addAll(read(format, file, range, AllTypes.SCHEMA));
      }
    }
    assertSameRows(rows, back);
  }

  private static void assertSameRows(List<Row> expected, List<Row> actual) {
    List<Long> ids = new ArrayList<>();
    for (Row row : actual) {
      ids.add(row.getInt64("id"));
    }
    List<Long> expectedIds = new ArrayList<>();
    for (Row row : expected) {
      expectedIds.add(row.getInt64("id"));
    }
    Collections.sort(ids);
    assertEquals(expectedIds, ids);
    Map<Long, Row> byId = new HashMap<>();
    for (Row row : actual) {
      byId.put(row.getInt64("id"), row);
    }
    for (Row row : expected) {
      assertEquals(row, byId.get(row.getInt64("id")));
    }
  }

  @Test
  void splitOfSmallFileIsOneRange() throws IOException {
    FileFormat format = format(Map.of());
    try (SeekableByteChannel channel = new SeekableInMemoryByteChannel(new byte[100])) {
      assertEquals(List.of(ByteRange.of(0, 100)), format.split(channel, 100, 1000));
      assertEquals(List.of(ByteRange.of(0, 100)), format.split(channel, 100, 100));
      assertEquals(
          List.of(ByteRange.of(0, 40), ByteRange.of(40, 80), ByteRange.of(80, 100)),
          format.split(channel, 100, 40));
    }
  }

  @Test
  void readsColumnsByNameInAnyOrderIgnoringExtraColumns() throws IOException {
    Schema written =
        Schema.builder()
            .addNullableField("extra", ColumnType.STRING.fieldType())
            .addField("c", ColumnType.INT.fieldType())
            .addNullableField("b", ColumnType.STRING.fieldType())
            .addField("a", ColumnType.BIGINT.fieldType())
            .build();
    FileFormat format = format(Map.of());
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < 50; k++) {
      rows.add(
          Row.withSchema(written)
              .addValues("x" + k, k, k % 3 == 0 ? null : "b" + k, 100L + k)
              .build());
    }
    byte[] file = write(format, written, rows);

    Schema wanted =
        Schema.builder()
            .addField("a", ColumnType.BIGINT.fieldType())
            .addNullableField("B", ColumnType.STRING.fieldType()) // case differs
            .addField("c", ColumnType.BIGINT.fieldType()) // INT widened to BIGINT
            .addNullableField("missing", ColumnType.DOUBLE.fieldType())
            .build();
    List<Row> back = readAll(format, file, wanted);
    assertEquals(50, back.size());
    for (int k = 0; k < 50; k++) {
      assertEquals(
          Row.withSchema(wanted)
              .addValues(100L + k, k % 3 == 0 ? null : "b" + k, (long) k, null)
              .build(),
          back.get(k));
    }

    Schema notNullMissing =
        Schema.builder()
            .addField("a", ColumnType.BIGINT.fieldType())
            .addField("nope", ColumnType.INT.fieldType())
            .build();
    IOException e = assertThrows(IOException.class, () -> readAll(format, file, notNullMissing));
    assertTrue(e.getMessage().contains("nope") && e.getMessage().contains("extra"), e.getMessage());
  }

  @Test
  void onlyMissingColumnsRequestedGivesAllNullRows() throws IOException {
    FileFormat format = format(Map.of());
    byte[] file = write(format, AllTypes.SCHEMA, AllTypes.randomRows(25, 1));
    Schema wanted =
        Schema.builder().addNullableField("absent", ColumnType.STRING.fieldType()).build();
    List<Row> back = readAll(format, file, wanted);
    assertEquals(25, back.size());
    assertNull(back.get(0).getValue("absent"));
  }

  @Test
  void formatIsSerializableWithItsOptions() throws IOException {
    FileFormat format =
        (FileFormat)
            org.apache.beam.sdk.util.SerializableUtils.ensureSerializable(
                format(smallUnitOptions()));
    List<Row> rows = AllTypes.randomRows(100, 2);
    assertEquals(rows, readAll(format, write(format, AllTypes.SCHEMA, rows), AllTypes.SCHEMA));
  }

  @Test
  void nullInNotNullColumnOfFileIsABadRecord() throws IOException {
    Schema written = Schema.builder().addNullableField("a", ColumnType.INT.fieldType()).build();
    FileFormat format = format(Map.of());
    byte[] file =
        write(
            format,
            written,
            List.of(
                Row.withSchema(written).addValues(1).build(),
                Row.withSchema(written).addValues((Object) null).build(),
                Row.withSchema(written).addValues(3).build()));
    Schema wanted = Schema.builder().addField("a", ColumnType.INT.fieldType()).build();
    try (SeekableByteChannel channel = new SeekableInMemoryByteChannel(file);
        RowReader reader =
            format.createReader(channel, file.length, ByteRange.of(0, file.length), wanted)) {
      assertEquals(1, reader.next().getInt32("a"));
      BadRecordException bad = assertThrows(BadRecordException.class, reader::next);
      assertTrue(bad.getMessage().contains("'a'"), bad.getMessage());
      assertEquals(3, reader.next().getInt32("a")); // the reader can go on
      assertNull(reader.next());
    }
  }

  @Test
  void decimalThatDoesNotFitIsRejectedAndFileStaysValid() throws IOException {
    Schema schema =
        Schema.builder()
            .addField("id", ColumnType.INT.fieldType())
            .addNullableField("v", ColumnType.decimal(5, 2))
            .build();
    FileFormat format = format(Map.of());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RowWriter writer = format.createWriter(out, schema)) {
      // attachValues skips Beam's own check, as rows from some sources do
      writer.write(Row.withSchema(schema).attachValues(1, new BigDecimal("123.456"))); // rounds
      BadRecordException e =
          assertThrows(
              BadRecordException.class,
              () ->
                  writer.write(Row.withSchema(schema).attachValues(2, new BigDecimal("12345.6"))));
      assertTrue(
          e.getMessage().contains("'v'") && e.getMessage().contains("DECIMAL(5, 2)"),
          e.getMessage());
      assertThrows(
          BadRecordException.class,
          () -> writer.write(Row.withSchema(schema).attachValues(null, null)));
      writer.write(Row.withSchema(schema).addValues(3, new BigDecimal("-1.5")).build());
    }
    List<Row> back = readAll(format, out.toByteArray(), schema);
    assertEquals(
        List.of(
            Row.withSchema(schema).addValues(1, new BigDecimal("123.46")).build(),
            Row.withSchema(schema).addValues(3, new BigDecimal("-1.50")).build()),
        back);
  }

  @Test
  void estimatedSizeGrowsWithRows() throws IOException {
    FileFormat format = format(Map.of());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Row> rows = AllTypes.randomRows(30_000, 11);
    try (RowWriter writer = format.createWriter(out, AllTypes.SCHEMA)) {
      long previous = writer.estimatedSize();
      long start = previous;
      for (int k = 0; k < rows.size(); k++) {
        writer.write(rows.get(k));
        // Parquet's estimate may dip when a dictionary falls back to plain encoding: look at
        // windows
        if (k % 10_000 == 9_999) {
          long now = writer.estimatedSize();
          assertTrue(
              now > previous, "estimate did not grow at row " + k + ": " + previous + " -> " + now);
          previous = now;
        }
      }
      assertTrue(previous > start);
      long estimate = writer.estimatedSize();
      writer.close();
      long actual = out.size();
      assertTrue(
          estimate > actual / 3 && estimate < actual * 3,
          "estimate " + estimate + " vs actual " + actual);
    }
  }

  @Test
  void unknownOptionIsRejectedWithSuggestion() {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("compresion", "x")));
    assertTrue(e.getMessage().contains("compresion"), e.getMessage());
  }
}
