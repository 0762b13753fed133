package dev.filetables.io.files.store;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Writes an object: the bytes go to a local spool file and are uploaded when the stream is closed,
 * with one PutObject (a multipart upload only above {@link #SINGLE_PUT_LIMIT}). The object appears
 * whole at close, or not at all.
 *
 * <p>Why spool to disk rather than upload parts from memory (Beam's way, 64 MiB per open file): a
 * streaming sink keeps one file open per partition it writes, and hundreds of open partitions would
 * hold gigabytes of heap. On disk they cost what they hold. A crash leaves no incomplete upload
 * behind (at most a spool file in the temporary directory).
 */
final class S3Upload extends OutputStream {
  /** S3 takes up to 5 GiB in one PUT; above, the upload goes in parts. */
  static final long SINGLE_PUT_LIMIT = 5L << 30;

  private static final long PART_SIZE = 256L << 20;

  private final S3Client client;
  private final StorePath path;
  private final String bucket;
  private final String key;
  private final Path spool;
  private final OutputStream out;
  private boolean closed;

  S3Upload(S3Client client, StorePath path, String bucket, String key) throws IOException {
    this.client = client;
    this.path = path;
    this.bucket = bucket;
    this.key = key;
    this.spool = Files.createTempFile("filetables-s3-upload-", ".spool");
    this.out = new BufferedOutputStream(Files.newOutputStream(spool), 64 * 1024);
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      long size = Files.size(spool);
      if (size <= SINGLE_PUT_LIMIT) {
        S3Store.call(
            path,
            () -> client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(spool)));
      } else {
        uploadInParts(size);
      }
    } finally {
      Files.deleteIfExists(spool);
    }
  }

  private void uploadInParts(long size) throws IOException {
    String uploadId =
        S3Store.call(path, () -> client.createMultipartUpload(b -> b.bucket(bucket).key(key)))
            .uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>();
      try (InputStream in = Files.newInputStream(spool)) {
        for (long offset = 0; offset < size; offset += PART_SIZE) {
          int number = parts.size() + 1;
          long length = Math.min(PART_SIZE, size - offset);
          RequestBody body = RequestBody.fromInputStream(in, length);
          String etag =
              S3Store.call(
                      path,
                      () ->
                          client.uploadPart(
                              b ->
                                  b.bucket(bucket)
                                      .key(key)
                                      .uploadId(uploadId)
                                      .partNumber(number)
                                      .contentLength(length),
                              body))
                  .eTag();
          parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        }
      }
      S3Store.call(
          path,
          () ->
              client.completeMultipartUpload(
                  b ->
                      b.bucket(bucket)
                          .key(key)
                          .uploadId(uploadId)
                          .multipartUpload(m -> m.parts(parts))));
    } catch (IOException | RuntimeException e) {
      try {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } catch (RuntimeException abort) {
        e.addSuppressed(abort);
      }
      throw e;
    }
  }
}
