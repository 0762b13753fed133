package dev.filetables.io.format;

import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Writes rows as CSV records into its own byte buffer (UTF-8 encoded by hand, numbers and temporal
 * values formatted without intermediate strings where possible), so the byte count for {@link
 * #estimatedSize()} is exact and free.
 */
final class CsvRowWriter implements RowWriter {
  /**
   * Characters that formatted non-string values can contain (numbers, NaN, Infinity, booleans,
   * times).
   */
  private static final String VALUE_CHARS = "0123456789+-.:ETZNaIfinytrueals ";

  private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

  private final OutputStream out;
  private final byte[] buf = new byte[CsvFormat.IO_BUFFER_SIZE];
  private int pos;
  private long flushed;
  private boolean closed;

  private final ColumnType[] types;
  private final String[] names;
  private final byte delimiter;
  private final int quote;
  private final int escape;
  private final boolean allowComments;
  private final String nullLiteral;
  private final byte[] nullBytes;

  /** ASCII characters that force a string to be quoted (or escaped when quoting is disabled). */
  private final boolean[] special = new boolean[128];

  /** True when the delimiter, quote or escape could appear in a formatted number or time. */
  private final boolean checkAllValues;

  private final char[] scratch = new char[TemporalText.MAX_CHARS];

  CsvRowWriter(CsvFormat format, OutputStream out, Schema schema) {
    this.out = out;
    int n = schema.getFieldCount();
    this.types = new ColumnType[n];
    this.names = new String[n];
    for (int i = 0; i < n; i++) {
      types[i] = ColumnType.of(schema.getField(i).getType());
      names[i] = schema.getField(i).getName();
    }
    this.delimiter = (byte) format.delimiter;
    this.quote = format.quote;
    this.escape = format.escape;
    this.allowComments = format.allowComments;
    this.nullLiteral = format.nullLiteral;
    this.nullBytes =
        nullLiteral == null ? new byte[0] : nullLiteral.getBytes(StandardCharsets.UTF_8);
    special[format.delimiter] = true;
    special['\n'] = true;
    special['\r'] = true;
    if (quote >= 0) {
      special[quote] = true;
    }
    if (escape >= 0) {
      special[escape] = true;
    }
    this.checkAllValues =
        VALUE_CHARS.indexOf(format.delimiter) >= 0
            || (quote >= 0 && VALUE_CHARS.indexOf(quote) >= 0)
            || (escape >= 0 && VALUE_CHARS.indexOf(escape) >= 0);
  }

  @Override
  public void write(Row row) throws IOException {
    if (closed) {
      throw new IOException("CSV writer is closed");
    }
    final int n = types.length;
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        put(delimiter);
      }
      Object value = row.getValue(i);
      if (value == null) {
        putBytes(nullBytes);
        continue;
      }
      ColumnType type = types[i];
      if (type == ColumnType.STRING) {
        writeString((String) value, i);
        continue;
      }
      if (checkAllValues) {
        writeString(text(type, value), i);
        continue;
      }
      switch (type) {
        case BOOLEAN:
          putBytes((Boolean) value ? TRUE : FALSE);
          break;
        case INT:
        case BIGINT:
          putLong(((Number) value).longValue());
          break;
        case DATE:
        case TIMESTAMP:
        case TIMESTAMP_LTZ:
          putAscii(scratch, TemporalText.format(type, value, ' ', scratch));
          break;
        default:
          putAscii(text(type, value));
      }
    }
    put((byte) '\n');
  }

  /** The text of a non-string value. */
  private String text(ColumnType type, Object value) {
    switch (type) {
      case BOOLEAN:
        return value.toString();
      case INT:
      case BIGINT:
        return Long.toString(((Number) value).longValue());
      case FLOAT:
        return Float.toString(((Number) value).floatValue());
      case DOUBLE:
        return Double.toString(((Number) value).doubleValue());
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case DATE:
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return new String(scratch, 0, TemporalText.format(type, value, ' ', scratch));
      default:
        return value.toString();
    }
  }

  private void writeString(String s, int column) throws IOException {
    int len = s.length();
    boolean mustEscape = false;
    for (int i = 0; i < len; i++) {
      char c = s.charAt(i);
      if (c < 128 && special[c]) {
        mustEscape = true;
        break;
      }
    }
    boolean commentLike = column == 0 && allowComments && len > 0 && s.charAt(0) == '#';
    if (quote >= 0) {
      boolean quoted =
          mustEscape
              || commentLike
              || len == 0
              || s.charAt(0) == ' '
              || s.charAt(len - 1) == ' '
              || (nullLiteral != null && nullLiteral.equals(s));
      if (quoted) {
        put((byte) quote);
        encode(s, true);
        put((byte) quote);
      } else {
        encode(s, false);
      }
    } else if (mustEscape || commentLike) {
      if (escape < 0) {
        throw new IOException(
            "Cannot write CSV column '"
                + names[column]
                + "': the value contains the delimiter, a line break or (in the first column with"
                + " comments allowed) a leading '#', and quoting is disabled without an escape"
                + " character; set 'csv.escape-character' or enable quoting");
      }
      if (commentLike) {
        put((byte) escape);
      }
      encode(s, true);
    } else {
      encode(s, false);
    }
  }

  /**
   * UTF-8 encodes {@code s}; with {@code escaping}, the quote and escape characters are doubled
   * (inside quotes) or, without quoting, special characters are escaped.
   */
  private void encode(String s, boolean escaping) throws IOException {
    final int len = s.length();
    final byte[] b = buf;
    for (int i = 0; i < len; i++) {
      if (pos > b.length - 8) {
        flushBuffer();
      }
      char c = s.charAt(i);
      if (c < 0x80) {
        if (escaping && special[c]) {
          if (quote >= 0) {
            // inside quotes: quote and escape characters are doubled, line breaks stay raw
            if (c == quote || c == escape) {
              b[pos++] = (byte) c;
            }
          } else {
            b[pos++] = (byte) escape;
            if (c == '\n') {
              c = 'n';
            } else if (c == '\r') {
              c = 'r';
            }
          }
        }
        b[pos++] = (byte) c;
      } else if (c < 0x800) {
        b[pos++] = (byte) (0xC0 | (c >> 6));
        b[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < len
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          b[pos++] = (byte) (0xF0 | (cp >> 18));
          b[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[pos++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          b[pos++] = '?'; // unpaired surrogate, as String.getBytes(UTF_8) does
        }
      } else {
        b[pos++] = (byte) (0xE0 | (c >> 12));
        b[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[pos++] = (byte) (0x80 | (c & 0x3F));
      }
    }
  }

  private void put(byte b) throws IOException {
    if (pos == buf.length) {
      flushBuffer();
    }
    buf[pos++] = b;
  }

  private void putBytes(byte[] bytes) throws IOException {
    if (bytes.length > buf.length - pos) {
      flushBuffer();
      if (bytes.length > buf.length) {
        out.write(bytes);
        flushed += bytes.length;
        return;
      }
    }
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  private void putAscii(char[] chars, int len) throws IOException {
    if (len > buf.length - pos) {
      flushBuffer();
    }
    for (int i = 0; i < len; i++) {
      buf[pos++] = (byte) chars[i];
    }
  }

  private void putAscii(String s) throws IOException {
    int len = s.length();
    for (int i = 0; i < len; i++) {
      if (pos == buf.length) {
        flushBuffer();
      }
      buf[pos++] = (byte) s.charAt(i);
    }
  }

  private void putLong(long v) throws IOException {
    if (pos > buf.length - 20) {
      flushBuffer();
    }
    if (v == Long.MIN_VALUE) {
      putAscii(Long.toString(v));
      return;
    }
    if (v < 0) {
      buf[pos++] = '-';
      v = -v;
    }
    int digits = 1;
    for (long t = v; t >= 10; t /= 10) {
      digits++;
    }
    int end = pos + digits;
    for (int i = end - 1; i >= pos; i--) {
      buf[i] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    }
    pos = end;
  }

  private void flushBuffer() throws IOException {
    if (pos > 0) {
      out.write(buf, 0, pos);
      flushed += pos;
      pos = 0;
    }
  }

  @Override
  public long estimatedSize() {
    return flushed + pos;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      flushBuffer();
    } finally {
      out.close();
    }
  }
}
