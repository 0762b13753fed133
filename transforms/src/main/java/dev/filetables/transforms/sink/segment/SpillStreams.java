package dev.filetables.transforms.sink.segment;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Buffered streams for spill segments without the per-byte locking of {@link
 * java.io.BufferedOutputStream} and {@link java.io.BufferedInputStream}: Beam's coders write and
 * read many single bytes (var-ints), and each locked call showed up as a third of the sink's CPU.
 * One writer or reader per thread, as everywhere in a DoFn.
 */
final class SpillStreams {
  private SpillStreams() {}

  /** Buffers writes to {@code out} and counts the bytes written. */
  static final class Output extends OutputStream {
    private final OutputStream out;
    private final byte[] buffer;
    private int pos;
    private long flushed;
    private boolean closed;

    Output(OutputStream out, int bufferBytes) {
      this.out = out;
      this.buffer = new byte[bufferBytes];
    }

    /** Bytes written so far, buffered ones included. */
    long count() {
      return flushed + pos;
    }

    @Override
    public void write(int b) throws IOException {
      if (pos == buffer.length) {
        drain();
      }
      buffer[pos++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > buffer.length - pos) {
        drain();
        if (len >= buffer.length) {
          out.write(b, off, len);
          flushed += len;
          return;
        }
      }
      System.arraycopy(b, off, buffer, pos, len);
      pos += len;
    }

    private void drain() throws IOException {
      if (pos > 0) {
        out.write(buffer, 0, pos);
        flushed += pos;
        pos = 0;
      }
    }

    @Override
    public void flush() throws IOException {
      drain();
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        try {
          drain();
        } finally {
          out.close();
        }
      }
    }
  }

  /** Buffers reads from {@code in}; {@link #hasMore} looks ahead without consuming. */
  static final class Input extends InputStream {
    private final InputStream in;
    private final byte[] buffer;
    private int pos;
    private int limit;

    Input(InputStream in, int bufferBytes) {
      this.in = in;
      this.buffer = new byte[bufferBytes];
    }

    boolean hasMore() throws IOException {
      return pos < limit || fill();
    }

    private boolean fill() throws IOException {
      int n = in.read(buffer, 0, buffer.length);
      while (n == 0) {
        n = in.read(buffer, 0, buffer.length);
      }
      pos = 0;
      limit = Math.max(n, 0);
      return n > 0;
    }

    @Override
    public int read() throws IOException {
      if (pos == limit && !fill()) {
        return -1;
      }
      return buffer[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (pos == limit) {
        if (len >= buffer.length) {
          return in.read(b, off, len);
        }
        if (!fill()) {
          return -1;
        }
      }
      int n = Math.min(len, limit - pos);
      System.arraycopy(buffer, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() throws IOException {
      return limit - pos;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
