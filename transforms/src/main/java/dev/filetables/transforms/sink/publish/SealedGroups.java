package dev.filetables.transforms.sink.publish;

import dev.filetables.transforms.runner.CheckpointMarks;
import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.WrittenFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The sealed groups of one partition waiting until their files are durable, in the publish step's
 * keyed state: each with the latest {@link CheckpointMarks mark} of its files and its output
 * timestamp ({@code mark → (timestamp → files)}). Each group has its own mark, so files that keep
 * arriving in a busy partition never hold back those that are durable already. The smallest output
 * timestamp is the hold of two timers: {@code commit}, which polls for durability every {@code
 * pollMillis}, and {@code sealedEnd}, which publishes the groups when the input ends (Flink fires
 * no processing-time timer then). A view over the state cells and timers of one key, made per call.
 */
final class SealedGroups {
  private final BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed;
  private final ValueState<Instant> sealedHold;
  private final Timer commit;
  private final Timer sealedEnd;
  private final long pollMillis;

  SealedGroups(
      BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      ValueState<Instant> sealedHold,
      Timer commit,
      Timer sealedEnd,
      long pollMillis) {
    this.sealed = sealed;
    this.sealedHold = sealedHold;
    this.commit = commit;
    this.sealedEnd = sealedEnd;
    this.pollMillis = pollMillis;
  }

  /**
   * Keeps a sealed group until its files are durable; (re)arms the timers if it is the oldest.
   *
   * @param timestamp the current element's timestamp or the firing timer's output timestamp (the
   *     timers may hold there)
   */
  void add(String mark, Instant timestamp, List<WrittenFile> group) {
    sealed.add(KV.of(Objects.requireNonNull(mark, "arrival mark"), KV.of(timestamp, group)));
    Instant held = sealedHold.read();
    if (held == null || timestamp.isBefore(held)) {
      // allowed: the timestamp is the current element's, or the firing timer's output timestamp
      sealedHold.write(timestamp);
      commit.withOutputTimestamp(timestamp).offset(Duration.millis(pollMillis)).setRelative();
      sealedEnd.withOutputTimestamp(timestamp).set(GlobalWindow.INSTANCE.maxTimestamp());
    }
  }

  /** The smallest output timestamp of the sealed groups; null if there are none. */
  @Nullable Instant hold() {
    return sealedHold.read();
  }

  /** Every sealed group with its mark. */
  List<KV<String, KV<Instant, List<WrittenFile>>>> all() {
    List<KV<String, KV<Instant, List<WrittenFile>>>> groups = new ArrayList<>();
    sealed.read().forEach(groups::add);
    return groups;
  }

  /**
   * Forgets every group (published or prepared) when an end-of-input timer fired: the {@code
   * commit} timer's hold is released.
   */
  void clearAtEnd() {
    boolean armed = sealedHold.read() != null;
    sealed.clear();
    sealedHold.clear();
    if (armed) {
      TimerHolds.releaseProcessingTime(commit);
    }
  }

  /**
   * Forgets every group (published or prepared) when the {@code commit} timer fired, whose own hold
   * is gone: the {@code sealedEnd} timer's hold at {@code held} is released.
   */
  void clearAtCommit(Instant held) {
    sealed.clear();
    sealedHold.clear();
    TimerHolds.releaseEventTime(sealedEnd, held);
  }

  /**
   * Replaces the groups with {@code waiting} (the others were published); returns their smallest
   * output timestamp, null if none is left.
   */
  @Nullable Instant replaceWith(List<KV<String, KV<Instant, List<WrittenFile>>>> waiting) {
    Instant next = null;
    sealed.clear();
    for (KV<String, KV<Instant, List<WrittenFile>>> marked : waiting) {
      sealed.add(marked);
      Instant at = marked.getValue().getKey();
      next = next == null || at.isBefore(next) ? at : next;
    }
    return next;
  }

  /**
   * After the {@code commit} timer fired with hold {@code held}: polls again for the groups left,
   * which hold at {@code next}, or releases the {@code sealedEnd} timer if none is left (null).
   */
  void pollAgain(@Nullable Instant next, Instant held) {
    if (next == null) {
      sealedHold.clear(); // the commit timer fired: its hold is gone; the end timer's is released
      TimerHolds.releaseEventTime(sealedEnd, held);
      return;
    }
    // not before the firing timer's output timestamp: `held` was the smallest of all groups
    sealedHold.write(next);
    commit.withOutputTimestamp(next).offset(Duration.millis(pollMillis)).setRelative();
    if (next.isAfter(held)) {
      sealedEnd.withOutputTimestamp(next).set(GlobalWindow.INSTANCE.maxTimestamp());
    }
  }
}
