package dev.filetables.benchmarks;

import dev.filetables.benchmarks.S3RequestCounter.Counts;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Stops a commit protocol where a crash would, then finds what it left as a recovery would ({@link
 * S3Leftovers}: one ListObjectsV2 and one ListMultipartUploads request per 1,000 keys or uploads of
 * the prefix), cleans it counting the requests, and checks that nothing is left.
 */
final class S3CrashProbe {
  /** Where the writer stops. */
  enum Point {
    DURING_UPLOAD("crash during the upload"),
    AFTER_UPLOAD("crash after the upload, before the commit"),
    DURING_COMMIT("crash inside the commit (after the copy or complete, before the delete)");

    final String description;

    Point(String description) {
      this.description = description;
    }
  }

  /** What was left and what removed it, for the table. */
  record Outcome(String left, String cleanedBy) {}

  private final S3Client s3;
  private final String bucket;
  private final S3RequestCounter counter;

  S3CrashProbe(S3Client s3, String bucket, S3RequestCounter counter) {
    this.s3 = s3;
    this.bucket = bucket;
    this.counter = counter;
  }

  /** Runs {@code protocol} on {@code data} under {@code prefix} until {@code point}. */
  Outcome probe(S3CommitProtocol protocol, Point point, String prefix, byte[] data) {
    String key = prefix + "part-0.bin";
    boolean crashed =
        switch (point) {
          case DURING_UPLOAD -> protocol.stageInterrupted(key, data);
          case AFTER_UPLOAD -> {
            protocol.stage(key, data);
            yield true;
          }
          case DURING_COMMIT -> protocol.commitInterrupted(protocol.stage(key, data));
        };
    if (!crashed) {
      S3Leftovers.scan(s3, bucket, prefix).clean(s3, bucket); // what the stage left
      return point == Point.DURING_UPLOAD
          ? new Outcome("nothing (one PutObject lands whole or not at all)", "—")
          : new Outcome("— (the commit is one request: done or not)", "—");
    }
    S3Leftovers found = S3Leftovers.scan(s3, bucket, prefix);
    long uploadBytes = found.uploadBytes(s3, bucket);
    Counts before = counter.snapshot();
    found.clean(s3, bucket);
    Counts clean = counter.snapshot().minus(before);
    S3Leftovers after = S3Leftovers.scan(s3, bucket, prefix);
    if (!after.nothingToClean()) {
      throw new IllegalStateException("cleaning left " + after + " under " + prefix);
    }
    for (S3Object object : after.visible()) {
      s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
    }
    return new Outcome(
        describe(found, uploadBytes),
        clean.total() == 0 ? "nothing to clean" : S3CommitProtocolBenchmark.requests(clean, 1));
  }

  /**
   * A recovery that replays the commit from the checkpoint: after a crash inside the commit ({@code
   * interrupted}), or after a commit that succeeded but whose success was not recorded. Says what
   * the replay does: its requests and copies, or the error it gets.
   */
  String replay(S3CommitProtocol protocol, boolean interrupted, String prefix, byte[] data) {
    S3CommitProtocol.Staged staged = protocol.stage(prefix + "part-0.bin", data);
    String result;
    if (interrupted && !protocol.commitInterrupted(staged)) {
      result = "— (the commit is one request: done or not)";
    } else {
      if (!interrupted) {
        protocol.commit(staged);
      }
      result = replayCommit(protocol, staged);
    }
    S3Leftovers left = S3Leftovers.scan(s3, bucket, prefix);
    left.clean(s3, bucket);
    for (S3Object object : left.visible()) {
      s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
    }
    return result;
  }

  private String replayCommit(S3CommitProtocol protocol, S3CommitProtocol.Staged staged) {
    Counts before = counter.snapshot();
    try {
      long copied = protocol.commit(staged);
      return "succeeds again: "
          + S3CommitProtocolBenchmark.requests(counter.snapshot().minus(before), 1)
          + (copied > 0 ? ", copies " + S3CommitProtocolBenchmark.size(copied) + " again" : "");
    } catch (UncheckedIOException e) {
      return "fails: " + e.getCause().getMessage();
    } catch (S3Exception e) {
      Counts sent = counter.snapshot().minus(before);
      String failed = sent.requests().keySet().stream().reduce((x, y) -> y).orElse("?");
      return "fails: "
          + failed
          + " answers "
          + e.statusCode()
          + (e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
              ? ""
              : " " + e.awsErrorDetails().errorCode())
          + "; the recovery must look at the final key";
    }
  }

  private static String describe(S3Leftovers found, long uploadBytes) {
    List<String> parts = new ArrayList<>();
    if (!found.visible().isEmpty()) {
      parts.add(found.visible().size() + " visible object (complete)");
    }
    if (!found.hidden().isEmpty()) {
      parts.add(
          found.hidden().size()
              + " hidden object ("
              + S3CommitProtocolBenchmark.size(found.hiddenBytes())
              + ", found by ListObjectsV2)");
    }
    if (!found.uploads().isEmpty()) {
      parts.add(
          found.uploads().size()
              + " open upload ("
              + S3CommitProtocolBenchmark.size(uploadBytes)
              + " of parts, found by ListMultipartUploads only)");
    }
    return parts.isEmpty() ? "nothing" : String.join(" + ", parts);
  }
}
