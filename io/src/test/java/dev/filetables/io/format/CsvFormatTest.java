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
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvFormatTest {
  @TempDir Path dir;

  private static FileFormat csv(String... keyValues) {
    return format("csv", keyValues);
  }

  @Test
  void roundTripsEveryTypeThroughFileFormats() throws IOException {
    FileFormat format = FileFormats.forName("csv", Map.of());
    assertEquals(".csv", format.extension());
    List<Row> rows = AllTypes.specialRows();
    Path file = write(format, dir, "all", AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
  }

  @Test
  void roundTripsRandomRows() throws IOException {
    List<Row> rows = AllTypes.randomRows(new Random(1), 500);
    Path file = write(csv(), dir, "random", AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(csv(), file, AllTypes.SCHEMA));
  }

  @Test
  void writesFlinkCompatibleText() throws IOException {
    List<Row> rows =
        List.of(
            row(
                "a,b",
                true,
                1,
                -2L,
                1.5f,
                1.0E10,
                dec("-1.5"),
                LocalDate.of(2024, 1, 2),
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 6_000_000),
                new Instant(-1L)),
            row("", null, null, null, null, null, null, null, null, null),
            row(
                "say \"hi\"\n",
                false,
                0,
                0L,
                Float.NaN,
                Double.NEGATIVE_INFINITY,
                null,
                null,
                null,
                null));
    Path file = write(csv(), dir, "text", ONE_OF_EACH, rows);
    assertEquals(
        "\"a,b\",true,1,-2,1.5,1.0E10,-1.5000000000,2024-01-02,2024-01-02 03:04:05.006,"
            + "1969-12-31 23:59:59.999Z\n"
            + "\"\",,,,,,,,,\n"
            + "\"say \"\"hi\"\"\n\",false,0,0,NaN,-Infinity,,,,\n",
        read(file));
  }

  @Test
  void emptyStringAndNullStayApart() throws IOException {
    Path file = write(csv(), dir, "empty", TWO, List.of(two(1, ""), two(2, null), two(null, " ")));
    assertEquals("1,\"\"\n2,\n,\" \"\n", read(file));
    assertEquals(List.of(two(1, ""), two(2, null), two(null, " ")), readAll(csv(), file, TWO));
  }

  @Test
  void singleColumnNullIsAnEmptyLine() throws IOException {
    Schema one = Schema.builder().addNullableField("s", ColumnType.STRING.fieldType()).build();
    List<Row> rows =
        List.of(
            Row.withSchema(one).addValue(null).build(),
            Row.withSchema(one).addValue("").build(),
            Row.withSchema(one).addValue(null).build());
    Path file = write(csv(), dir, "one", one, rows);
    assertEquals("\n\"\"\n\n", read(file));
    assertEquals(rows, readAll(csv(), file, one));
  }

  @Test
  void readsCrlfBomAndQuotedLineBreaks() throws IOException {
    byte[] body =
        "1,\"multi\r\nline\"\r\n2,\"x\"\"y\"\r\n3,plain\r\n".getBytes(StandardCharsets.UTF_8);
    byte[] withBom = new byte[body.length + 3];
    withBom[0] = (byte) 0xEF;
    withBom[1] = (byte) 0xBB;
    withBom[2] = (byte) 0xBF;
    System.arraycopy(body, 0, withBom, 3, body.length);
    Path file = writeBytes(dir, "crlf.csv", withBom);
    assertEquals(
        List.of(two(1, "multi\r\nline"), two(2, "x\"y"), two(3, "plain")),
        readAll(csv(), file, TWO));
  }

  @Test
  void toleratesBlankLinesAndMissingFinalNewline() throws IOException {
    Path file = writeText(dir, "blank.csv", "1,a\n\n2,b\r\n\r\n3,c");
    assertEquals(List.of(two(1, "a"), two(2, "b"), two(3, "c")), readAll(csv(), file, TWO));
  }

  @Test
  void parsesLenientValueForms() throws IOException {
    Schema schema =
        Schema.builder()
            .addNullableField("i", ColumnType.INT.fieldType())
            .addNullableField("b", ColumnType.BOOLEAN.fieldType())
            .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
            .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
            .addNullableField("dec", ColumnType.decimal(10, 2))
            .build();
    Path file =
        writeText(
            dir,
            "lenient.csv",
            " 12 ,TRUE,2024-01-02T03:04:05.123456789,2024-01-02T03:04:05+01:00,1.5\n"
                + "\"7\",False,2024-01-02 03:04,2024-01-02 03:04:05.1,\"\"\n");
    List<Row> rows = readAll(csv(), file, schema);
    assertEquals(
        Row.withSchema(schema)
            .addValues(
                12,
                true,
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_789),
                new Instant(java.time.Instant.parse("2024-01-02T02:04:05Z").toEpochMilli()),
                new BigDecimal("1.50"))
            .build(),
        rows.get(0));
    assertEquals(
        Row.withSchema(schema)
            .addValues(
                7,
                false,
                LocalDateTime.of(2024, 1, 2, 3, 4),
                new Instant(java.time.Instant.parse("2024-01-02T03:04:05.100Z").toEpochMilli()),
                null)
            .build(),
        rows.get(1));
  }

  @Test
  void estimatedSizeCountsEveryByte() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RowWriter writer = csv().createWriter(out, AllTypes.SCHEMA);
    assertEquals(0, writer.estimatedSize());
    for (Row row : AllTypes.randomRows(new Random(2), 3000)) {
      writer.write(row);
    }
    long estimated = writer.estimatedSize();
    writer.close();
    assertEquals(out.size(), estimated);
    assertTrue(estimated > 64 * 1024, "buffer was flushed at least once");
    assertThrows(IOException.class, () -> writer.write(AllTypes.specialRows().get(2)));
  }

  @Test
  void formatIsSerializableWithItsOptions() throws IOException {
    FileFormat format =
        org.apache.beam.sdk.util.SerializableUtils.ensureSerializable(
            csv("field-delimiter", "|", "null-literal", "N"));
    List<Row> rows = AllTypes.specialRows();
    Path file = write(format, dir, "ser", AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
    assertEquals(csv("field-delimiter", "|", "null-literal", "N").toString(), format.toString());
  }

  // ------------------------------------------------------------------ splitting

  @Test
  void smallFileIsOneRange() throws IOException {
    Path file = write(csv(), dir, "small", TWO, List.of(two(1, "a")));
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      assertEquals(List.of(ByteRange.of(0, 4)), csv().split(ch, 4, 100));
    }
  }

  @Test
  void splitsAtRecordStartsOnly() throws IOException {
    // Records full of quoted line breaks: a naive split at '\n' would cut inside them.
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(two(i, "x\n" + i + "\n\"\n,y"));
    }
    Path file = write(csv(), dir, "quoted", TWO, rows);
    long size = Files.size(file);
    try (SeekableByteChannel ch = Files.newByteChannel(file)) {
      List<ByteRange> ranges = csv().split(ch, size, 100);
      assertTrue(ranges.size() > 10, "split into many ranges: " + ranges.size());
      byte[] bytes = Files.readAllBytes(file);
      for (ByteRange r : ranges) {
        if (r.start() > 0) {
          // every cut is right after a record's '\n' and before a record's id digit
          assertEquals('\n', bytes[(int) r.start() - 1]);
          assertTrue(Character.isDigit(bytes[(int) r.start()]));
        }
      }
    }
    assertEquals(rows, readSplit(csv(), file, TWO, 100));
  }

  @Test
  void rangesTogetherReadEveryRowOnceForRandomFilesAndTargets() throws IOException {
    Random random = new Random(42);
    for (int f = 0; f < 25; f++) {
      List<Row> rows = AllTypes.randomRows(random, random.nextInt(60));
      FileFormat format = f % 3 == 0 ? csv("allow-comments", "true") : csv();
      Path file = write(format, dir, "r" + f, AllTypes.SCHEMA, rows);
      if (f % 2 == 1) {
        // the same records with CRLF line ends outside quotes, a BOM and comments (for f % 3 == 0)
        file = crlfVariant(file, f % 3 == 0);
      }
      long size = Files.size(file);
      for (int t = 0; t < 8; t++) {
        long target = 1 + random.nextInt((int) Math.max(1, size / 2 + 1));
        assertEquals(
            rows,
            readSplit(format, file, AllTypes.SCHEMA, target),
            "file " + f + " target " + target);
      }
      if (size < 4000) { // one range per byte: every possible boundary
        assertEquals(rows, readSplit(format, file, AllTypes.SCHEMA, 1));
      }
    }
  }

  @Test
  void readsThroughChannelsWithShortReads() throws IOException {
    List<Row> rows = AllTypes.randomRows(new Random(9), 200);
    Path file = write(csv(), dir, "short", AllTypes.SCHEMA, rows);
    long size = Files.size(file);
    List<Row> read = new ArrayList<>();
    try (SeekableByteChannel ch =
        new LineRangeReaderTest.ShortReads(Files.newByteChannel(file), 5)) {
      for (ByteRange range : csv().split(ch, size, 1000)) {
        try (RowReader reader = csv().createReader(ch, size, range, AllTypes.SCHEMA)) {
          for (Row row = reader.next(); row != null; row = reader.next()) {
            read.add(row);
          }
        }
      }
    }
    assertEquals(rows, read);
  }

  /**
   * Rewrites record ends as CRLF (inside quotes '\n' stays), adds a BOM and maybe comment lines.
   */
  private Path crlfVariant(Path file, boolean comments) throws IOException {
    byte[] in = Files.readAllBytes(file);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    if (comments) {
      out.write("# a comment with \"quote\n".getBytes(StandardCharsets.UTF_8));
    }
    boolean quoted = false;
    boolean recordStart = true;
    for (byte b : in) {
      if (b == '"') {
        quoted = !quoted;
      }
      if (b == '\n' && !quoted) {
        out.write('\r');
        out.write('\n');
        recordStart = true;
        if (comments) {
          out.write("#c\n".getBytes(StandardCharsets.UTF_8));
        }
        continue;
      }
      recordStart = false;
      out.write(b);
    }
    assertFalse(quoted);
    Path result = file.resolveSibling(file.getFileName() + ".crlf");
    Files.write(result, out.toByteArray());
    return result;
  }

  // ------------------------------------------------------------------ options

  @Test
  void fieldDelimiterOptionsIncludingTabEscape() throws IOException {
    for (String delimiter : new String[] {"\\t", "\t", "|", ";", "-", " ", ":", "0", "\\u0001"}) {
      FileFormat format = csv("field-delimiter", delimiter);
      List<Row> rows = AllTypes.specialRows();
      Path file =
          write(
              format,
              dir,
              "delim" + (int) delimiter.charAt(delimiter.length() - 1),
              AllTypes.SCHEMA,
              rows);
      assertEquals(rows, readAll(format, file, AllTypes.SCHEMA), "delimiter " + delimiter);
    }
    Path file = write(csv("field-delimiter", "\\t"), dir, "tab", TWO, List.of(two(1, "a b")));
    assertEquals("1\ta b\n", read(file));
  }

  @Test
  void quoteCharacterOption() throws IOException {
    FileFormat format = csv("quote-character", "'");
    Path file = write(format, dir, "q", TWO, List.of(two(1, "it's, ok"), two(2, "\"")));
    assertEquals("1,'it''s, ok'\n2,\"\n", read(file));
    assertEquals(List.of(two(1, "it's, ok"), two(2, "\"")), readAll(format, file, TWO));
  }

  @Test
  void escapeCharacterOption() throws IOException {
    FileFormat format = csv("escape-character", "\\");
    List<Row> rows = AllTypes.specialRows();
    Path file = write(format, dir, "esc", AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
    Path text = writeText(dir, "esc.csv", "1,a\\,b\\nc\n2,\"q\\\"x\"\n");
    assertEquals(List.of(two(1, "a,b\nc"), two(2, "q\"x")), readAll(format, text, TWO));
  }

  @Test
  void disabledQuotingWithEscapeCharacter() throws IOException {
    FileFormat format = csv("disable-quote-character", "true", "escape-character", "\\");
    List<Row> rows =
        List.of(two(1, "a,b"), two(2, "line\nbreak\r"), two(3, "\"as is\""), two(4, "back\\slash"));
    Path file = write(format, dir, "noquote", TWO, rows);
    assertEquals("1,a\\,b\n2,line\\nbreak\\r\n3,\"as is\"\n4,back\\\\slash\n", read(file));
    assertEquals(rows, readAll(format, file, TWO));
    assertEquals(rows, readSplit(format, file, TWO, 3));
  }

  @Test
  void disabledQuotingWithoutEscapeRejectsUnwritableValues() throws IOException {
    FileFormat format = csv("disable-quote-character", "true");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RowWriter writer = format.createWriter(out, TWO)) {
      writer.write(two(1, "\"fine\""));
      IOException e = assertThrows(IOException.class, () -> writer.write(two(2, "a,b")));
      assertTrue(e.getMessage().contains("'name'"), e.getMessage());
    }
  }

  @Test
  void allowCommentsSkipsHashLinesAndQuotesHashValues() throws IOException {
    FileFormat format = csv("allow-comments", "true");
    Path text = writeText(dir, "comments.csv", "# header comment, with \"quote\n1,a\n#2,b\n3,#c\n");
    assertEquals(List.of(two(1, "a"), two(3, "#c")), readAll(format, text, TWO));

    Schema strings =
        Schema.builder()
            .addNullableField("a", ColumnType.STRING.fieldType())
            .addNullableField("b", ColumnType.STRING.fieldType())
            .build();
    List<Row> rows = List.of(Row.withSchema(strings).addValues("#not a comment", "#").build());
    Path file = write(format, dir, "hash", strings, rows);
    assertEquals("\"#not a comment\",#\n", read(file));
    assertEquals(rows, readAll(format, file, strings));
    // without the option a '#' line is data
    assertEquals(List.of(two(2, "b")), readAll(csv(), writeText(dir, "h.csv", "2,b\n"), TWO));
    assertThrows(BadRecordException.class, () -> readAll(csv(), text, TWO));
  }

  @Test
  void nullLiteralOption() throws IOException {
    FileFormat format = csv("null-literal", "\\N");
    List<Row> rows = List.of(two(null, null), two(1, "\\N"), two(2, ""));
    Path file = write(format, dir, "nl", TWO, rows);
    assertEquals("\\N,\\N\n1,\"\\N\"\n2,\"\"\n", read(file));
    assertEquals(rows, readAll(format, file, TWO));
    // empty unquoted fields are still null
    assertEquals(List.of(two(null, null)), readAll(format, writeText(dir, "e.csv", ",\n"), TWO));
  }

  @Test
  void ignoreParseErrorsSkipsAndCountsBadRecords() throws IOException {
    FileFormat format = csv("ignore-parse-errors", "true");
    Path file =
        writeText(dir, "bad.csv", "1,a\nx,b\n3\n4,d,extra\n\"5\"oops,e\n6,\"unterminated\n");
    Path good = writeText(dir, "good.csv", "1,a\n7,g\n");
    try (SeekableByteChannel ch = Files.newByteChannel(file);
        RowReader reader =
            format.createReader(ch, Files.size(file), ByteRange.of(0, Files.size(file)), TWO)) {
      assertEquals(two(1, "a"), reader.next());
      assertNull(reader.next());
      assertEquals(5, ((SkippingRowReader) reader).skippedRecords());
    }
    assertEquals(List.of(two(1, "a"), two(7, "g")), readAll(format, good, TWO));
  }

  @Test
  void acceptedButIgnoredOptions() {
    csv("array-element-delimiter", "|", "write-bigdecimal-in-scientific-notation", "false");
  }

  @Test
  void optionErrorsNameTheKeyAndSuggest() {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> csv("feild-delimiter", ";"));
    assertTrue(e.getMessage().contains("'csv.feild-delimiter'"), e.getMessage());
    assertTrue(e.getMessage().contains("Did you mean 'csv.field-delimiter'"), e.getMessage());

    e = assertThrows(TableDefinitionException.class, () -> csv("field-delimiter", ";;"));
    assertTrue(
        e.getMessage().contains("csv.field-delimiter") && e.getMessage().contains("single"),
        e.getMessage());
    e = assertThrows(TableDefinitionException.class, () -> csv("allow-comments", "yes"));
    assertTrue(e.getMessage().contains("true or false"), e.getMessage());
    e =
        assertThrows(
            TableDefinitionException.class,
            () -> csv("disable-quote-character", "true", "quote-character", "'"));
    assertTrue(e.getMessage().contains("csv.quote-character"), e.getMessage());
    assertThrows(TableDefinitionException.class, () -> csv("quote-character", ","));
    assertThrows(TableDefinitionException.class, () -> csv("field-delimiter", "é"));
    assertThrows(TableDefinitionException.class, () -> csv("null-literal", "a,b"));
  }

  // ------------------------------------------------------------------ errors

  @Test
  void wrongFieldCountNamesTheLine() throws IOException {
    Path file = writeText(dir, "count.csv", "1,a\n2,\"multi\nline\"\n3\n");
    BadRecordException e = assertThrows(BadRecordException.class, () -> readAll(csv(), file, TWO));
    assertTrue(e.getMessage().contains("line 4"), e.getMessage());
    assertTrue(e.getMessage().contains("expected 2 fields but found 1"), e.getMessage());
  }

  @Test
  void unparsableValueNamesColumnAndValue() throws IOException {
    Path file = writeText(dir, "value.csv", "1,a\nabc,b\n");
    BadRecordException e = assertThrows(BadRecordException.class, () -> readAll(csv(), file, TWO));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertTrue(e.getMessage().contains("column 'id' (INT)"), e.getMessage());
    assertTrue(e.getMessage().contains("'abc'"), e.getMessage());
  }

  @Test
  void laterRangeErrorsNameTheByteOffset() throws IOException {
    Path file = writeText(dir, "offset.csv", "1,a\n2,b\nzz,c\n");
    BadRecordException e =
        assertThrows(
            BadRecordException.class, () -> readRange(csv(), file, TWO, ByteRange.of(4, 14)));
    assertTrue(e.getMessage().contains("byte offset 8"), e.getMessage());
  }

  @Test
  void unterminatedQuoteAndGarbageAfterQuoteAreErrors() throws IOException {
    BadRecordException e =
        assertThrows(
            BadRecordException.class,
            () -> readAll(csv(), writeText(dir, "u.csv", "1,\"open\n2,b\n"), TWO));
    assertTrue(e.getMessage().contains("unterminated quoted field"), e.getMessage());
    e =
        assertThrows(
            BadRecordException.class,
            () -> readAll(csv(), writeText(dir, "g.csv", "1,\"a\"b\n"), TWO));
    assertTrue(e.getMessage().contains("after the closing quote"), e.getMessage());
  }

  @Test
  void outOfRangeAndNotNullColumns() throws IOException {
    Path file = writeText(dir, "range.csv", "2147483648,a\n");
    BadRecordException e = assertThrows(BadRecordException.class, () -> readAll(csv(), file, TWO));
    assertTrue(e.getMessage().contains("out of the INT range"), e.getMessage());
    Schema notNull =
        Schema.builder()
            .addInt32Field("id")
            .addNullableField("name", ColumnType.STRING.fieldType())
            .build();
    e =
        assertThrows(
            BadRecordException.class,
            () -> readAll(csv(), writeText(dir, "nn.csv", ",a\n"), notNull));
    assertTrue(e.getMessage().contains("NOT NULL"), e.getMessage());
  }
}
