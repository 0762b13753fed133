package dev.filetables.benchmarks;

import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Candidate (b), what Flink's S3 FileSink does: a multipart upload at the final key, its parts sent
 * before the checkpoint and CompleteMultipartUpload at the commit. An open upload is invisible to
 * HEAD and listings, so no hidden name is needed and nothing is copied.
 */
final class MultipartCompleteCommit implements S3CommitProtocol {
  private final S3Client s3;
  private final String bucket;
  private final int partSize;

  MultipartCompleteCommit(S3Client s3, String bucket, int partSize) {
    this.s3 = s3;
    this.bucket = bucket;
    this.partSize = partSize;
  }

  @Override
  public String label() {
    return "(b) complete at commit";
  }

  @Override
  public boolean appliesTo(long size) {
    return true;
  }

  @Override
  public Staged stage(String finalKey, byte[] data) {
    String uploadId = MultipartUploads.create(s3, bucket, finalKey);
    List<CompletedPart> parts =
        MultipartUploads.uploadParts(s3, bucket, finalKey, uploadId, data, partSize);
    return new Staged(finalKey, finalKey, uploadId, parts);
  }

  @Override
  public long commit(Staged staged) {
    MultipartUploads.complete(s3, bucket, staged.finalKey(), staged.uploadId(), staged.parts());
    return 0;
  }

  @Override
  public boolean stageInterrupted(String finalKey, byte[] data) {
    String uploadId = MultipartUploads.create(s3, bucket, finalKey);
    MultipartUploads.uploadParts(s3, bucket, finalKey, uploadId, data, partSize, 1);
    return true;
  }

  @Override
  public boolean commitInterrupted(Staged staged) {
    return false;
  }
}
