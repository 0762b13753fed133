package dev.filetables.transforms.sink.compact;

import dev.filetables.transforms.sink.TimerHolds;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Collects the closed hidden files of a partition (keyed by partition path) into compaction groups.
 * Only names, sizes and counts are kept in state, never rows. A group is emitted when
 *
 * <ul>
 *   <li>its files add up to at least the target size ({@code compaction.file-size}), or
 *   <li>its oldest file has waited {@code compaction.max-delay} (a processing-time timer, so a quiet
 *       partition does not wait forever), or
 *   <li>the input ends (an event-time timer at the end of the global window).
 * </ul>
 *
 * Files of several commit points end up in one group when they arrive within the delay. The timers
 * carry the smallest timestamp of the pending files as output timestamp, which holds this step's
 * output watermark there: a partition-time commit downstream cannot pass rows still waiting here.
 * A group is emitted at that timestamp (by a timer) or at the timestamp of the file that completed
 * it (by size); the state is cleared and the timers are released ({@link TimerHolds}: on Flink
 * {@code Timer.clear()} alone would keep the hold until the end of the input), so either timer may
 * fire with nothing pending and then emits nothing.
 */
final class GroupFilesFn extends DoFn<KV<String, WrittenFile>, List<WrittenFile>> {
  private static final long serialVersionUID = 1L;

  private static final String FILES = "files";
  private static final String BYTES = "bytes";
  private static final String HOLD = "hold";
  private static final String DEADLINE = "deadline";
  private static final String DELAY = "delay";
  private static final String END = "end";

  private final long targetSize;
  private final Duration maxDelay;

  @StateId(FILES)
  private final StateSpec<BagState<WrittenFile>> filesSpec = StateSpecs.bag(WrittenFileCoder.of());

  @StateId(BYTES)
  private final StateSpec<ValueState<Long>> bytesSpec = StateSpecs.value(VarLongCoder.of());

  /** The smallest element timestamp of the pending files: the output watermark hold. */
  @StateId(HOLD)
  private final StateSpec<ValueState<Instant>> holdSpec = StateSpecs.value(InstantCoder.of());

  /** Processing time at which the pending group is emitted at the latest. */
  @StateId(DEADLINE)
  private final StateSpec<ValueState<Instant>> deadlineSpec = StateSpecs.value(InstantCoder.of());

  @TimerId(DELAY)
  private final TimerSpec delaySpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId(END)
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  GroupFilesFn(long targetSize, java.time.Duration maxDelay) {
    this.targetSize = targetSize;
    this.maxDelay = Duration.millis(maxDelay.toMillis());
  }

  @ProcessElement
  public void processElement(
      @Element KV<String, WrittenFile> element,
      @Timestamp Instant timestamp,
      @StateId(FILES) BagState<WrittenFile> files,
      @StateId(BYTES) ValueState<Long> bytes,
      @StateId(HOLD) ValueState<Instant> hold,
      @StateId(DEADLINE) ValueState<Instant> deadline,
      @TimerId(DELAY) Timer delay,
      @TimerId(END) Timer end,
      OutputReceiver<List<WrittenFile>> out) {
    WrittenFile file = element.getValue();
    Long before = bytes.read();
    long total = (before == null ? 0 : before) + file.sizeBytes();
    files.add(file);
    if (total >= targetSize) {
      out.output(drain(files, bytes, hold, deadline, delay, end));
      return;
    }
    bytes.write(total);
    Instant held = hold.read();
    if (held != null && !timestamp.isBefore(held)) {
      return; // timers are set and already hold at or below this file's timestamp
    }
    // the first pending file, or one older than the hold: (re)arm both timers at this timestamp,
    // which is allowed here because it is the current element's own timestamp
    hold.write(timestamp);
    Instant due = deadline.read();
    if (due == null) {
      due = delay.getCurrentRelativeTime().plus(maxDelay);
      deadline.write(due);
    }
    delay.withOutputTimestamp(timestamp).set(due);
    end.withOutputTimestamp(timestamp).set(GlobalWindow.INSTANCE.maxTimestamp());
  }

  /** The oldest pending file has waited long enough (or the input ended and timers are drained). */
  @OnTimer(DELAY)
  public void onDelay(
      @StateId(FILES) BagState<WrittenFile> files,
      @StateId(BYTES) ValueState<Long> bytes,
      @StateId(HOLD) ValueState<Instant> hold,
      @StateId(DEADLINE) ValueState<Instant> deadline,
      @TimerId(DELAY) Timer delay,
      @TimerId(END) Timer end,
      OutputReceiver<List<WrittenFile>> out) {
    emitPending(files, bytes, hold, deadline, delay, end, out);
  }

  @OnTimer(END)
  public void onEnd(
      @StateId(FILES) BagState<WrittenFile> files,
      @StateId(BYTES) ValueState<Long> bytes,
      @StateId(HOLD) ValueState<Instant> hold,
      @StateId(DEADLINE) ValueState<Instant> deadline,
      @TimerId(DELAY) Timer delay,
      @TimerId(END) Timer end,
      OutputReceiver<List<WrittenFile>> out) {
    emitPending(files, bytes, hold, deadline, delay, end, out);
  }

  private static void emitPending(
      BagState<WrittenFile> files,
      ValueState<Long> bytes,
      ValueState<Instant> hold,
      ValueState<Instant> deadline,
      Timer delay,
      Timer end,
      OutputReceiver<List<WrittenFile>> out) {
    Instant held = hold.read();
    List<WrittenFile> group = drain(files, bytes, hold, deadline, delay, end);
    if (!group.isEmpty()) {
      // at the hold: the timer's output timestamp, never behind the output watermark
      out.outputWithTimestamp(group, held != null ? held : GlobalWindow.INSTANCE.maxTimestamp());
    }
  }

  private static List<WrittenFile> drain(
      BagState<WrittenFile> files,
      ValueState<Long> bytes,
      ValueState<Instant> hold,
      ValueState<Instant> deadline,
      Timer delay,
      Timer end) {
    List<WrittenFile> group = new ArrayList<>();
    files.read().forEach(group::add);
    Instant held = hold.read();
    files.clear();
    bytes.clear();
    hold.clear();
    deadline.clear();
    if (held != null) {
      // the timers are armed and hold at `held`: not clear() alone, which keeps the hold on Flink
      // (see TimerHolds); their replacements fire with nothing pending and emit nothing
      TimerHolds.releaseProcessingTime(delay);
      TimerHolds.releaseEventTime(end, held);
    }
    return group;
  }
}
