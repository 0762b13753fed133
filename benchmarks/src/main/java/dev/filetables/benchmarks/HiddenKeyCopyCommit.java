package dev.filetables.benchmarks;

import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Candidate (a): upload to a hidden key {@code dir/.part-x.inprogress}, and at the commit copy it
 * server-side to {@code dir/part-x} and delete it, as Beam's S3 rename does (HeadObject,
 * CopyObject, DeleteObject). The upload is either a multipart upload whatever the size, as Beam's
 * S3 channel writes every file, or (a') a single PutObject for a file of at most one part.
 */
final class HiddenKeyCopyCommit implements S3CommitProtocol {
  private final S3Client s3;
  private final String bucket;
  private final int partSize;
  private final boolean singlePut;

  private HiddenKeyCopyCommit(S3Client s3, String bucket, int partSize, boolean singlePut) {
    this.s3 = s3;
    this.bucket = bucket;
    this.partSize = partSize;
    this.singlePut = singlePut;
  }

  /** (a): multipart upload of every file, as Beam's S3 file system writes. */
  static HiddenKeyCopyCommit multipartUpload(S3Client s3, String bucket, int partSize) {
    return new HiddenKeyCopyCommit(s3, bucket, partSize, false);
  }

  /** (a'): one PutObject for a file of at most one part; larger files as (a). */
  static HiddenKeyCopyCommit singlePut(S3Client s3, String bucket, int partSize) {
    return new HiddenKeyCopyCommit(s3, bucket, partSize, true);
  }

  /** {@code dir/part-x} → {@code dir/.part-x.inprogress}: readers skip names starting with '.'. */
  static String hiddenKey(String finalKey) {
    int slash = finalKey.lastIndexOf('/');
    return finalKey.substring(0, slash + 1) + "." + finalKey.substring(slash + 1) + ".inprogress";
  }

  @Override
  public String label() {
    return singlePut ? "(a') PutObject + copy" : "(a) multipart + copy";
  }

  @Override
  public boolean appliesTo(long size) {
    // above one part, (a') uploads as (a) does
    return !singlePut || size <= partSize;
  }

  @Override
  public Staged stage(String finalKey, byte[] data) {
    String hidden = hiddenKey(finalKey);
    if (putsWhole(data)) {
      s3.putObject(b -> b.bucket(bucket).key(hidden), MultipartUploads.body(data, 0, data.length));
    } else {
      String uploadId = MultipartUploads.create(s3, bucket, hidden);
      MultipartUploads.complete(
          s3,
          bucket,
          hidden,
          uploadId,
          MultipartUploads.uploadParts(s3, bucket, hidden, uploadId, data, partSize));
    }
    return new Staged(finalKey, hidden, null, List.of());
  }

  @Override
  public long commit(Staged staged) {
    long size = copy(staged);
    s3.deleteObject(b -> b.bucket(bucket).key(staged.uploadKey()));
    return size;
  }

  @Override
  public boolean stageInterrupted(String finalKey, byte[] data) {
    if (putsWhole(data)) {
      return false;
    }
    String hidden = hiddenKey(finalKey);
    String uploadId = MultipartUploads.create(s3, bucket, hidden);
    MultipartUploads.uploadParts(s3, bucket, hidden, uploadId, data, partSize, 1);
    return true;
  }

  @Override
  public boolean commitInterrupted(Staged staged) {
    copy(staged);
    return true;
  }

  private boolean putsWhole(byte[] data) {
    return singlePut && data.length <= partSize;
  }

  /** HeadObject (Beam's rename asks the size to choose between copy and multipart copy), copy. */
  private long copy(Staged staged) {
    long size = s3.headObject(b -> b.bucket(bucket).key(staged.uploadKey())).contentLength();
    s3.copyObject(
        b ->
            b.sourceBucket(bucket)
                .sourceKey(staged.uploadKey())
                .destinationBucket(bucket)
                .destinationKey(staged.finalKey()));
    return size;
  }
}
