package dev.filetables.io.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.filetables.io.format.internal.Decimals;
import dev.filetables.io.format.internal.TextCharset;
import dev.filetables.io.format.internal.Utf8;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/**
 * Reads the JSON lines of one byte range into rows, matching keys to columns by name with a
 * streaming parser per line (so a bad line never affects the next one).
 */
final class JsonRowReader implements SkippingRowReader {
  private final JsonFormat format;
  private final LineRangeReader lines;
  private final Schema schema;
  private final ColumnType[] types;
  private final boolean[] nullable;
  private final int[] decimalScales;
  private final Map<String, Integer> columnIndex;
  private final boolean[] seen;
  private final TemporalText temporal = new TemporalText();
  private final boolean lineRangeStartsAtZero;

  /** Null for UTF-8 (parsed from bytes after validation); else lines are decoded to chars first. */
  private final TextCharset.Decoder decoder;

  /** The current line decoded, when {@link #decoder} is set. */
  private CharBuffer lineChars;

  private long skipped;

  JsonRowReader(
      JsonFormat format, LineRangeReader lines, boolean rangeStartsAtZero, Schema schema) {
    this.lineRangeStartsAtZero = rangeStartsAtZero;
    this.format = format;
    this.lines = lines;
    this.schema = schema;
    int n = schema.getFieldCount();
    this.types = new ColumnType[n];
    this.nullable = new boolean[n];
    this.seen = new boolean[n];
    this.decimalScales = new int[n];
    this.columnIndex = new HashMap<>(n * 2);
    this.decoder = format.charset.isUtf8() ? null : format.charset.decoder();
    for (int i = 0; i < n; i++) {
      Schema.Field field = schema.getField(i);
      types[i] = ColumnType.of(field.getType());
      nullable[i] = field.getType().getNullable();
      decimalScales[i] = Decimals.declaredScale(field.getType());
      columnIndex.put(field.getName(), i);
    }
  }

  @Override
  public Row next() throws IOException {
    while (lines.next()) {
      if (isBlank(lines.buffer(), lines.lineOffset(), lines.lineLength())) {
        continue;
      }
      String undecodable = decode();
      if (undecodable != null) {
        bad(undecodable);
        continue;
      }
      Object[] values;
      try {
        values = parseLine();
      } catch (JsonProcessingException e) {
        bad(e.getOriginalMessage());
        continue;
      } catch (RecordProblem e) {
        bad(e.getMessage());
        continue;
      }
      return Row.withSchema(schema).attachValues(Arrays.asList(values));
    }
    return null;
  }

  /** Checks (UTF-8) or decodes (other charsets) the current line; the problem, or null. */
  private String decode() {
    byte[] buf = lines.buffer();
    int offset = lines.lineOffset();
    int length = lines.lineLength();
    if (decoder == null) {
      int bad = Utf8.firstInvalid(buf, offset, length);
      return bad < 0
          ? null
          : String.format(
              "byte 0x%02X at offset %d of the line is not valid UTF-8 (set 'json.charset' if the file"
                  + " uses another encoding)",
              buf[bad] & 0xff, bad - offset);
    }
    try {
      lineChars = decoder.decodeToBuffer(buf, offset, length);
      return null;
    } catch (TextCharset.MalformedTextException e) {
      return e.getMessage().replace("of the value", "of the line");
    }
  }

