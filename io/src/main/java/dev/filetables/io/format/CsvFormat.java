package dev.filetables.io.format;

import dev.filetables.io.format.internal.FormatOptions;
import dev.filetables.io.format.internal.TextCharset;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The {@code csv} format, compatible with Flink's: RFC 4180 records without header, columns by
 * position, '\n' line ends (CRLF and a UTF-8 BOM accepted on read).
 *
 * <p>Null and the empty string stay apart: null is an empty unquoted field (or {@code
 * null-literal}), the empty string is {@code ""}. On read an unquoted empty field (or the null
 * literal) is null for every type, a quoted empty field is the empty string (null for non-string
 * columns).
 *
 * <p>Options (keys without the {@code csv.} prefix): {@code field-delimiter}, {@code
 * quote-character}, {@code disable-quote-character}, {@code allow-comments}, {@code
 * ignore-parse-errors}, {@code escape-character}, {@code null-literal}; {@code
 * array-element-delimiter} and {@code write-bigdecimal-in-scientific-notation} are accepted and
 * have no effect (no array columns; decimals are always written plain). Delimiter, quote and escape
 * must be ASCII characters. {@code charset} (FileTables only, read only) names the text's charset,
 * UTF-8 by default; it must be ASCII-compatible and its multi-byte characters must not contain the
 * delimiter, quote or escape byte (see {@link TextCharset}). Bytes that do not decode make the
 * record bad.
 */
final class CsvFormat implements FileFormat {
  private static final long serialVersionUID = 1L;

  static final String FIELD_DELIMITER = "field-delimiter";
  static final String QUOTE_CHARACTER = "quote-character";
  static final String DISABLE_QUOTE_CHARACTER = "disable-quote-character";
  static final String ALLOW_COMMENTS = "allow-comments";
  static final String IGNORE_PARSE_ERRORS = "ignore-parse-errors";
  static final String ARRAY_ELEMENT_DELIMITER = "array-element-delimiter";
  static final String ESCAPE_CHARACTER = "escape-character";
  static final String NULL_LITERAL = "null-literal";
  static final String WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION =
      "write-bigdecimal-in-scientific-notation";
  static final String CHARSET = "charset";

  static final Set<String> KNOWN_OPTIONS =
      Set.of(
          FIELD_DELIMITER,
          QUOTE_CHARACTER,
          DISABLE_QUOTE_CHARACTER,
          ALLOW_COMMENTS,
          IGNORE_PARSE_ERRORS,
          ARRAY_ELEMENT_DELIMITER,
          ESCAPE_CHARACTER,
          NULL_LITERAL,
          WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION,
          CHARSET);

  static final int IO_BUFFER_SIZE = 64 * 1024;

  final int delimiter;
  final int quote; // -1 when quoting is disabled
  final int escape; // -1 when unset
  final boolean allowComments;
  final boolean ignoreParseErrors;
  final String nullLiteral; // null when unset
  final TextCharset charset;

  private CsvFormat(
      int delimiter,
      int quote,
      int escape,
      boolean allowComments,
      boolean ignoreParseErrors,
      String nullLiteral,
      TextCharset charset) {
    this.charset = charset;
    this.delimiter = delimiter;
    this.quote = quote;
    this.escape = escape;
    this.allowComments = allowComments;
    this.ignoreParseErrors = ignoreParseErrors;
    this.nullLiteral = nullLiteral;
  }

