package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Reads an object with ranged GETs: one open stream from the current position, opened again only
 * after a seek (Parquet reads the footer first, then the column chunks in order).
 */
final class S3ReadChannel implements SeekableByteChannel {
  /** A forward seek up to this far reads through the open stream instead of a new request. */
  private static final long SKIP_LIMIT = 1 << 20;

  private final S3Client client;
  private final StorePath path;
  private final String bucket;
  private final String key;
  private final long size;
  private ResponseInputStream<GetObjectResponse> stream;
  private long streamPosition;
  private long position;
  private boolean open = true;

  S3ReadChannel(S3Client client, StorePath path, String bucket, String key, long size) {
    this.client = client;
    this.path = path;
    this.bucket = bucket;
    this.key = key;
    this.size = size;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    checkOpen();
    if (position >= size) {
      return -1;
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    InputStream in = streamAtPosition();
    byte[] buffer = new byte[(int) Math.min(dst.remaining(), 64 * 1024)];
    int n = in.read(buffer, 0, (int) Math.min(buffer.length, size - position));
    if (n < 0) {
      throw new IOException(path + " ended at " + position + " of " + size + " bytes");
    }
    dst.put(buffer, 0, n);
    position += n;
    streamPosition += n;
    return n;
  }

  private InputStream streamAtPosition() throws IOException {
    if (stream != null && position >= streamPosition && position - streamPosition <= SKIP_LIMIT) {
      stream.skipNBytes(position - streamPosition);
      streamPosition = position;
      return stream;
    }
    closeStream();
    long from = position;
    stream =
        S3Store.call(
            path,
            () -> client.getObject(b -> b.bucket(bucket).key(key).range("bytes=" + from + "-")));
    streamPosition = position;
    return stream;
  }

  @Override
  public long position() throws IOException {
    checkOpen();
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) throws IOException {
    checkOpen();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long size() throws IOException {
    checkOpen();
    return size;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() throws IOException {
    open = false;
    closeStream();
  }

  private void closeStream() throws IOException {
    if (stream != null) {
      // Abort rather than drain: the rest of the object is not needed.
      stream.abort();
      stream.close();
      stream = null;
    }
  }

  private void checkOpen() throws ClosedChannelException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }
}
