package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/** The requests of one multipart upload of a spooled file to {@code bucket/key}. */
final class S3Multipart {
  /** S3's limit on the parts of one upload. */
  static final int MAX_PARTS = 10_000;

  /** S3's smallest part but the last. */
  static final long MIN_PART_SIZE = 5L << 20;

  private final S3Client client;
  private final StorePath path;
  private final String bucket;
  private final String key;

  S3Multipart(S3Client client, StorePath path, String bucket, String key) {
    this.client = client;
    this.path = path;
    this.bucket = bucket;
    this.key = key;
  }

  /**
   * The part size for a file of {@code size} bytes: {@code preferred}, or larger when that would
   * take more than {@link #MAX_PARTS} parts.
   */
  static long partSize(long size, long preferred) {
    long needed = (size + MAX_PARTS - 1) / MAX_PARTS;
    return Math.max(Math.max(preferred, MIN_PART_SIZE), needed);
  }

  String create() throws IOException {
    return S3Store.call(path, () -> client.createMultipartUpload(b -> b.bucket(bucket).key(key)))
        .uploadId();
  }

  /** Sends the spool file in parts of {@code partSize} (the last may be smaller; at least one). */
  List<CompletedPart> uploadParts(String uploadId, Path spool, long size, long partSize)
      throws IOException {
    List<CompletedPart> parts = new ArrayList<>();
    try (InputStream in = Files.newInputStream(spool)) {
      long offset = 0;
      do {
        int number = parts.size() + 1;
        long length = Math.min(partSize, size - offset);
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
        offset += length;
      } while (offset < size);
    }
    return parts;
  }

  /**
   * CompleteMultipartUpload; with {@code ifNoneMatch} the header {@code If-None-Match: *}, so an
   * existing object is never replaced (Beam's SDK version has no field for it). The SDK's failure
   * is thrown as is: the caller tells a replay from a conflict by its status.
   */
  void complete(String uploadId, List<CompletedPart> parts, boolean ifNoneMatch) {
    client.completeMultipartUpload(
        b -> {
          b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts));
          if (ifNoneMatch) {
            b.overrideConfiguration(o -> o.putHeader("If-None-Match", "*"));
          }
        });
  }

  /** AbortMultipartUpload; an upload that is gone already (404) is no error. */
  void abort(String uploadId) throws IOException {
    try {
      S3Store.call(
          path,
          () -> client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)));
    } catch (NoSuchFileException e) {
      // completed or aborted before
    }
  }

  /**
   * Aborts after a failure of the upload, keeping the failure as the one thrown; {@code uploadId}
   * null when the failure was in CreateMultipartUpload itself, whose upload the server may have
   * started without the answer arriving (an interrupt): then every open upload at the key is
   * aborted, which is right only where no other upload at the key can be live. Also when the
   * failure is the thread's interrupt (a cancelled task): the requests are sent with the interrupt
   * cleared and the interrupt restored after, or the upload would stay open with nothing naming it.
   */
  void abortAfter(String uploadId, Exception failure) {
    boolean interrupted = Thread.interrupted();
    try {
      if (uploadId != null) {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } else {
        for (MultipartUpload open :
            client.listMultipartUploads(b -> b.bucket(bucket).prefix(key)).uploads()) {
          if (open.key().equals(key)) {
            client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(open.uploadId()));
          }
        }
      }
    } catch (RuntimeException abort) {
      failure.addSuppressed(abort);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