  /** Creates the format from its options (keys without the "csv." prefix); unknown keys fail. */
  static CsvFormat create(Map<String, String> options) {
    FormatOptions o = FormatOptions.of("csv", options, KNOWN_OPTIONS);
    int delimiter = o.asciiChar(FIELD_DELIMITER, ',');
    boolean disableQuote = o.bool(DISABLE_QUOTE_CHARACTER, false);
    if (disableQuote && o.has(QUOTE_CHARACTER)) {
      throw o.conflict(
          "'csv.quote-character' cannot be set together with 'csv.disable-quote-character' = true");
    }
    int quote = disableQuote ? -1 : o.asciiChar(QUOTE_CHARACTER, '"');
    int escape = o.asciiChar(ESCAPE_CHARACTER, -1);
    boolean allowComments = o.bool(ALLOW_COMMENTS, false);
    boolean ignoreParseErrors = o.bool(IGNORE_PARSE_ERRORS, false);
    o.string(ARRAY_ELEMENT_DELIMITER, ";");
    o.bool(WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION, true);
    String nullLiteral = o.string(NULL_LITERAL, null);
    if (nullLiteral != null && nullLiteral.isEmpty()) {
      nullLiteral = null; // same as the default: null is an empty field
    }

    if (quote == delimiter) {
      throw o.conflict("quote character and field delimiter are both '" + (char) quote + "'");
    }
    if (escape >= 0 && escape == delimiter) {
      throw o.conflict("escape character and field delimiter are both '" + (char) escape + "'");
    }
    if (escape >= 0 && escape == quote) {
      // A doubled quote already escapes a quote; treat this the same way.
      escape = -1;
    }
    if (nullLiteral != null) {
      for (char c : nullLiteral.toCharArray()) {
        if (c == delimiter || c == quote || c == escape || c == '\n' || c == '\r') {
          throw o.fail(
              NULL_LITERAL,
              nullLiteral,
              "a string without the delimiter, quote, escape character or line breaks");
        }
      }
    }
    TextCharset charset = TextCharset.forOption(o, CHARSET);
    checkSafe(o, charset, FIELD_DELIMITER, delimiter);
    checkSafe(o, charset, QUOTE_CHARACTER, quote);
    checkSafe(o, charset, ESCAPE_CHARACTER, escape);
    if (allowComments) {
      checkSafe(o, charset, ALLOW_COMMENTS, '#');
    }
    return new CsvFormat(
        delimiter, quote, escape, allowComments, ignoreParseErrors, nullLiteral, charset);
  }

  /**
   * The parser looks for {@code c} in raw bytes: it must never be part of a multi-byte character.
   */
  private static void checkSafe(FormatOptions o, TextCharset charset, String key, int c) {
    if (c >= 0 && !charset.isSafe(c)) {
      throw o.conflict(
          String.format(
              "'%s' uses '%c' (0x%02X), a byte that also occurs inside multi-byte characters of"
                  + " 'csv.charset' = '%s', so records could not be cut reliably; choose a character"
                  + " below 0x40 such as ',' ';' '\\t' or '\"'",
              o.fullKey(key), (char) c, c, charset));
    }
  }

  @Override
  public String name() {
    return "csv";
  }

  @Override
  public String extension() {
    return ".csv";
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    if (!charset.isUtf8()) {
      throw new IOException(
          "'csv.charset' = '"
              + charset
              + "' applies to reading only; FileTables writes CSV as UTF-8"
              + " (remove the option from the sink table)");
    }
    return new CsvRowWriter(this, out, fileSchema);
  }

  /**
   * Scans the file once, tracking quotes (records may hold line breaks inside quotes), and cuts a
   * range at the first record start at least {@code targetRangeSize} bytes after the previous cut.
   */
  @Override
  public List<ByteRange> split(SeekableByteChannel file, long fileSize, long targetRangeSize)
      throws IOException {
    long target = Math.max(1, targetRangeSize);
    if (fileSize <= target) {
      return List.of(ByteRange.of(0, fileSize));
    }
    RangeByteInput in = new RangeByteInput(file, 0, fileSize, IO_BUFFER_SIZE);
    if (charset.isUtf8()) {
      in.skipUtf8Bom();
    }
    CsvRecordParser parser = newParser(in, false);
    List<ByteRange> ranges = new ArrayList<>();
    long rangeStart = 0;
    boolean rangeHasRecord = false;
    while (parser.next(fileSize)) {
      long recordStart = parser.recordStart();
      if (rangeHasRecord && recordStart - rangeStart >= target) {
        ranges.add(ByteRange.of(rangeStart, recordStart));
        rangeStart = recordStart;
      }
      rangeHasRecord = true;
    }
    ranges.add(ByteRange.of(rangeStart, fileSize));
    return ranges;
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema)
      throws IOException {
    return new CsvRowReader(this, file, fileSize, range, fileSchema);
  }

  CsvRecordParser newParser(RangeByteInput in, boolean store) {
    return new CsvRecordParser(in, delimiter, quote, escape, allowComments, store);
  }

  @Override
  public String toString() {
    return "csv(delimiter="
        + printable(delimiter)
        + ", quote="
        + printable(quote)
        + ", escape="
        + printable(escape)
        + ", allowComments="
        + allowComments
        + ", ignoreParseErrors="
        + ignoreParseErrors
        + ", nullLiteral="
        + nullLiteral
        + ", charset="
        + charset
        + ")";
  }

  private static String printable(int c) {
    if (c < 0) {
      return "none";
    }
    return c < 0x20 ? String.format("\\u%04x", c) : "'" + (char) c + "'";
  }
}
