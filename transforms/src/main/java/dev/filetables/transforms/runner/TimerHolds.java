package dev.filetables.transforms.runner;

import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.state.Timer;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Releases the watermark hold of a timer set with an output timestamp, on every runner.
 *
 * <p>{@code Timer.clear()} does not delete the timer on Beam 2.62's Flink runner: the runner files
 * a timer under "family+id" but {@code clear()} looks it up under the bare id, finds nothing and
 * leaves the timer, and with it its output-timestamp hold, in place until it fires. For a timer at
 * the end of the global window that is the end of the input. Setting a timer again does replace the
 * old one correctly (hold included), so a timer is released by setting it again without an output
 * timestamp, to fire soon, and then cleared: on runners where {@code clear()} works (Direct) the
 * timer is gone; on Flink the replacement fires once without a hold. The callbacks must therefore
 * treat a firing without pending work as a no-op.
 *
 * <p>A timer that must hold nothing (bookkeeping: forgetting state, reports) is set with {@code
 * withNoOutputTimestamp()}, never with an output timestamp at the end of the global window: that is
 * still a hold. Beam 2.62's Direct runner keeps a hold for every timer with an output timestamp,
 * processing-time ones included, until it fires or is deleted, and ends a job only when every
 * output watermark has reached {@code TIMESTAMP_MAX_VALUE}, a day after the end of the global
 * window; the partition commit's day-long {@code forget} timer held finite streaming jobs there,
 * every partition committed but the job never {@code DONE}.
 *
 * <p>Not part of the public API: shared by the sink's stateful steps.
 */
@Internal
public final class TimerHolds {
  private TimerHolds() {}

  /** Releases a processing-time timer: replaced by one due now without hold, then cleared. */
  public static void releaseProcessingTime(Timer timer) {
    timer.withNoOutputTimestamp().offset(Duration.ZERO).setRelative();
    timer.clear();
  }

  /**
   * Releases an event-time timer: replaced by one at {@code fireAt} without hold, then cleared.
   *
   * @param fireAt an event time the watermark passes soon (a timestamp of data already seen), so
   *     that on Flink the replacement does not stay in timer state until the end of the input
   */
  public static void releaseEventTime(Timer timer, Instant fireAt) {
    timer.withNoOutputTimestamp().set(fireAt);
    timer.clear();
  }
}
