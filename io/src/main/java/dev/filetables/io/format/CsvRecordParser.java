package dev.filetables.io.format;

import java.io.IOException;
import java.util.Arrays;

/**
 * Cuts CSV bytes into records and fields (RFC 4180 with Flink's options). Both {@link
 * CsvFormat#split} and the CSV reader use this one state machine, so split boundaries are exactly
 * where the reader sees records start.
 *
 * <p>Rules: a field is quoted only when the quote character is its first byte; inside quotes a
 * doubled quote is one quote and line breaks are data; after the closing quote only a delimiter or
 * the record end may follow (anything else is an error, and the rest of the field is then read as
 * unquoted). A quote inside an unquoted field is data. The escape character, when set, makes the
 * next byte data in any field ({@code \n}, {@code \r}, {@code \t}, {@code \0} decode to control
 * characters). Records end with LF or CRLF; a lone CR is data. With comments allowed, a line
 * starting with '#' is skipped.
 *
 * <p>Field bytes (unescaped, without quotes) are collected in {@link #bytes()} when storing; the
 * splitter parses without storing. A record longer than {@link #MAX_RECORD_BYTES} is reported as an
 * error (typically an unbalanced quote) instead of exhausting memory; parsing still finds its end.
 */
final class CsvRecordParser {
  static final int MAX_RECORD_BYTES = 64 * 1024 * 1024;

  private final RangeByteInput in;
  private final int delimiter;
  private final int quote; // -1: quoting disabled
  private final int escape; // -1: no escape character
  private final boolean allowComments;
  private final boolean store;

  private byte[] bytes = new byte[1024];
  private int length;
  private boolean overflow;
  private int[] fieldStarts = new int[16];
  private int[] fieldEnds = new int[16];
  private boolean[] fieldQuoted = new boolean[16];
  private int fieldCount;

  private long line = 1; // line of the next byte, 1-based
  private long recordStart;
  private long recordLine;
  private String error;

  CsvRecordParser(
      RangeByteInput in,
      int delimiter,
      int quote,
      int escape,
      boolean allowComments,
      boolean store) {
    this.in = in;
    this.delimiter = delimiter;
    this.quote = quote;
    this.escape = escape;
    this.allowComments = allowComments;
    this.store = store;
  }

  /**
   * Parses the next record that starts before {@code end} (it may extend past it). False when there
   * is none.
   */
  boolean next(long end) throws IOException {
    for (; ; ) {
      if (in.position() >= end) {
        return false;
      }
      int first = in.peek();
      if (first < 0) {
        return false;
      }
      if (allowComments && first == '#') {
        skipLine();
        continue;
      }
      break;
    }
    recordStart = in.position();
    recordLine = line;
    error = null;
    length = 0;
    overflow = false;
    fieldCount = 0;
    parseRecord();
    return true;
  }

  private void skipLine() throws IOException {
    int b;
    do {
      b = in.read();
    } while (b >= 0 && b != '\n');
    line++;
  }

  private void parseRecord() throws IOException {
    final RangeByteInput in = this.in;
    for (; ; ) {
      int fieldStart = length;
      int b = in.read();
      boolean quoted = b == quote && quote >= 0;
      if (quoted) {
        b = readQuoted();
        // b is the byte after the closing quote
        if (b != delimiter && b != '\n' && b >= 0 && !isCrlf(b)) {
          fail("unexpected character '" + (char) b + "' after the closing quote");
          b = readUnquoted(b);
        }
      } else {
        b = readUnquoted(b);
      }
      addField(fieldStart, quoted);
      if (b != delimiter) {
        // '\n', CRLF (consumed by isCrlf) or end of file
        if (b == '\n' || b == '\r') {
          line++;
        }
        return;
      }
    }
  }

  /** Reads unquoted field bytes starting with {@code b}; returns the byte that ended the field. */
  private int readUnquoted(int b) throws IOException {
    final RangeByteInput in = this.in;
    for (; ; b = in.read()) {
      if (b == delimiter || b == '\n' || b < 0) {
        return b;
      }
      if (b == '\r') {
        int next = in.peek();
        if (next == '\n') {
          in.read();
          return '\r';
        }
        if (next < 0) {
          return -1; // a final CR without LF still ends the record
        }
        append(b);
      } else if (b == escape) {
        escaped();
      } else {
        append(b);
      }
    }
  }

  /** Reads a quoted field after its opening quote; returns the byte after the closing quote. */
  private int readQuoted() throws IOException {
    final RangeByteInput in = this.in;
    for (; ; ) {
      int b = in.read();
      if (b == quote) {
        if (in.peek() == quote) {
          in.read();
          append(b);
        } else {
          return in.read();
        }
      } else if (b < 0) {
        fail("unterminated quoted field (missing closing quote)");
        return -1;
      } else if (b == escape) {
        escaped();
      } else {
        if (b == '\n') {
          line++;
        }
        append(b);
      }
    }
  }

  /** True when {@code b} is a CR followed by LF; consumes the LF. */
  private boolean isCrlf(int b) throws IOException {
    if (b == '\r') {
      int next = in.peek();
      if (next == '\n') {
        in.read();
        return true;
      }
      return next < 0;
    }
    return false;
  }

  private void escaped() throws IOException {
    int b = in.read();
    switch (b) {
      case -1:
        fail("escape character at the end of the file");
        return;
      case 'n':
        append('\n');
        return;
      case 'r':
        append('\r');
        return;
      case 't':
        append('\t');
        return;
      case '0':
        append(0);
        return;
      case '\n':
        line++;
        append(b);
        return;
      default:
        append(b);
    }
  }

  private void append(int b) {
    if (!store) {
      return;
    }
    if (length == bytes.length) {
      if (length >= MAX_RECORD_BYTES) {
        if (!overflow) {
          overflow = true;
          fail("record longer than " + MAX_RECORD_BYTES + " bytes (unbalanced quote?)");
        }
        return;
      }
      bytes = Arrays.copyOf(bytes, Math.min(MAX_RECORD_BYTES, length * 2));
    }
    bytes[length++] = (byte) b;
  }

  private void addField(int start, boolean quoted) {
    if (fieldCount == fieldStarts.length) {
      int n = fieldCount * 2;
      fieldStarts = Arrays.copyOf(fieldStarts, n);
      fieldEnds = Arrays.copyOf(fieldEnds, n);
      fieldQuoted = Arrays.copyOf(fieldQuoted, n);
    }
    fieldStarts[fieldCount] = start;
    fieldEnds[fieldCount] = length;
    fieldQuoted[fieldCount] = quoted;
    fieldCount++;
  }

  private void fail(String message) {
    if (error == null) {
      error = message;
    }
  }

  /** The first problem found in the current record, or null. */
  String error() {
    return error;
  }

  long recordStart() {
    return recordStart;
  }

  /** 1-based line (of the input since its start offset) where the current record starts. */
  long recordLine() {
    return recordLine;
  }

  int fieldCount() {
    return fieldCount;
  }

  byte[] bytes() {
    return bytes;
  }

  int fieldStart(int i) {
    return fieldStarts[i];
  }

  int fieldEnd(int i) {
    return fieldEnds[i];
  }

  boolean fieldQuoted(int i) {
    return fieldQuoted[i];
  }

  /** True for a record that is an empty line. */
  boolean isEmptyLine() {
    return fieldCount == 1 && !fieldQuoted[0] && fieldEnds[0] == fieldStarts[0] && error == null;
  }
}
