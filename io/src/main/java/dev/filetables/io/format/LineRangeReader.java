package dev.filetables.io.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the '\n'-terminated lines of one byte range of a file, for line formats whose records never
 * contain a raw '\n' (JSON lines) and for tools that handle such lines raw (e.g. dirty-data
 * handling).
 *
 * <p>Ownership rule: a line belongs to the range holding its first byte. A reader of {@code [start,
 * end)} with {@code start > 0} therefore skips everything up to and including the first '\n' at or
 * after {@code start - 1}, and returns every line that starts before {@code end}, reading past
 * {@code end} (up to {@code fileSize}) to finish the last one. Ranges that tile a file thus return
 * every line exactly once, wherever the boundaries fall.
 *
 * <p>Lines are returned without their terminator; a '\r' before the '\n' (CRLF) and a final line
 * without terminator are handled. A UTF-8 byte order mark at the start of the file is skipped
 * unless the text is in another charset (it still counts as part of the first line for ownership).
 * Lines longer than the buffer grow it.
 *
 * <p>The line bytes are {@code buffer()[lineOffset() .. lineOffset() + lineLength())}, valid until
 * the next call of {@link #next()}. The channel is positioned by this reader before each read and
 * never closed by it. Not thread-safe.
 */
final class LineRangeReader {
  static final int DEFAULT_BUFFER_SIZE = 64 * 1024;

  private final SeekableByteChannel file;
  private final long fileSize;
  private final ByteRange range;

  private byte[] buf;
  private long bufStart; // file offset of buf[0]
  private int pos; // next unread byte
  private int lim; // end of valid bytes
  private boolean eof;

  private int lineOffset;
  private int lineLength;
  private long lineStart = -1;
  private long lineNumber;

  /** Until the first line is returned in a range starting at 0: it is owned from offset 0 (BOM). */
  private boolean firstLineOfFile;

  LineRangeReader(SeekableByteChannel file, long fileSize, ByteRange range) throws IOException {
    this(file, fileSize, range, DEFAULT_BUFFER_SIZE);
  }

  LineRangeReader(SeekableByteChannel file, long fileSize, ByteRange range, int bufferSize)
      throws IOException {
    this(file, fileSize, range, bufferSize, true);
  }

  /**
   * @param skipUtf8Bom whether a UTF-8 byte order mark at the file start is skipped (only for UTF-8
   *     text: in another charset those bytes are data, and undecodable there)
   */
  LineRangeReader(
      SeekableByteChannel file, long fileSize, ByteRange range, int bufferSize, boolean skipUtf8Bom)
      throws IOException {
    this.file = file;
    this.fileSize = fileSize;
    this.range = range;
    this.buf = new byte[Math.max(16, bufferSize)];
    if (range.start() == 0) {
      bufStart = 0;
      firstLineOfFile = true;
      while (lim < 3 && readMore()) {}
      if (skipUtf8Bom
          && lim >= 3
          && (buf[0] & 0xff) == 0xEF
          && (buf[1] & 0xff) == 0xBB
          && (buf[2] & 0xff) == 0xBF) {
        pos = 3;
      }
    } else {
      bufStart = Math.min(range.start() - 1, fileSize);
      skipPastNewline();
    }
  }

  private void skipPastNewline() throws IOException {
    for (; ; ) {
      for (int i = pos; i < lim; i++) {
        if (buf[i] == '\n') {
          pos = i + 1;
          return;
        }
      }
      pos = lim;
      if (!readMore()) {
        return;
      }
    }
  }

  /** Advances to the next line of the range; false when there is none. */
  boolean next() throws IOException {
    long start = bufStart + pos;
    long owner = firstLineOfFile ? 0 : start;
    if (owner >= range.end() || start >= fileSize) {
      return false;
    }
    int scan = pos;
    int newline = -1;
    for (; ; ) {
      byte[] b = buf;
      int l = lim;
      for (int i = scan; i < l; i++) {
        if (b[i] == '\n') {
          newline = i;
          break;
        }
      }
      if (newline >= 0) {
        break;
      }
      int before = pos;
      scan = lim;
      if (!readMore()) {
        break;
      }
      scan -= before - pos; // readMore may have moved the unread bytes to the buffer start
    }
    if (newline < 0 && pos == lim) {
      return false; // file shorter than fileSize
    }
    int endOfLine = newline >= 0 ? newline : lim;
    lineOffset = pos;
    lineLength = endOfLine - pos;
    if (lineLength > 0 && buf[endOfLine - 1] == '\r') {
      lineLength--;
    }
    lineStart = bufStart + pos;
    pos = newline >= 0 ? newline + 1 : lim;
    lineNumber++;
    firstLineOfFile = false;
    return true;
  }

  /**
   * Reads more bytes into the buffer, first moving unread bytes to its start (or growing it when it
   * is full of unread bytes). False at the end of the file.
   */
  private boolean readMore() throws IOException {
    if (eof) {
      return false;
    }
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, lim - pos);
      bufStart += pos;
      lim -= pos;
      pos = 0;
    }
    if (lim == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    }
    long readFrom = bufStart + lim;
    long remaining = fileSize - readFrom;
    if (remaining <= 0) {
      eof = true;
      return false;
    }
    ByteBuffer target = ByteBuffer.wrap(buf, lim, (int) Math.min(buf.length - lim, remaining));
    file.position(readFrom);
    int n;
    do {
      n = file.read(target);
    } while (n == 0);
    if (n < 0) {
      eof = true;
      return false;
    }
    lim += n;
    return true;
  }

  /** The buffer holding the current line. */
  byte[] buffer() {
    return buf;
  }

  /** Index of the current line's first byte in {@link #buffer()}. */
  int lineOffset() {
    return lineOffset;
  }

  /** Length of the current line without '\n' or "\r\n". */
  int lineLength() {
    return lineLength;
  }

  /** File offset of the current line's first byte. */
  long lineStart() {
    return lineStart;
  }

  /**
   * 1-based number of the current line within the range (of the file when the range starts at 0).
   */
  long lineNumber() {
    return lineNumber;
  }

  /** The current line decoded as UTF-8 (undecodable bytes become U+FFFD: for messages). */
  String lineText() {
    return lineText(StandardCharsets.UTF_8);
  }

  /**
   * The current line decoded in {@code charset} (undecodable bytes become U+FFFD: for messages).
   */
  String lineText(java.nio.charset.Charset charset) {
    return new String(buf, lineOffset, lineLength, charset);
  }

  /** A copy of the current line's bytes (without the line end). */
  byte[] lineBytes() {
    return Arrays.copyOfRange(buf, lineOffset, lineOffset + lineLength);
  }

  /**
   * Where the current line is, for messages: {@code line 17} when the range starts at the file
   * start, else {@code line at byte offset 1234} (earlier ranges' line counts are unknown).
   */
  String position() {
    return describe(range.start() == 0, lineNumber, lineStart);
  }

  static String describe(boolean fromFileStart, long lineNumber, long byteOffset) {
    return fromFileStart ? "line " + lineNumber : "line at byte offset " + byteOffset;
  }
}
