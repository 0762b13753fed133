package dev.filetables.transforms.commit;

import dev.filetables.io.partition.time.PartitionTimeException;
import dev.filetables.io.partition.time.PartitionTimes;
import java.time.Instant;
import java.util.Optional;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.joda.time.Duration;

/**
 * {@code partition-time}: a partition is due once the watermark is past its time (in the watermark
 * time zone, from the partition time extractor) plus the delay. The first file arms the event-time
 * timer {@code watermarkPassed} at that threshold. A Beam timer fires once the watermark is
 * strictly past its timestamp (the Flink runner adds the millisecond Flink's own timers lack),
 * which is exactly the spec's rule {@code watermark > partition time + delay}. A partition whose
 * time cannot be extracted is reported once (path, pattern, formatter), counted and parked: it
 * blocks no other partition (they are other keys) and is committed at the end of the input.
 */
final class PartitionTimeTrigger implements CommitTrigger {
  static final String NAME = "partition-time";

  /** Late files of one publish arrive together: commit them together. */
  static final Duration LATE_BATCHING = Duration.standardSeconds(1);

  private static final Counter TIME_ERRORS =
      CommitMetrics.counter(CommitMetrics.PARTITION_TIME_ERRORS);

  /** Reads partition times; holds the watermark time zone and the delay. */
  private final PartitionCommitter committer;

  PartitionTimeTrigger(PartitionCommitter committer) {
    this.committer = committer;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The instant the watermark must pass: partition time in the watermark time zone + delay; a
   * {@link PartitionTimeException} naming the partition and the extractor when it cannot be read.
   */
  Instant threshold(String partitionPath) {
    return PartitionTimes.toInstant(committer.partitionTime(partitionPath), committer.zone())
        .plus(committer.delay());
  }

  @Override
  public void onFile(
      String path, boolean newRound, TriggerState state, Timer watermarkPassed, Timer commitNow) {
    if (state.timeError() != null) {
      return; // parked: committed at the end of input only
    }
    if (state.isDue()) {
      if (newRound) {
        commitNow.offset(LATE_BATCHING).setRelative(); // the watermark passed before: late data
      }
      return;
    }
    if (state.threshold().isPresent()) {
      return; // armed by an earlier file
    }
    Instant threshold;
    try {
      threshold = threshold(path);
    } catch (RuntimeException e) {
      state.setTimeError(e.getMessage());
      TIME_ERRORS.inc();
      PartitionCommitFn.LOG.error(
          "{} — the partition is not committed by partition time (other partitions are); it is"
              + " committed at the end of the input",
          e.getMessage());
      return;
    }
    state.setThreshold(threshold);
    // Beam's event times are joda instants
    watermarkPassed.set(BoundedWindow.TIMESTAMP_MIN_VALUE.withMillis(eventTime(threshold)));
  }

  /** Only once the watermark has passed: a {@code commitNow} firing before that is stale. */
  @Override
  public boolean mayCommitNow(TriggerState state) {
    return state.isDue();
  }

  @Override
  public Optional<Instant> watermark(TriggerState state) {
    return state.threshold();
  }

  @Override
  public Optional<Instant> expectedCommit(Instant pendingSince, TriggerState state) {
    return state.threshold();
  }

  @Override
  public Optional<String> waitingFor(TriggerState state) {
    Optional<Instant> threshold = state.threshold();
    if (state.isDue() || threshold.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "the watermark has not passed "
            + threshold.get()
            + " yet (partition time in "
            + committer.zone()
            + " + delay "
            + committer.delay()
            + "); check the watermark of the input");
  }

  /** Records the threshold, the watermark its commit reports; an unreadable time is no error. */
  @Override
  public void atEndOfInput(String path, TriggerState state) {
    if (state.threshold().isPresent()) {
      return;
    }
    try {
      state.setThreshold(threshold(path));
    } catch (RuntimeException e) {
      // reported with the commit's context (no partition time); committed all the same
    }
  }

  /** The millis of an event time a timer can be set to: Beam's range, within the global window. */
  private static long eventTime(Instant instant) {
    return Math.max(
        BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis(),
        Math.min(instant.toEpochMilli(), GlobalWindow.INSTANCE.maxTimestamp().getMillis()));
  }
}
