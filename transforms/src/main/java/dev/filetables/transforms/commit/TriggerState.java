package dev.filetables.transforms.commit;

import java.time.Instant;
import java.util.Optional;
import org.apache.beam.sdk.state.ValueState;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The part of a partition's state in {@link PartitionCommitFn} that its {@link CommitTrigger}
 * keeps: the due flag, the commit threshold and the reason the partition's time cannot be read.
 * Kept after a commit (late data of a due partition is committed at once), until forgotten.
 */
final class TriggerState {
  private final ValueState<Boolean> due;
  private final ValueState<Long> threshold;
  private final ValueState<String> timeError;

  TriggerState(ValueState<Boolean> due, ValueState<Long> threshold, ValueState<String> timeError) {
    this.due = due;
    this.threshold = threshold;
    this.timeError = timeError;
  }

  /** True once the trigger said the partition is complete (watermark passed / delay elapsed). */
  boolean isDue() {
    return Boolean.TRUE.equals(due.read());
  }

  void markDue() {
    due.write(true);
  }

  /** partition-time: the instant the watermark must pass. */
  Optional<Instant> threshold() {
    Long millis = threshold.read();
    return millis == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
  }

  void setThreshold(Instant instant) {
    threshold.write(instant.toEpochMilli());
  }

  /** Why the partition's time cannot be extracted (set once, when reported). */
  @Nullable String timeError() {
    return timeError.read();
  }

  void setTimeError(String error) {
    timeError.write(error);
  }

  void clear() {
    due.clear();
    threshold.clear();
    timeError.clear();
  }
}