  private Object[] parseLine() throws IOException {
    final int n = types.length;
    Object[] values = new Object[n];
    Arrays.fill(seen, false);
    byte[] buf = lines.buffer();
    int offset = lines.lineOffset();
    try (JsonParser p =
        decoder == null
            ? JsonFormat.FACTORY.createParser(buf, offset, lines.lineLength())
            : JsonFormat.FACTORY.createParser(
                lineChars.array(), lineChars.arrayOffset(), lineChars.limit())) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new RecordProblem("expected a JSON object");
      }
      String name;
      while ((name = p.nextFieldName()) != null) {
        Integer index = columnIndex.get(name);
        JsonToken token = p.nextToken();
        if (index == null) {
          p.skipChildren();
          continue;
        }
        int i = index;
        try {
          values[i] = value(p, token, types[i], buf, offset);
          if (values[i] instanceof BigDecimal) {
            values[i] = Decimals.withScale((BigDecimal) values[i], decimalScales[i]);
          }
        } catch (NumberFormatException e) {
          throw new RecordProblem(
              "field '"
                  + name
                  + "' ("
                  + types[i]
                  + "): cannot parse '"
                  + p.getText()
                  + "' as "
                  + types[i]);
        } catch (ArithmeticException e) {
          throw new RecordProblem(
              "field '"
                  + name
                  + "' ("
                  + types[i]
                  + "): "
                  + p.getText()
                  + " is not an integer in the "
                  + types[i]
                  + " range");
        } catch (JsonProcessingException | RuntimeException e) {
          String reason =
              e instanceof JsonProcessingException
                  ? ((JsonProcessingException) e).getOriginalMessage()
                  : e.getMessage();
          throw new RecordProblem("field '" + name + "' (" + types[i] + "): " + reason);
        }
        seen[i] = true;
      }
      if (p.currentToken() != JsonToken.END_OBJECT) {
        throw new RecordProblem("expected a field name or '}'");
      }
      if (p.nextToken() != null) {
        throw new RecordProblem("unexpected content after the JSON object");
      }
    }
    for (int i = 0; i < n; i++) {
      if (values[i] == null) {
        if (!seen[i] && format.failOnMissingField) {
          throw new RecordProblem("field '" + schema.getField(i).getName() + "' is missing");
        }
        if (!nullable[i]) {
          throw new RecordProblem(
              "field '"
                  + schema.getField(i).getName()
                  + "' is NOT NULL but "
                  + (seen[i] ? "the value is null" : "missing"));
        }
      }
    }
    return values;
  }

  private Object value(JsonParser p, JsonToken token, ColumnType type, byte[] buf, int lineOffset)
      throws IOException {
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    switch (type) {
      case STRING:
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
          // Nested JSON into a STRING column: its JSON text, as Flink does.
          if (decoder != null) {
            long start = p.currentTokenLocation().getCharOffset();
            p.skipChildren();
            long end = p.currentLocation().getCharOffset();
            return new String(
                lineChars.array(), lineChars.arrayOffset() + (int) start, (int) (end - start));
          }
          long start = p.currentTokenLocation().getByteOffset();
          p.skipChildren();
          long end = p.currentLocation().getByteOffset();
          return new String(
              buf, lineOffset + (int) start, (int) (end - start), StandardCharsets.UTF_8);
        }
        return p.getText();
      case BOOLEAN:
        if (token == JsonToken.VALUE_TRUE) {
          return Boolean.TRUE;
        }
        if (token == JsonToken.VALUE_FALSE) {
          return Boolean.FALSE;
        }
        if (token == JsonToken.VALUE_STRING) {
          String s = p.getText().trim().toLowerCase(Locale.ROOT);
          if (s.equals("true") || s.equals("false")) {
            return Boolean.valueOf(s);
          }
        }
        throw expected(p, token, "true or false");
      case INT:
        if (token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
          return p.getIntValue();
        }
        return integral(p, token, "INT").intValueExact();
      case BIGINT:
        if (token == JsonToken.VALUE_NUMBER_INT
            && (p.getNumberType() == JsonParser.NumberType.INT
                || p.getNumberType() == JsonParser.NumberType.LONG)) {
          return p.getLongValue();
        }
        return integral(p, token, "BIGINT").longValueExact();
      case FLOAT:
        if (token.isNumeric() || token == JsonToken.VALUE_STRING) {
          return Float.parseFloat(p.getText().trim());
        }
        throw expected(p, token, "a number");
      case DOUBLE:
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
          return p.getDoubleValue();
        }
        if (token == JsonToken.VALUE_STRING) {
          return Double.parseDouble(p.getText().trim());
        }
        throw expected(p, token, "a number");
      case DECIMAL:
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
          return p.getDecimalValue();
        }
        if (token == JsonToken.VALUE_STRING) {
          return new BigDecimal(p.getText().trim());
        }
        throw expected(p, token, "a number");
      case DATE:
        requireString(p, token, "a date string");
        return temporal.parseDate(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      case TIMESTAMP:
        requireString(p, token, "a timestamp string");
        return temporal.parseTimestamp(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      case TIMESTAMP_LTZ:
        requireString(p, token, "a timestamp string");
        return new Instant(
            temporal.parseInstantMillis(
                p.getTextCharacters(), p.getTextOffset(), p.getTextLength()));
      default:
        throw new IllegalStateException("Unsupported column type " + type);
    }
  }

  /**
   * An integer given as a wider number, an integral decimal (12.0) or a string; exact or an error.
   */
  private static BigDecimal integral(JsonParser p, JsonToken token, String type)
      throws IOException {
    BigDecimal d;
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      d = p.getDecimalValue();
    } else if (token == JsonToken.VALUE_STRING) {
      d = new BigDecimal(p.getText().trim());
    } else {
      throw expected(p, token, "an integer");
    }
    return d; // intValueExact/longValueExact of the caller reject fractions and overflow
  }

  private static void requireString(JsonParser p, JsonToken token, String what) throws IOException {
    if (token != JsonToken.VALUE_STRING) {
      throw expected(p, token, what);
    }
  }

  private static IllegalArgumentException expected(JsonParser p, JsonToken token, String what)
      throws IOException {
    String found =
        token == JsonToken.START_OBJECT
            ? "an object"
            : token == JsonToken.START_ARRAY ? "an array" : "'" + p.getText() + "'";
    return new IllegalArgumentException("expected " + what + " but found " + found);
  }

  private static boolean isBlank(byte[] b, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
        return false;
      }
    }
    return true;
  }

  private void bad(String reason) throws BadRecordException {
    if (format.ignoreParseErrors) {
      skipped++;
      return;
    }
    String line = lines.lineText(format.charset.charset());
    boolean lineKnown = lines.lineNumber() > 0 && lineRangeStartsAtZero;
    throw BadRecordException.skippable(
        "Bad JSON record at "
            + (lineKnown ? "line " + lines.lineNumber() : "byte offset " + lines.lineStart())
            + ": "
            + reason
            + "; record: "
            + (line.length() > 200 ? line.substring(0, 200) + "..." : line),
        reason,
        lineKnown ? lines.lineNumber() : -1,
        lines.lineStart(),
        lines.lineBytes());
  }

  @Override
  public String position() {
    return lines.position();
  }

  @Override
  public long byteOffset() {
    return lines.lineStart();
  }

  @Override
  public long skippedRecords() {
    return skipped;
  }

  @Override
  public void close() {
    // the channel belongs to the caller
  }

  /** A problem with the current line (not an I/O failure). */
  private static final class RecordProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RecordProblem(String message) {
      super(message, null, false, false);
    }
  }
}
