package dev.filetables.io.files.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A seekable channel that reads a store's file of known size: the position is only a number until
 * the next read ({@link #readAt}), so a seek costs nothing until data is needed.
 */
abstract class ReadOnlyChannel implements SeekableByteChannel {
  private final long size;
  private long position;
  private boolean open = true;

  ReadOnlyChannel(long size) {
    this.size = size;
  }

  /** Reads up to {@code length} bytes at {@code position} into {@code buffer}; -1 at the end. */
  abstract int readAt(long position, byte[] buffer, int length) throws IOException;

  /** Releases the store's stream. */
  abstract void release() throws IOException;

  @Override
  public final int read(ByteBuffer dst) throws IOException {
    checkOpen();
    if (position >= size) {
      return -1;
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    byte[] buffer = new byte[(int) Math.min(dst.remaining(), Math.min(size - position, 64 * 1024))];
    int n = readAt(position, buffer, buffer.length);
    if (n < 0) {
      throw new IOException("the file ended at " + position + " of its " + size + " bytes");
    }
    dst.put(buffer, 0, n);
    position += n;
    return n;
  }

  @Override
  public final long position() throws IOException {
    checkOpen();
    return position;
  }

  @Override
  public final SeekableByteChannel position(long newPosition) throws IOException {
    checkOpen();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition; // at or past the end, reads return -1
    return this;
  }

  @Override
  public final long size() throws IOException {
    checkOpen();
    return size;
  }

  @Override
  public final int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public final SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public final boolean isOpen() {
    return open;
  }

  @Override
  public final void close() throws IOException {
    if (open) {
      open = false;
      release();
    }
  }

  private void checkOpen() throws ClosedChannelException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }
}
