package dev.filetables.transforms.sink.compact;

import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.WrittenFile;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The group a partition is collecting, kept in the publish step's keyed state until the {@link
 * GroupPolicy} seals it: its files (names, sizes and counts, never rows), their total size, their
 * smallest element timestamp and the processing time at which the group is sealed at the latest.
 * Two timers seal it: {@code delay} at that deadline, {@code end} at the end of the input; both
 * carry the smallest timestamp as output timestamp, so the step's output watermark stays at or
 * below the rows still pending. A view over the state cells and timers of one key, made per call.
 */
@Internal
public final class PendingGroup {
  private final GroupPolicy policy;
  private final BagState<WrittenFile> files;
  private final ValueState<Long> bytes;
  private final ValueState<Instant> hold;
  private final ValueState<Instant> deadline;
  private final Timer delay;
  private final Timer end;

  /**
   * @param hold the smallest element timestamp of the pending files: the timers' output timestamp
   * @param deadline the processing time at which the pending group is sealed at the latest
   * @param delay processing-time timer that fires at the deadline
   * @param end event-time timer at the end of the global window
   */
  public PendingGroup(
      GroupPolicy policy,
      BagState<WrittenFile> files,
      ValueState<Long> bytes,
      ValueState<Instant> hold,
      ValueState<Instant> deadline,
      Timer delay,
      Timer end) {
    this.policy = policy;
    this.files = files;
    this.bytes = bytes;
    this.hold = hold;
    this.deadline = deadline;
    this.delay = delay;
    this.end = end;
  }

  /**
   * Adds a file that arrived with element timestamp {@code timestamp} (in {@code @ProcessElement}:
   * the timers may be set to hold there). Returns the sealed group if the file completes it by size
   * (the pending state is then empty), else null.
   */
  public @Nullable List<WrittenFile> add(WrittenFile file, Instant timestamp) {
    Long before = bytes.read();
    long total = (before == null ? 0 : before) + file.sizeBytes();
    files.add(file);
    if (policy.isComplete(total)) {
      return drain();
    }
    bytes.write(total);
    Instant held = hold.read();
    if (held != null && !timestamp.isBefore(held)) {
      return null; // timers are set and already hold at or below this file's timestamp
    }
    // the first pending file, or one older than the hold: (re)arm both timers at this timestamp,
    // which is allowed here because it is the current element's own timestamp
    hold.write(timestamp);
    Instant due = deadline.read();
    if (due == null) {
      due = policy.deadline(delay.getCurrentRelativeTime());
      deadline.write(due);
    }
    delay.withOutputTimestamp(timestamp).set(due);
    end.withOutputTimestamp(timestamp).set(GlobalWindow.INSTANCE.maxTimestamp());
    return null;
  }

  /** The smallest element timestamp of the pending files, null if there are none. */
  public @Nullable Instant hold() {
    return hold.read();
  }

  /**
   * Takes every pending file out of the state (the group is sealed) and releases the timers. Empty
   * when nothing is pending: a released timer fired.
   */
  public List<WrittenFile> drain() {
    List<WrittenFile> group = new ArrayList<>();
    files.read().forEach(group::add);
    Instant held = hold.read();
    files.clear();
    bytes.clear();
    hold.clear();
    deadline.clear();
    if (held != null) {
      // the timers are armed and hold at `held`: not clear() alone, which keeps the hold on Flink
      // (see TimerHolds); their replacements fire with nothing pending and do nothing
      TimerHolds.releaseProcessingTime(delay);
      TimerHolds.releaseEventTime(end, held);
    }
    return group;
  }
}
