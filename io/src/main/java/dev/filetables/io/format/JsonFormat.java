package dev.filetables.io.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.filetables.io.format.internal.FixedRanges;
import dev.filetables.io.format.internal.FormatOptions;
import dev.filetables.io.format.internal.TextCharset;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The {@code json} format, compatible with Flink's: one JSON object per '\n'-terminated line, keys
 * are column names, nulls written explicitly, decimals as plain numbers, DATE as {@code yyyy-MM-dd}
 * and timestamps as strings ({@code yyyy-MM-dd HH:mm:ss.SSS}; with {@code
 * timestamp-format.standard} = {@code ISO-8601} a {@code T} separator; TIMESTAMP_LTZ in UTC with a
 * trailing {@code Z}).
 *
 * <p>Reading matches keys to columns by name; unknown keys are ignored, missing keys are null (or
 * an error with {@code fail-on-missing-field}); numbers given as strings and strings holding
 * numbers are accepted where the meaning is unambiguous; a UTF-8 BOM, CRLF line ends and blank
 * lines are tolerated. Text is UTF-8 unless {@code charset} names another ASCII-compatible charset
 * (read only; see {@link TextCharset}); bytes that do not decode make the record bad.
 *
 * <p>Options (keys without the {@code json.} prefix): {@code fail-on-missing-field}, {@code
 * ignore-parse-errors}, {@code timestamp-format.standard} ({@code SQL} | {@code ISO-8601}), {@code
 * encode.ignore-null-fields}; {@code encode.decimal-as-plain-number}, {@code map-null-key.mode},
 * {@code map-null-key.literal} and {@code decode.json-parser.enabled} are validated and have no
 * effect (decimals are always plain, there are no map columns, the streaming parser is always
 * used).
 */
final class JsonFormat implements FileFormat {
  private static final long serialVersionUID = 1L;

  static final String FAIL_ON_MISSING_FIELD = "fail-on-missing-field";
  static final String IGNORE_PARSE_ERRORS = "ignore-parse-errors";
  static final String TIMESTAMP_FORMAT_STANDARD = "timestamp-format.standard";
  static final String ENCODE_DECIMAL_AS_PLAIN_NUMBER = "encode.decimal-as-plain-number";
  static final String ENCODE_IGNORE_NULL_FIELDS = "encode.ignore-null-fields";
  static final String MAP_NULL_KEY_MODE = "map-null-key.mode";
  static final String MAP_NULL_KEY_LITERAL = "map-null-key.literal";
  static final String DECODE_JSON_PARSER_ENABLED = "decode.json-parser.enabled";
  static final String CHARSET = "charset";

  static final Set<String> KNOWN_OPTIONS =
      Set.of(
          FAIL_ON_MISSING_FIELD,
          IGNORE_PARSE_ERRORS,
          TIMESTAMP_FORMAT_STANDARD,
          ENCODE_DECIMAL_AS_PLAIN_NUMBER,
          ENCODE_IGNORE_NULL_FIELDS,
          MAP_NULL_KEY_MODE,
          MAP_NULL_KEY_LITERAL,
          DECODE_JSON_PARSER_ENABLED,
          CHARSET);

  /** Shared, thread-safe factory: plain decimals, no root separator (we end lines ourselves). */
  static final JsonFactory FACTORY =
      new JsonFactoryBuilder()
          .rootValueSeparator((String) null)
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .build();

  final boolean failOnMissingField;
  final boolean ignoreParseErrors;
  final boolean isoTimestamps;
  final boolean ignoreNullFields;
  final TextCharset charset;

  private JsonFormat(
      boolean failOnMissingField,
      boolean ignoreParseErrors,
      boolean isoTimestamps,
      boolean ignoreNullFields,
      TextCharset charset) {
    this.failOnMissingField = failOnMissingField;
    this.ignoreParseErrors = ignoreParseErrors;
    this.isoTimestamps = isoTimestamps;
    this.ignoreNullFields = ignoreNullFields;
    this.charset = charset;
  }

  /** Creates the format from its options (keys without the "json." prefix); unknown keys fail. */
  static JsonFormat create(Map<String, String> options) {
    FormatOptions o = FormatOptions.of("json", options, KNOWN_OPTIONS);
    boolean failOnMissingField = o.bool(FAIL_ON_MISSING_FIELD, false);
    boolean ignoreParseErrors = o.bool(IGNORE_PARSE_ERRORS, false);
    if (failOnMissingField && ignoreParseErrors) {
      throw o.conflict(
          "'json.fail-on-missing-field' and 'json.ignore-parse-errors' cannot both be true");
    }
    boolean iso = o.oneOf(TIMESTAMP_FORMAT_STANDARD, "SQL", "SQL", "ISO-8601").equals("ISO-8601");
    o.bool(ENCODE_DECIMAL_AS_PLAIN_NUMBER, false);
    boolean ignoreNullFields = o.bool(ENCODE_IGNORE_NULL_FIELDS, false);
    o.oneOf(MAP_NULL_KEY_MODE, "FAIL", "FAIL", "DROP", "LITERAL");
    o.string(MAP_NULL_KEY_LITERAL, "null");
    o.bool(DECODE_JSON_PARSER_ENABLED, true);
    TextCharset charset = TextCharset.forOption(o, CHARSET);
    return new JsonFormat(failOnMissingField, ignoreParseErrors, iso, ignoreNullFields, charset);
  }

  @Override
  public String name() {
    return "json";
  }

  @Override
  public String extension() {
    return ".json";
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    if (!charset.isUtf8()) {
      throw new IOException(
          "'json.charset' = '"
              + charset
              + "' applies to reading only; FileTables writes JSON as UTF-8"
              + " (remove the option from the sink table)");
    }
    return new JsonRowWriter(this, out, fileSchema);
  }

  /**
   * JSON strings escape line breaks, so every '\n' ends a record and any offset is a valid
   * boundary: fixed-size ranges, synchronised by {@link LineRangeReader}.
   */
  @Override
  public List<ByteRange> split(SeekableByteChannel file, long fileSize, long targetRangeSize) {
    return FixedRanges.of(fileSize, Math.max(1, targetRangeSize));
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema)
      throws IOException {
    return new JsonRowReader(
        this,
        new LineRangeReader(
            file,
            fileSize,
            range,
            (int) Math.min(LineRangeReader.DEFAULT_BUFFER_SIZE, range.length() + 4096),
            charset.isUtf8()),
        range.start() == 0,
        fileSchema);
  }

  @Override
  public String toString() {
    return "json(failOnMissingField="
        + failOnMissingField
        + ", ignoreParseErrors="
        + ignoreParseErrors
        + ", timestampFormat="
        + (isoTimestamps ? "ISO-8601" : "SQL")
        + ", ignoreNullFields="
        + ignoreNullFields
        + ", charset="
        + charset
        + ")";
  }
}
