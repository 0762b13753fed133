package dev.filetables.io.format;

import dev.filetables.io.format.internal.Decimals;
import dev.filetables.io.format.internal.TextCharset;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/**
 * Reads the CSV records that start in one byte range (split boundaries are record starts) into rows
 * of the file schema, by column position. Values are parsed straight from the record bytes.
 */
final class CsvRowReader implements SkippingRowReader {
  /**
   * Raw bytes of a bad record kept for dead letters; longer records are cut (the message says so).
   */
  static final int MAX_RAW_BYTES = 1 << 20;

  private final CsvFormat format;
  private final SeekableByteChannel file;
  private final long fileSize;
  private final TextCharset.Decoder decoder;
  private final ByteRange range;
  private final Schema schema;
  private final ColumnType[] types;
  private final boolean[] nullable;
  private final int[] decimalScales;
  private final byte[] nullBytes;
  private final RangeByteInput in;
  private final CsvRecordParser parser;
  private final TemporalText temporal = new TemporalText();
  private char[] chars = new char[64];

  private long skipped;
  private boolean started;

  CsvRowReader(
      CsvFormat format, SeekableByteChannel file, long fileSize, ByteRange range, Schema schema)
      throws IOException {
    this.format = format;
    this.file = file;
    this.fileSize = fileSize;
    this.decoder = format.charset.decoder();
    this.range = range;
    this.schema = schema;
    int n = schema.getFieldCount();
    this.types = new ColumnType[n];
    this.nullable = new boolean[n];
    this.decimalScales = new int[n];
    for (int i = 0; i < n; i++) {
      Schema.Field field = schema.getField(i);
      types[i] = ColumnType.of(field.getType());
      nullable[i] = field.getType().getNullable();
      decimalScales[i] = Decimals.declaredScale(field.getType());
    }
    this.nullBytes = format.nullLiteral == null ? null : format.charset.encode(format.nullLiteral);
    this.in =
        new RangeByteInput(
            file,
            range.start(),
            fileSize,
            (int) Math.min(CsvFormat.IO_BUFFER_SIZE, Math.max(16, range.length() + 1024)));
    this.parser = format.newParser(in, true);
  }

  @Override
  public Row next() throws IOException {
    if (!started) {
      started = true;
      if (range.start() == 0 && format.charset.isUtf8()) {
        in.skipUtf8Bom();
      }
    }
    final int n = types.length;
    while (parser.next(range.end())) {
      if (parser.isEmptyLine() && n != 1) {
        continue; // a blank line (for one column it is a null value)
      }
      if (parser.error() != null) {
        bad(parser.error());
        continue;
      }
      if (parser.fieldCount() != n) {
        bad("expected " + n + " fields but found " + parser.fieldCount());
        continue;
      }
      Object[] values = new Object[n];
      String problem = null;
      for (int i = 0; i < n && problem == null; i++) {
        try {
          values[i] = value(i);
        } catch (RuntimeException e) {
          problem =
              "column '" + schema.getField(i).getName() + "' (" + types[i] + "): " + e.getMessage();
        }
        if (problem == null && values[i] == null && !nullable[i]) {
          problem =
              "column '" + schema.getField(i).getName() + "' is NOT NULL but the value is null";
        }
      }
      if (problem != null) {
        bad(problem);
        continue;
      }
      return Row.withSchema(schema).attachValues(Arrays.asList(values));
    }
    return null;
  }

  private Object value(int i) {
    byte[] b = parser.bytes();
    int start = parser.fieldStart(i);
    int end = parser.fieldEnd(i);
    boolean quoted = parser.fieldQuoted(i);
    ColumnType type = types[i];
    if (!quoted && (start == end || isNullLiteral(b, start, end))) {
      return null;
    }
    if (type == ColumnType.STRING) {
      try {
        return decoder.decode(b, start, end - start);
      } catch (TextCharset.MalformedTextException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
    // Non-string values ignore surrounding spaces; an empty quoted value is null.
    while (start < end && b[start] == ' ') {
      start++;
    }
    while (end > start && b[end - 1] == ' ') {
      end--;
    }
    if (start == end) {
      return null;
    }
    switch (type) {
      case BOOLEAN:
        return parseBoolean(b, start, end);
      case INT:
        {
          long v = parseLong(b, start, end, "INT");
          if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                "'" + ascii(b, start, end) + "' is out of the INT range");
          }
          return (int) v;
        }
      case BIGINT:
        return parseLong(b, start, end, "BIGINT");
      case FLOAT:
        try {
          return Float.parseFloat(ascii(b, start, end));
        } catch (NumberFormatException e) {
          throw cannotParse(b, start, end, "FLOAT");
        }
      case DOUBLE:
        try {
          return Double.parseDouble(ascii(b, start, end));
        } catch (NumberFormatException e) {
          throw cannotParse(b, start, end, "DOUBLE");
        }
      case DECIMAL:
        try {
          return Decimals.withScale(
              new BigDecimal(toChars(b, start, end), 0, end - start), decimalScales[i]);
        } catch (NumberFormatException e) {
          throw cannotParse(b, start, end, "DECIMAL");
        }
      case DATE:
        return temporal.parseDate(toChars(b, start, end), 0, end - start);
      case TIMESTAMP:
        return temporal.parseTimestamp(toChars(b, start, end), 0, end - start);
      case TIMESTAMP_LTZ:
        return new Instant(temporal.parseInstantMillis(toChars(b, start, end), 0, end - start));
      default:
        throw new IllegalStateException("Unsupported column type " + type);
    }
  }

