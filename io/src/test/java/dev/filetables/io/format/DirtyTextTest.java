package dev.filetables.io.format;

import static dev.filetables.io.format.RowFormatTestSupport.TWO;
import static dev.filetables.io.format.RowFormatTestSupport.format;
import static dev.filetables.io.format.RowFormatTestSupport.two;
import static dev.filetables.io.format.RowFormatTestSupport.writeBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.internal.Utf8;
import dev.filetables.io.table.ColumnType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Dirty text input: BOM, CRLF, charsets, undecodable bytes, reading on after a bad record. */
class DirtyTextTest {
  private static final Charset GBK = Charset.forName("GBK");

  @TempDir Path dir;

  /** A bad record, as {@link #readRouting} reports it. */
  record Bad(long line, long offset, byte[] raw, String reason) {}

  /** Reads a range like a policy layer does: rows, and bad records read past. */
  private static List<Object> readRouting(
      FileFormat format, Path file, Schema schema, ByteRange range) throws IOException {
    List<Object> out = new ArrayList<>();
    try (SeekableByteChannel channel = Files.newByteChannel(file);
        RowReader reader = format.createReader(channel, Files.size(file), range, schema)) {
      for (; ; ) {
        try {
          Row row = reader.next();
          if (row == null) {
            return out;
          }
          out.add(row);
        } catch (BadRecordException e) {
          assertTrue(e.readerCanContinue(), e.getMessage());
          out.add(new Bad(e.lineNumber(), e.byteOffset(), e.raw(), e.reason()));
        }
      }
    }
  }

  private static List<Object> readAllRouting(FileFormat format, Path file, Schema schema)
      throws IOException {
    return readRouting(format, file, schema, ByteRange.of(0, Files.size(file)));
  }

