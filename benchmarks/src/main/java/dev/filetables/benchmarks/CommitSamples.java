package dev.filetables.benchmarks;

import dev.filetables.benchmarks.S3RequestCounter.Counts;
import java.util.ArrayList;
import java.util.List;

/** What one commit protocol cost for the files of one size: sums and latencies per file. */
final class CommitSamples {
  private final List<Long> uploadNanos = new ArrayList<>();
  private final List<Long> commitNanos = new ArrayList<>();
  private final List<Long> totalNanos = new ArrayList<>();
  private Counts upload = Counts.NONE;
  private Counts commit = Counts.NONE;
  private long copiedBytes;
  private long serverUploadWrites;
  private long serverCommitWrites;

  /** One committed file; {@code serverWrites…} are -1 when the server's writes are not known. */
  void add(
      Counts upload,
      Counts commit,
      long copiedBytes,
      long serverUploadWrites,
      long serverCommitWrites,
      long uploadNanos,
      long commitNanos) {
    this.upload = this.upload.plus(upload);
    this.commit = this.commit.plus(commit);
    this.copiedBytes += copiedBytes;
    this.serverUploadWrites =
        serverUploadWrites < 0 || this.serverUploadWrites < 0
            ? -1
            : this.serverUploadWrites + serverUploadWrites;
    this.serverCommitWrites =
        serverCommitWrites < 0 || this.serverCommitWrites < 0
            ? -1
            : this.serverCommitWrites + serverCommitWrites;
    this.uploadNanos.add(uploadNanos);
    this.commitNanos.add(commitNanos);
    this.totalNanos.add(uploadNanos + commitNanos);
  }

  int files() {
    return totalNanos.size();
  }

  /** Requests of the upload (before the checkpoint), summed over the files. */
  Counts upload() {
    return upload;
  }

  /** Requests of the commit (at the checkpoint), summed over the files. */
  Counts commit() {
    return commit;
  }

  double copiedBytesPerFile() {
    return (double) copiedBytes / files();
  }

  /** Bytes the server wrote during the uploads, per file; negative when unknown. */
  double serverUploadWritesPerFile() {
    return serverUploadWrites < 0 ? -1 : (double) serverUploadWrites / files();
  }

  /** Bytes the server wrote during the commits, per file; negative when unknown. */
  double serverCommitWritesPerFile() {
    return serverCommitWrites < 0 ? -1 : (double) serverCommitWrites / files();
  }

  Latency commitLatency() {
    return Latency.of(commitNanos);
  }

  Latency totalLatency() {
    return Latency.of(totalNanos);
  }

  /** Median and maximum, in milliseconds. */
  record Latency(double medianMillis, double maxMillis) {
    static Latency of(List<Long> nanos) {
      List<Long> sorted = nanos.stream().sorted().toList();
      int n = sorted.size();
      double median =
          n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
      return new Latency(median / 1e6, sorted.get(n - 1) / 1e6);
    }

    @Override
    public String toString() {
      return String.format("%.1f ms (max %.1f)", medianMillis, maxMillis);
    }
  }
}
