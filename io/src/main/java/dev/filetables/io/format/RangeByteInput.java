package dev.filetables.io.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * Buffered byte-at-a-time reading of a file from an offset up to {@code fileSize}, with the file
 * offset of the next byte always known. The channel is positioned before each read (so it may be
 * shared between sequential users) and never closed here.
 */
final class RangeByteInput {
  private final SeekableByteChannel file;
  private final long fileSize;
  private final byte[] buf;
  private final ByteBuffer target;
  private long bufStart;
  private int pos;
  private int lim;

  RangeByteInput(SeekableByteChannel file, long start, long fileSize, int bufferSize) {
    this.file = file;
    this.fileSize = fileSize;
    this.buf = new byte[bufferSize];
    this.target = ByteBuffer.wrap(buf);
    this.bufStart = start;
  }

  /** The next byte (0-255), or -1 at the end of the file. */
  int read() throws IOException {
    if (pos < lim || fill()) {
      return buf[pos++] & 0xff;
    }
    return -1;
  }

  /** The next byte without consuming it, or -1 at the end of the file. */
  int peek() throws IOException {
    if (pos < lim || fill()) {
      return buf[pos] & 0xff;
    }
    return -1;
  }

  /** File offset of the next byte. */
  long position() {
    return bufStart + pos;
  }

  /** Skips a UTF-8 byte order mark if one is next. */
  void skipUtf8Bom() throws IOException {
    if (peek() != 0xEF) {
      return;
    }
    // fill() reads whole buffers, so the 3 bytes are there if the file has them.
    if (lim - pos >= 3 && (buf[pos + 1] & 0xff) == 0xBB && (buf[pos + 2] & 0xff) == 0xBF) {
      pos += 3;
    }
  }

  private boolean fill() throws IOException {
    bufStart += lim;
    pos = 0;
    lim = 0;
    long remaining = fileSize - bufStart;
    if (remaining <= 0) {
      return false;
    }
    target.clear();
    target.limit((int) Math.min(buf.length, remaining));
    file.position(bufStart);
    // Fill the whole buffer when the channel returns short reads, so that small look-aheads (the
    // BOM)
    // never straddle a refill.
    while (target.hasRemaining() && file.read(target) >= 0) {}
    lim = target.position();
    return lim > 0;
  }
}
