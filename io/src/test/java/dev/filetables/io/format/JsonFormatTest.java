package dev.filetables.io.format;

import static dev.filetables.io.format.RowFormatTestSupport.ONE_OF_EACH;
import static dev.filetables.io.format.RowFormatTestSupport.TWO;
import static dev.filetables.io.format.RowFormatTestSupport.dec;
import static dev.filetables.io.format.RowFormatTestSupport.format;
import static dev.filetables.io.format.RowFormatTestSupport.read;
import static dev.filetables.io.format.RowFormatTestSupport.readAll;
import static dev.filetables.io.format.RowFormatTestSupport.readRange;
import static dev.filetables.io.format.RowFormatTestSupport.readSplit;
import static dev.filetables.io.format.RowFormatTestSupport.row;
import static dev.filetables.io.format.RowFormatTestSupport.two;
import static dev.filetables.io.format.RowFormatTestSupport.write;
import static dev.filetables.io.format.RowFormatTestSupport.writeBytes;
import static dev.filetables.io.format.RowFormatTestSupport.writeText;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonFormatTest {
  @TempDir Path dir;

  private static FileFormat json(String... keyValues) {
    return format("json", keyValues);
  }

  @Test
  void roundTripsEveryType() throws IOException {
    FileFormat format = json();
    assertEquals(".json", format.extension());
    List<Row> rows = AllTypes.specialRows();
    Path file = write(format, dir, "all", AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
  }

  @Test
  void roundTripsRandomRowsInBothTimestampStandards() throws IOException {
    List<Row> rows = AllTypes.randomRows(new Random(3), 500);
    for (String standard : new String[] {"SQL", "ISO-8601"}) {
      FileFormat format = json("timestamp-format.standard", standard);
      Path file = write(format, dir, "random-" + standard, AllTypes.SCHEMA, rows);
      assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
      // the other standard reads it too
      assertEquals(rows, readAll(json(), file, AllTypes.SCHEMA));
    }
  }

  @Test
  void writesFlinkCompatibleText() throws IOException {
    List<Row> rows =
        List.of(
            row(
                "a\"b\nc",
                true,
                1,
                -2L,
                1.5f,
                1.0E10,
                dec("100"),
                LocalDate.of(2024, 1, 2),
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 6_000_000),
                new Instant(-1L)),
            row(null, null, null, null, Float.NaN, null, null, null, null, null));
    Path file = write(json(), dir, "text", ONE_OF_EACH, rows);
    assertEquals(
        "{\"s\":\"a\\\"b\\nc\",\"b\":true,\"i\":1,\"l\":-2,\"f\":1.5,\"d\":1.0E10,"
            + "\"dec\":100.0000000000,\"dt\":\"2024-01-02\",\"ts\":\"2024-01-02 03:04:05.006\","
            + "\"ltz\":\"1969-12-31 23:59:59.999Z\"}\n"
            + "{\"s\":null,\"b\":null,\"i\":null,\"l\":null,\"f\":\"NaN\",\"d\":null,\"dec\":null,"
            + "\"dt\":null,\"ts\":null,\"ltz\":null}\n",
        read(file));

    Path iso =
        write(
            json("timestamp-format.standard", "ISO-8601"),
            dir,
            "iso",
            ONE_OF_EACH,
            rows.subList(0, 1));
    assertTrue(
        read(iso)
            .contains("\"ts\":\"2024-01-02T03:04:05.006\",\"ltz\":\"1969-12-31T23:59:59.999Z\""),
        read(iso));
  }

  @Test
  void decimalsAreAlwaysPlain() throws IOException {
    Schema schema = Schema.builder().addNullableField("d", ColumnType.DECIMAL.fieldType()).build();
    Row row = Row.withSchema(schema).addValue(new BigDecimal("1E+5")).build();
    Path file =
        write(json("encode.decimal-as-plain-number", "false"), dir, "plain", schema, List.of(row));
    assertEquals("{\"d\":100000}\n", read(file));
  }

  @Test
  void ignoreNullFieldsOmitsThem() throws IOException {
    FileFormat format = json("encode.ignore-null-fields", "true");
    Path file = write(format, dir, "omit", TWO, List.of(two(1, null), two(null, "x")));
    assertEquals("{\"id\":1}\n{\"name\":\"x\"}\n", read(file));
    assertEquals(List.of(two(1, null), two(null, "x")), readAll(format, file, TWO));
  }

  @Test
  void readsByNameIgnoringUnknownAndMissingKeys() throws IOException {
    Path file =
        writeText(
            dir,
            "names.json",
            "{\"name\":\"b\",\"extra\":{\"deep\":[1,{\"x\":null}]},\"id\":2}\n"
                + "{\"id\":3}\n"
                + "{}\n"
                + "{\"id\":4,\"id\":5}\n");
    assertEquals(
        List.of(two(2, "b"), two(3, null), two(null, null), two(5, null)),
        readAll(json(), file, TWO));
  }

  @Test
  void failOnMissingField() throws IOException {
    Path file = writeText(dir, "missing.json", "{\"id\":1,\"name\":null}\n{\"id\":3}\n");
    BadRecordException e =
        assertThrows(
            BadRecordException.class,
            () -> readAll(json("fail-on-missing-field", "true"), file, TWO));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertTrue(e.getMessage().contains("'name' is missing"), e.getMessage());
  }

  @Test
  void lenientValueConversions() throws IOException {
    Schema schema =
        Schema.builder()
            .addNullableField("i", ColumnType.INT.fieldType())
            .addNullableField("l", ColumnType.BIGINT.fieldType())
            .addNullableField("b", ColumnType.BOOLEAN.fieldType())
            .addNullableField("f", ColumnType.FLOAT.fieldType())
            .addNullableField("d", ColumnType.DOUBLE.fieldType())
            .addNullableField("dec", ColumnType.decimal(10, 2))
            .addNullableField("s", ColumnType.STRING.fieldType())
            .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
            .build();
    Path file =
        writeText(
            dir,
            "lenient.json",
            "{\"i\":\"12\",\"l\":3.0,\"b\":\"TRUE\",\"f\":\"NaN\",\"d\":\"-Infinity\",\"dec\":\"1.5\",\"s\":12.50,\"ltz\":\"2024-01-02T03:04:05.123456Z\"}\n"
                + "{\"i\":1e1,\"l\":\"-9\",\"b\":false,\"f\":NaN,\"d\":7,\"dec\":2,\"s\":{\"a\":"
                + " [1, \"x\"]},\"ltz\":\"2024-01-02 04:04:05+01:00\"}\n");
    long millis = java.time.Instant.parse("2024-01-02T03:04:05.123Z").toEpochMilli();
    assertEquals(
        List.of(
            Row.withSchema(schema)
                .addValues(
                    12,
                    3L,
                    true,
                    Float.NaN,
                    Double.NEGATIVE_INFINITY,
                    new BigDecimal("1.50"),
                    "12.50",
                    new Instant(millis))
                .build(),
            Row.withSchema(schema)
                .addValues(
                    10,
                    -9L,
                    false,
                    Float.NaN,
                    7.0,
                    new BigDecimal("2.00"),
                    "{\"a\": [1, \"x\"]}",
                    new Instant(millis - 123))
                .build()),
        readAll(json(), file, schema));
  }

  @Test
  void ambiguousConversionsAreErrors() throws IOException {
    Schema schema = Schema.builder().addNullableField("i", ColumnType.INT.fieldType()).build();
    for (String bad : new String[] {"1.5", "\"x\"", "true", "[1]", "2147483648", "\"1.5\""}) {
      Path file = writeText(dir, "amb.json", "{\"i\":" + bad + "}\n");
      BadRecordException e =
          assertThrows(BadRecordException.class, () -> readAll(json(), file, schema), bad);
      assertTrue(e.getMessage().contains("field 'i' (INT)"), e.getMessage());
    }
    Schema ts = Schema.builder().addNullableField("t", ColumnType.TIMESTAMP.fieldType()).build();
    BadRecordException e =
        assertThrows(
            BadRecordException.class,
            () ->
                readAll(
                    json(), writeText(dir, "ts.json", "{\"t\":\"2024-13-01 00:00:00\"}\n"), ts));
    assertTrue(e.getMessage().contains("'2024-13-01 00:00:00'"), e.getMessage());
  }

  @Test
  void readsBomCrlfAndBlankLines() throws IOException {
    byte[] body =
        "{\"id\":1,\"name\":\"a\"}\r\n\r\n  \n{\"id\":2,\"name\":\"b\\r\\n\"}"
            .getBytes(StandardCharsets.UTF_8);
    byte[] withBom = new byte[body.length + 3];
    withBom[0] = (byte) 0xEF;
    withBom[1] = (byte) 0xBB;
    withBom[2] = (byte) 0xBF;
    System.arraycopy(body, 0, withBom, 3, body.length);
    Path file = writeBytes(dir, "bom.json", withBom);
    assertEquals(List.of(two(1, "a"), two(2, "b\r\n")), readAll(json(), file, TWO));
    // a range boundary inside the BOM loses nothing
    for (long cut = 1; cut < 6; cut++) {
      assertEquals(
          2,
          readRange(json(), file, TWO, ByteRange.of(0, cut)).size()
              + readRange(json(), file, TWO, ByteRange.of(cut, withBom.length)).size(),
          "cut " + cut);
    }
  }

  @Test
  void ignoreParseErrorsSkipsAndCounts() throws IOException {
    Path file =
        writeText(
            dir,
            "bad.json",
            "{\"id\":1,\"name\":\"a\"}\n"
                + "{\"id\":\n"
                + "[1]\n"
                + "{\"id\":\"x\"}\n"
                + "{\"id\":2} trailing\n"
                + "{\"id\":3}\n");
    FileFormat format = json("ignore-parse-errors", "true");
    try (SeekableByteChannel ch = Files.newByteChannel(file);
        RowReader reader =
            format.createReader(ch, Files.size(file), ByteRange.of(0, Files.size(file)), TWO)) {
      assertEquals(two(1, "a"), reader.next());
      assertEquals(two(3, null), reader.next());
      assertNull(reader.next());
      assertEquals(4, ((SkippingRowReader) reader).skippedRecords());
    }
  }

  @Test
  void errorMessagesNameLineOrOffsetAndReason() throws IOException {
    Path file = writeText(dir, "err.json", "{\"id\":1}\n{\"id\":1,\n");
    BadRecordException e = assertThrows(BadRecordException.class, () -> readAll(json(), file, TWO));
    assertTrue(e.getMessage().startsWith("Bad JSON record at line 2: "), e.getMessage());
    assertTrue(e.getMessage().contains("record: {\"id\":1,"), e.getMessage());
    e =
        assertThrows(
            BadRecordException.class, () -> readRange(json(), file, TWO, ByteRange.of(3, 20)));
    assertTrue(e.getMessage().startsWith("Bad JSON record at byte offset 9: "), e.getMessage());
    e =
        assertThrows(
            BadRecordException.class,
            () -> readAll(json(), writeText(dir, "arr.json", "[1,2]\n"), TWO));
    assertTrue(e.getMessage().contains("expected a JSON object"), e.getMessage());
    Schema notNull = Schema.builder().addInt32Field("id").build();
    e =
        assertThrows(
            BadRecordException.class,
            () -> readAll(json(), writeText(dir, "nn.json", "{\"x\":1}\n"), notNull));
    assertTrue(e.getMessage().contains("NOT NULL"), e.getMessage());
  }

  @Test
  void estimatedSizeCountsEveryByte() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RowWriter writer = json().createWriter(out, AllTypes.SCHEMA);
    assertEquals(0, writer.estimatedSize());
    for (Row row : AllTypes.randomRows(new Random(4), 2000)) {
      writer.write(row);
    }
    long estimated = writer.estimatedSize();
    writer.close();
    assertEquals(out.size(), estimated);
  }

  @Test
  void formatIsSerializableWithItsOptions() throws IOException {
    FileFormat format =
        org.apache.beam.sdk.util.SerializableUtils.ensureSerializable(
            json("encode.ignore-null-fields", "true"));
    List<Row> rows = AllTypes.specialRows();
    Path file = write(format, dir, "ser", AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
    assertEquals(json("encode.ignore-null-fields", "true").toString(), format.toString());
  }

  // ------------------------------------------------------------------ splitting

  @Test
  void splitReturnsFixedSizeRanges() throws IOException {
    Path file = write(json(), dir, "fixed", TWO, List.of(two(1, "a"), two(2, "b")));
    long size = Files.size(file);
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      assertEquals(List.of(ByteRange.of(0, size)), json().split(ch, size, size));
      List<ByteRange> ranges = json().split(ch, size, 10);
      assertEquals(ByteRange.of(0, 10), ranges.get(0));
      assertEquals(ByteRange.of(10, 20), ranges.get(1));
      assertEquals(size, ranges.get(ranges.size() - 1).end());
    }
  }

  @Test
  void rangesTogetherReadEveryRowOnceForRandomFilesAndTargets() throws IOException {
    Random random = new Random(7);
    for (int f = 0; f < 25; f++) {
      List<Row> rows = AllTypes.randomRows(random, random.nextInt(40));
      Path file = write(json(), dir, "r" + f, AllTypes.SCHEMA, rows);
      if (f % 2 == 1) {
        String crlf = read(file).replace("\n", "\r\n");
        file = writeText(dir, "r" + f + "-crlf.json", crlf);
      }
      long size = Files.size(file);
      for (int t = 0; t < 8; t++) {
        long target = 1 + random.nextInt((int) Math.max(1, size / 2 + 1));
        assertEquals(
            rows,
            readSplit(json(), file, AllTypes.SCHEMA, target),
            "file " + f + " target " + target);
      }
      if (size < 4000) { // one range per byte: every possible boundary
        assertEquals(rows, readSplit(json(), file, AllTypes.SCHEMA, 1));
      }
    }
  }

  // ------------------------------------------------------------------ options

  @Test
  void optionErrors() {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> json("fail-on-missing-fields", "true"));
    assertTrue(
        e.getMessage().contains("Did you mean 'json.fail-on-missing-field'"), e.getMessage());
    e =
        assertThrows(
            TableDefinitionException.class, () -> json("timestamp-format.standard", "RFC"));
    assertTrue(e.getMessage().contains("SQL, ISO-8601"), e.getMessage());
    e =
        assertThrows(
            TableDefinitionException.class,
            () -> json("fail-on-missing-field", "true", "ignore-parse-errors", "true"));
    assertTrue(e.getMessage().contains("cannot both be true"), e.getMessage());
    assertThrows(TableDefinitionException.class, () -> json("map-null-key.mode", "KEEP"));
    assertThrows(TableDefinitionException.class, () -> json("encode.ignore-null-fields", "1"));
    // accepted
    json(
        "map-null-key.mode", "literal",
        "map-null-key.literal", "N/A",
        "timestamp-format.standard", "iso-8601",
        "decode.json-parser.enabled", "true",
        "encode.decimal-as-plain-number", "true");
  }
}
