package dev.filetables.benchmarks;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/** The steps of an S3 multipart upload of bytes in memory, for the commit protocols. */
final class MultipartUploads {
  /** S3 refuses a part below this size unless it is the last. */
  static final long MIN_PART_SIZE = 5L << 20;

  private MultipartUploads() {}

  /** CreateMultipartUpload; returns the upload id. */
  static String create(S3Client s3, String bucket, String key) {
    return s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
  }

  /** UploadPart for each {@code partSize} slice of {@code data} (the last may be smaller). */
  static List<CompletedPart> uploadParts(
      S3Client s3, String bucket, String key, String uploadId, byte[] data, int partSize) {
    return uploadParts(s3, bucket, key, uploadId, data, partSize, Integer.MAX_VALUE);
  }

  /** The first {@code maxParts} parts only. */
  static List<CompletedPart> uploadParts(
      S3Client s3,
      String bucket,
      String key,
      String uploadId,
      byte[] data,
      int partSize,
      int maxParts) {
    List<CompletedPart> parts = new ArrayList<>();
    for (int offset = 0;
        (offset < data.length || parts.isEmpty()) && parts.size() < maxParts;
        offset += partSize) {
      int number = parts.size() + 1;
      int length = Math.min(partSize, data.length - offset);
      String etag =
          s3.uploadPart(
                  b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                  body(data, offset, length))
              .eTag();
      parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
    }
    return parts;
  }

  /** CompleteMultipartUpload: the object appears at {@code key}, whole. */
  static void complete(
      S3Client s3, String bucket, String key, String uploadId, List<CompletedPart> parts) {
    s3.completeMultipartUpload(
        b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(u -> u.parts(parts)));
  }

  /** A body over a slice of {@code data}, without copying it (the SDK may read it twice). */
  static RequestBody body(byte[] data, int offset, int length) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(data, offset, length), length, "application/octet-stream");
  }
}