  private boolean isNullLiteral(byte[] b, int start, int end) {
    byte[] lit = nullBytes;
    if (lit == null || lit.length != end - start) {
      return false;
    }
    for (int i = 0; i < lit.length; i++) {
      if (b[start + i] != lit[i]) {
        return false;
      }
    }
    return true;
  }

  private static Boolean parseBoolean(byte[] b, int start, int end) {
    int len = end - start;
    if (len == 4 && matches(b, start, "true")) {
      return Boolean.TRUE;
    }
    if (len == 5 && matches(b, start, "false")) {
      return Boolean.FALSE;
    }
    throw new IllegalArgumentException(
        "cannot parse '"
            + new String(b, start, len, StandardCharsets.UTF_8)
            + "' as BOOLEAN (expected true or false)");
  }

  private static boolean matches(byte[] b, int start, String lowerCase) {
    for (int i = 0; i < lowerCase.length(); i++) {
      if ((b[start + i] | 0x20) != lowerCase.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static long parseLong(byte[] b, int start, int end, String type) {
    int i = start;
    boolean negative = false;
    if (b[i] == '-' || b[i] == '+') {
      negative = b[i] == '-';
      i++;
    }
    if (i == end || end - i > 19) {
      throw cannotParse(b, start, end, type);
    }
    long v = 0;
    for (; i < end; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        throw cannotParse(b, start, end, type);
      }
      // accumulate negatively so that Long.MIN_VALUE fits
      if (v < (Long.MIN_VALUE + d) / 10) {
        throw new IllegalArgumentException(
            "'" + ascii(b, start, end) + "' is out of the " + type + " range");
      }
      v = v * 10 - d;
    }
    if (!negative) {
      if (v == Long.MIN_VALUE) {
        throw new IllegalArgumentException(
            "'" + ascii(b, start, end) + "' is out of the " + type + " range");
      }
      v = -v;
    }
    return v;
  }

  private static IllegalArgumentException cannotParse(byte[] b, int start, int end, String type) {
    return new IllegalArgumentException(
        "cannot parse '"
            + new String(b, start, end - start, StandardCharsets.UTF_8)
            + "' as "
            + type);
  }

  private static String ascii(byte[] b, int start, int end) {
    return new String(b, start, end - start, StandardCharsets.ISO_8859_1);
  }

  /** Widens the bytes to chars (non-ASCII bytes become chars above 127 and fail to parse). */
  private char[] toChars(byte[] b, int start, int end) {
    int len = end - start;
    if (chars.length < len) {
      chars = new char[Math.max(len, chars.length * 2)];
    }
    for (int i = 0; i < len; i++) {
      chars[i] = (char) (b[start + i] & 0xff);
    }
    return chars;
  }

  private void bad(String reason) throws IOException {
    if (format.ignoreParseErrors) {
      skipped++;
      return;
    }
    boolean lineKnown = range.start() == 0;
    String where =
        lineKnown ? "line " + parser.recordLine() : "byte offset " + parser.recordStart();
    throw BadRecordException.skippable(
        "Bad CSV record at " + where + ": " + reason + "; record: " + snippet(),
        reason,
        lineKnown ? parser.recordLine() : -1,
        parser.recordStart(),
        rawRecord());
  }

  /**
   * The record's bytes as stored (quotes, escapes and line end included), re-read from the file:
   * the parser keeps only unescaped field bytes. Cut at {@link #MAX_RAW_BYTES}.
   */
  private byte[] rawRecord() throws IOException {
    long start = parser.recordStart();
    long end = Math.min(in.position(), fileSize);
    int length = (int) Math.min(MAX_RAW_BYTES, Math.max(0, end - start));
    ByteBuffer raw = ByteBuffer.allocate(length);
    file.position(start); // RangeByteInput positions the channel before each read: sharing is safe
    while (raw.hasRemaining() && file.read(raw) >= 0) {}
    return Arrays.copyOf(raw.array(), raw.position());
  }

  /** The current record, fields joined by the delimiter, shortened for messages. */
  private String snippet() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < parser.fieldCount() && sb.length() < 200; i++) {
      if (i > 0) {
        sb.append((char) format.delimiter);
      }
      int start = parser.fieldStart(i);
      sb.append(
          new String(parser.bytes(), start, parser.fieldEnd(i) - start, format.charset.charset()));
    }
    String s = sb.toString();
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  @Override
  public String position() {
    return range.start() == 0
        ? "line " + parser.recordLine()
        : "record at byte offset " + parser.recordStart();
  }

  @Override
  public long byteOffset() {
    return started ? parser.recordStart() : -1;
  }

  @Override
  public long skippedRecords() {
    return skipped;
  }

  @Override
  public void close() {
    // the channel belongs to the caller
  }
}
