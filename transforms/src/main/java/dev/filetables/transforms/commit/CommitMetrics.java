package dev.filetables.transforms.commit;

import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * Beam metrics of partition commits, namespace {@value #NAMESPACE}; query them per step with {@code
 * MetricNameFilter.named(CommitMetrics.NAMESPACE, CommitMetrics.COMMITTED)}.
 */
@Internal
public final class CommitMetrics {
  private CommitMetrics() {}

  public static final String NAMESPACE = "filetables.partition-commit";

  /** Partitions with published files not committed yet (goes up and down). */
  public static final String PENDING = "partitionsPending";

  /** First commits of partitions. */
  public static final String COMMITTED = "partitionsCommitted";

  /** Commits again after late data. */
  public static final String RECOMMITTED = "partitionsRecommitted";

  /** Rows (and files) published into a partition after it was committed. */
  public static final String LATE_ROWS = "lateRows";

  public static final String LATE_FILES = "lateFiles";

  /** Commit time − partition time (in the watermark time zone) − delay, in milliseconds. */
  public static final String COMMIT_LAG_MILLIS = "commitLagMillis";

  /** Commits held back because in-progress files of the partition were not visible yet. */
  public static final String WAITS_FOR_FILES = "commitWaitsForFiles";

  /** Failed commit attempts (each is retried). */
  public static final String FAILURES = "commitFailures";

  /** Partitions whose time could not be extracted (counted once each). */
  public static final String PARTITION_TIME_ERRORS = "partitionTimeErrors";

  /** Overdue reports: a partition still pending after its expected commit time. */
  public static final String OVERDUE = "partitionsOverdue";

  static Counter counter(String name) {
    return Metrics.counter(NAMESPACE, name);
  }

  static Distribution distribution(String name) {
    return Metrics.distribution(NAMESPACE, name);
  }
}
