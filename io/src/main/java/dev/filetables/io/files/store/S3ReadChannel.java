package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Reads an object with ranged GETs: one open stream from the current position, opened again only
 * after a seek (Parquet reads the footer first, then the column chunks in order).
 */
final class S3ReadChannel extends ReadOnlyChannel {
  /** A forward seek up to this far reads through the open stream instead of a new request. */
  private static final long SKIP_LIMIT = 1 << 20;

  private final S3Client client;
  private final StorePath path;
  private final String bucket;
  private final String key;
  private ResponseInputStream<GetObjectResponse> stream;
  private long streamPosition;

  S3ReadChannel(S3Client client, StorePath path, String bucket, String key, long size) {
    super(size);
    this.client = client;
    this.path = path;
    this.bucket = bucket;
    this.key = key;
  }

  @Override
  int readAt(long position, byte[] buffer, int length) throws IOException {
    InputStream in = streamAt(position);
    int n = in.read(buffer, 0, length);
    if (n > 0) {
      streamPosition += n;
    }
    return n;
  }

  private InputStream streamAt(long position) throws IOException {
    if (stream != null && position >= streamPosition && position - streamPosition <= SKIP_LIMIT) {
      stream.skipNBytes(position - streamPosition);
      streamPosition = position;
      return stream;
    }
    release();
    stream =
        S3Store.call(
            path,
            () ->
                client.getObject(b -> b.bucket(bucket).key(key).range("bytes=" + position + "-")));
    streamPosition = position;
    return stream;
  }

  @Override
  void release() throws IOException {
    if (stream != null) {
      // Abort rather than drain: the rest of the object is not needed.
      stream.abort();
      stream.close();
      stream = null;
    }
  }
}