  /** Every row of every range when the file is cut into ranges of {@code size} bytes. */
  private static List<Object> readInRanges(FileFormat format, Path file, Schema schema, long size)
      throws IOException {
    List<Object> out = new ArrayList<>();
    long fileSize = Files.size(file);
    for (long start = 0; start < fileSize || start == 0; start += size) {
      out.addAll(
          readRouting(format, file, schema, ByteRange.of(start, Math.min(fileSize, start + size))));
      if (fileSize == 0) {
        break;
      }
    }
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json"})
  void bomIsStrippedAndCrlfOrLfEndLinesAtEveryRangeBorder(String name) throws IOException {
    String text =
        name.equals("csv")
            ? "1,héllo\r\n2,wörld\n3,\"a\r\nb\"\r\n4,ünï ✓\r\n"
            : "{\"id\":1,\"name\":\"héllo\"}\r\n{\"id\":2,\"name\":\"wörld\"}\n"
                + "{\"id\":3,\"name\":\"a\\r\\nb\"}\r\n{\"id\":4,\"name\":\"ünï ✓\"}\r\n";
    Path file = writeBytes(dir, "bom." + name, concat(BOM, text.getBytes(StandardCharsets.UTF_8)));
    List<Object> expected =
        List.of(two(1, "héllo"), two(2, "wörld"), two(3, "a\r\nb"), two(4, "ünï ✓"));
    FileFormat format = format(name);
    for (long size = 1; size <= Files.size(file); size++) {
      List<Object> rows =
          name.equals("csv")
              ? readCsvSplit(format, file, size)
              : readInRanges(format, file, TWO, size);
      assertEquals(expected, rows, "ranges of " + size + " bytes");
    }
  }

  /** CSV ranges come from its splitter (records may hold line breaks inside quotes). */
  private static List<Object> readCsvSplit(FileFormat format, Path file, long size)
      throws IOException {
    List<Object> out = new ArrayList<>();
    List<ByteRange> ranges;
    try (SeekableByteChannel channel = Files.newByteChannel(file)) {
      ranges = format.split(channel, Files.size(file), size);
    }
    for (ByteRange range : ranges) {
      out.addAll(readRouting(format, file, TWO, range));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json"})
  void gbkTextReadsExactlyOnceWhateverTheRangeBorders(String name) throws IOException {
    // GBK trail bytes include ASCII letters and '\', '[', ']', '{', '}', '|'
    String[] names = {"中文字段", "表{格}", "反斜杠\\号", "竖|线", "ascii"};
    StringBuilder text = new StringBuilder();
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      String value = names[i];
      if (name.equals("csv")) {
        text.append(i).append(",\"").append(value).append("\"\r\n");
      } else {
        text.append("{\"id\":")
            .append(i)
            .append(",\"name\":\"")
            .append(value.replace("\\", "\\\\"))
            .append("\"}\r\n");
      }
      expected.add(two(i, value));
    }
    Path file = writeBytes(dir, "gbk." + name, text.toString().getBytes(GBK));
    FileFormat format = format(name, "charset", "GBK");
    for (long size = 1; size <= Files.size(file); size += 1) {
      List<Object> rows =
          name.equals("csv")
              ? readCsvSplit(format, file, size)
              : readInRanges(format, file, TWO, size);
      assertEquals(expected, rows, "ranges of " + size + " bytes");
    }
  }

  @Test
  void gbkJsonNestedObjectIntoStringColumnKeepsItsText() throws IOException {
    Path file =
        writeBytes(dir, "nested.json", "{\"id\":1,\"name\":{\"城市\":\"北京\"}}\n".getBytes(GBK));
    assertEquals(
        List.of(two(1, "{\"城市\":\"北京\"}")),
        readAllRouting(format("json", "charset", "GBK"), file, TWO));
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json"})
  void gbkBytesInAUtf8FeedAreBadRecordsNotReplacementCharacters(String name) throws IOException {
    byte[] gbkLine = (name.equals("csv") ? "2,中文\n" : "{\"id\":2,\"name\":\"中文\"}\n").getBytes(GBK);
    byte[] content =
        concat(
            (name.equals("csv") ? "1,a\n" : "{\"id\":1,\"name\":\"a\"}\n")
                .getBytes(StandardCharsets.UTF_8),
            gbkLine,
            (name.equals("csv") ? "3,c\n" : "{\"id\":3,\"name\":\"c\"}\n")
                .getBytes(StandardCharsets.UTF_8));
    Path file = writeBytes(dir, "mixed." + name, content);
    List<Object> out = readAllRouting(format(name), file, TWO);
    assertEquals(3, out.size(), out.toString());
    assertEquals(two(1, "a"), out.get(0));
    assertEquals(two(3, "c"), out.get(2));
    Bad bad = (Bad) out.get(1);
    assertEquals(2, bad.line());
    assertEquals(name.equals("csv") ? 4 : 20, bad.offset());
    // the raw bytes are the record as stored (with its line end for CSV), GBK bytes intact
    byte[] expectedRaw =
        name.equals("csv") ? gbkLine : java.util.Arrays.copyOf(gbkLine, gbkLine.length - 1);
    assertArrayEquals(expectedRaw, bad.raw());
    assertTrue(bad.reason().contains("not valid UTF-8"), bad.reason());
    assertTrue(bad.reason().contains("charset"), bad.reason());
    // and the same file declared as GBK: the UTF-8 lines are ASCII, so all three read
    List<Object> asGbk = readAllRouting(format(name, "charset", "GBK"), file, TWO);
    assertEquals(List.of(two(1, "a"), two(2, "中文"), two(3, "c")), asGbk);
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json"})
  void undecodableBytesInTheDeclaredCharsetAreBadRecords(String name) throws IOException {
    // 0x81 0x20: a GBK lead byte followed by a byte that cannot trail it
    byte[] broken =
        name.equals("csv")
            ? new byte[] {'7', ',', (byte) 0x81, ' ', '\n'}
            : concat(
                "{\"id\":7,\"name\":\"".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0x81, ' '},
                "\"}\n".getBytes(StandardCharsets.US_ASCII));
    Path file =
        writeBytes(
            dir,
            "broken." + name,
            concat(
                broken,
                (name.equals("csv") ? "8,ok\n" : "{\"id\":8,\"name\":\"ok\"}\n").getBytes(GBK)));
    List<Object> out = readAllRouting(format(name, "charset", "GBK"), file, TWO);
    assertEquals(2, out.size(), out.toString());
    assertTrue(((Bad) out.get(0)).reason().contains("not valid GBK"), ((Bad) out.get(0)).reason());
    assertEquals(two(8, "ok"), out.get(1));
  }

  @Test
  void bomIsDataInAnotherCharset() throws IOException {
    Path file =
        writeBytes(
            dir, "bom-latin1.csv", concat(BOM, "1,a\n".getBytes(StandardCharsets.ISO_8859_1)));
    Schema strings =
        Schema.builder()
            .addNullableField("a", ColumnType.STRING.fieldType())
            .addNullableField("b", ColumnType.STRING.fieldType())
            .build();
    List<Object> out = readAllRouting(format("csv", "charset", "ISO-8859-1"), file, strings);
    assertEquals("ï»¿1", ((Row) out.get(0)).getString("a"));
  }

  @Test
  void csvBadRecordInALaterRangeHasItsOffsetAndRawBytes() throws IOException {
    String text = "1,a\n2,\"multi\nline\",x\n3,c\n";
    Path file = writeBytes(dir, "later.csv", text.getBytes(StandardCharsets.UTF_8));
    List<Object> out = readRouting(format("csv"), file, TWO, ByteRange.of(4, Files.size(file)));
    Bad bad = (Bad) out.get(0);
    assertEquals(-1, bad.line()); // unknown outside the first range
    assertEquals(4, bad.offset());
    assertEquals("2,\"multi\nline\",x\n", new String(bad.raw(), StandardCharsets.UTF_8));
    assertTrue(bad.reason().contains("expected 2 fields but found 3"), bad.reason());
    assertEquals(two(3, "c"), out.get(1));
  }

  @Test
  void ignoreParseErrorsStillSkipsInsideTheFormat() throws IOException {
    Path file =
        writeBytes(
            dir,
            "skip.json",
            "{\"id\":1}\n{bad\n{\"id\":\"x\"}\n".getBytes(StandardCharsets.UTF_8));
    List<Object> out = readAllRouting(format("json", "ignore-parse-errors", "true"), file, TWO);
    assertEquals(List.of(two(1, null)), out);
  }

  @Test
  void utf8ValidationAgreesWithTheJdkDecoder() {
    java.util.Random random = new java.util.Random(42);
    String sample = "plain ascii text, Müller, ✓, 😀, 中文 ";
    byte[] valid = sample.getBytes(StandardCharsets.UTF_8);
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[random.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        b[i] =
            random.nextInt(4) == 0
                ? (byte) random.nextInt(256)
                : valid[random.nextInt(valid.length)];
      }
      boolean jdkValid;
      try {
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .decode(java.nio.ByteBuffer.wrap(b));
        jdkValid = true;
      } catch (java.nio.charset.CharacterCodingException e) {
        jdkValid = false;
      }
      assertEquals(jdkValid, Utf8.firstInvalid(b, 0, b.length) < 0, java.util.Arrays.toString(b));
    }
  }

  @Test
  void utf8ValidationIsStrict() {
    assertEquals(-1, Utf8.firstInvalid("aé✓😀".getBytes(StandardCharsets.UTF_8), 0, 10));
    assertEquals(0, Utf8.firstInvalid(new byte[] {(byte) 0xC0, (byte) 0x80}, 0, 2)); // overlong NUL
    assertEquals(
        0, Utf8.firstInvalid(new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, 0, 3)); // overlong
    assertEquals(
        0,
        Utf8.firstInvalid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, 0, 3)); // surrogate
    assertEquals(
        0,
        Utf8.firstInvalid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, 0, 4));
    assertEquals(
        1, Utf8.firstInvalid(new byte[] {'a', (byte) 0xE2, (byte) 0x9C}, 0, 3)); // truncated
    assertEquals(1, Utf8.firstInvalid(new byte[] {'a', (byte) 0x80}, 0, 2)); // lone continuation
    assertEquals(
        -1, Utf8.firstInvalid(new byte[] {'a', (byte) 0xE2, (byte) 0x9C, (byte) 0x93}, 0, 4));
    assertFalse(Utf8.firstInvalid(new byte[] {(byte) 0xFF}, 0, 1) < 0);
  }
}
