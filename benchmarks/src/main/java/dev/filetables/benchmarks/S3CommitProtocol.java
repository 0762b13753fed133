package dev.filetables.benchmarks;

import java.util.List;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * One way to publish a file on S3, which has no atomic rename: {@link #stage} before the checkpoint
 * makes the bytes durable but invisible at the final key, {@link #commit} at the checkpoint makes
 * them visible there. The {@code interrupted} methods stop where a crash would, for the benchmark
 * to see what is left behind.
 */
interface S3CommitProtocol {
  /** For the benchmark's table, e.g. {@code (b) complete at commit}. */
  String label();

  /**
   * False when it would handle a file of {@code size} bytes exactly as another protocol of the
   * benchmark does ((a') above one part uploads as (a)), so the benchmark skips it there.
   */
  boolean appliesTo(long size);

  /** Uploads {@code data} for {@code finalKey} without making it visible there. */
  Staged stage(String finalKey, byte[] data);

  /** Makes a staged file visible at its final key; returns the bytes copied server-side. */
  long commit(Staged staged);

  /**
   * A crash during the upload: sends its first requests only (a multipart upload begun, its first
   * part sent). False when the upload is one request, which lands whole or not at all.
   */
  boolean stageInterrupted(String finalKey, byte[] data);

  /**
   * A crash inside the commit: sends all its requests but the last. False when the commit is one
   * request.
   */
  boolean commitInterrupted(Staged staged);

  /**
   * A file between stage and commit.
   *
   * @param uploadKey where the bytes went: a hidden key, or the final key of an open upload
   * @param uploadId the open multipart upload to complete at the commit, or null
   * @param parts that upload's parts
   */
  record Staged(String finalKey, String uploadKey, String uploadId, List<CompletedPart> parts) {}
}
