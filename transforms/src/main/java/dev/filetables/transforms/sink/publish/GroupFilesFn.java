package dev.filetables.transforms.sink.publish;

import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.runner.CheckpointMarks;
import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.compact.GroupPolicy;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import dev.filetables.transforms.sink.compact.PendingGroup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
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
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The publish step of the streaming sink, keyed by partition path: collects the closed hidden files
 * of a partition into groups ({@link PendingGroup}, sealed by the {@link GroupPolicy}) and
 * publishes each sealed group once no restore can take its files back ({@link GroupPublisher}:
 * merged with auto-compaction, else each file renamed). Only names, sizes and counts are kept in
 * state, never rows. Outputs the visible files.
 *
 * <p>The uncompacted sink uses this step with every file its own group ({@link #eachFileAlone},
 * {@link DurablePublish}): target size 0, so every file is sealed alone on arrival and renamed, not
 * merged.
 *
 * <p>Keep the class name: Beam names the ParDo inside a step after its DoFn's class ({@code
 * Compact/GroupFiles/ParMultiDo(GroupFiles)}), and on Flink that full name is the operator uid by
 * which checkpoints and savepoints are restored.
 *
 * <h2>Exactly-once on Flink: publish only durable files, from keyed state</h2>
 *
 * A file's rows may be visible only once no restore can write them again, i.e. once the checkpoint
 * that holds the writer state in which the file is closed has completed. With aligned
 * (exactly-once) checkpoints, the checkpoint whose snapshot of this step comes after a file arrived
 * holds the writer's close of that file. So each pending file carries the {@link CheckpointMarks
 * mark} of the bundle it arrived in, a sealed group the latest mark of its files, and a sealed
 * group is published only when that mark is durable (the bundle finalizer of that bundle, or of a
 * later one, ran): a processing-time timer ({@code commit}) polls for it a few times per checkpoint
 * interval. Each sealed group is checked on its own mark, so groups that keep being sealed in a
 * busy partition do not hold back those already durable. Groups sealed in restored state are
 * durable at once.
 *
 * <p>Publishing happens in this keyed step, not in a {@code @RequiresStableInput} step after it:
 * Beam 2.62's Flink runner can hand stable input over before the checkpoint that contains it
 * completes. Its buffer index, restored from the checkpoint, is reused for new elements after the
 * first checkpoint following a restore, before the restored elements in it have been released; the
 * next completed checkpoint then releases both (likewise when a checkpoint's notification is
 * skipped). A group formed after the restore was then merged, published and its inputs deleted
 * while a further failure could still roll the writer back and write those rows into other files:
 * duplicate rows, or a hidden merged file left behind.
 *
 * <p>Why every row ends up visible exactly once, whatever fails when:
 *
 * <ul>
 *   <li>A published group holds only durably closed files: their rows are never written again, and
 *       the files never change. A file is in one place of the state at a time (pending or sealed).
 *   <li>After a failure, state is restored from a completed checkpoint C. A group published (in
 *       part) by the failed attempt has only files that arrived before C, and its seal came after C
 *       (else it would be in C, sealed), so at C all its files are pending, and the next seal after
 *       the restore holds all of them, possibly with more. The compactor is idempotent for that
 *       replay: files that a visible merged file (its sidecar) or their visible rename already hold
 *       are not merged again, a never published merged file of the group is deleted, the rest is
 *       merged under a name derived from its inputs.
 *   <li>A group is removed from state only after it is published; a failure in between publishes it
 *       again (idempotent) and emits its visible files again, which the partition commit
 *       de-duplicates by path. Restored downstream state may have missed files the failed attempt
 *       emitted: the compactor returns the earlier visible files of a replayed group as well.
 *   <li>The partition commit waits while any hidden file of the write is in the partition, and gets
 *       every visible file of the group, so it commits a partition after its compaction.
 * </ul>
 *
 * <h2>At the end of the input</h2>
 *
 * The end-of-window timers {@code end} (pending files) and {@code sealedEnd} (sealed groups) fire
 * once the input has ended (Flink fires no processing-time timer then; where the runner drains
 * timers, {@code commit} and {@code delay} fire before their time, Beam's Flink runner in {@code
 * finish()}). Groups whose mark is durable are published as usual; the others leave the state
 * prepared under an intent and are published when the job's final checkpoint completes ({@link
 * FinalCheckpointPublisher} has the two phases and why they are exactly-once).
 *
 * <p>On other runners ({@code pollMillis == 0}: the Direct runner commits a bundle's state and
 * output together and does not restore), a sealed group is published at once.
 *
 * <h2>Watermark</h2>
 *
 * The timers carry the smallest timestamp of the pending (or sealed) files as output timestamp,
 * which holds this step's output watermark there ({@code sealedEnd} holds at the same time as
 * {@code commit}): a partition-time commit downstream cannot pass rows still waiting here. A
 * visible file is emitted at its group's timestamp: the pending hold (by a timer) or the timestamp
 * of the file that completed it (by size). Timers are released with {@link TimerHolds} (on Flink
 * {@code Timer.clear()} alone would keep the hold until the end of the input), so every timer may
 * fire with nothing to do and then does nothing.
 */
final class GroupFilesFn extends DoFn<KV<String, WrittenFile>, WrittenFile> {
  private static final long serialVersionUID = 1L;

  private static final String FILES = "files";
  private static final String BYTES = "bytes";
  private static final String HOLD = "hold";
  private static final String DEADLINE = "deadline";
  private static final String ARRIVAL = "arrival";
  private static final String SEALED = "sealed";
  private static final String SEALED_HOLD = "sealedHold";
  private static final String DELAY = "delay";
  private static final String END = "end";
  private static final String COMMIT = "commit";
  private static final String SEALED_END = "sealedEnd";

  private final GroupPolicy policy;
  private final String writeUuid;
  private final @Nullable FileMerger merger;
  private final long pollMillis;

  private transient CheckpointMarks marks;
  private transient GroupPublisher publisher;

  /**
   * The bundle finalizer of the last {@code @ProcessElement} (Flink: one instance per operator):
   * the end-of-input timers register the final checkpoint's callback with it, since Beam 2.62's
   * non-portable runners hand out none to {@code @OnTimer}.
   */
  private transient @Nullable BundleFinalizer finalizer;

  @StateId(FILES)
  private final StateSpec<BagState<WrittenFile>> filesSpec = StateSpecs.bag(WrittenFileCoder.of());

  @StateId(BYTES)
  private final StateSpec<ValueState<Long>> bytesSpec = StateSpecs.value(VarLongCoder.of());

  /** The smallest element timestamp of the pending files: the output watermark hold. */
  @StateId(HOLD)
  private final StateSpec<ValueState<Instant>> holdSpec = StateSpecs.value(InstantCoder.of());

  /** Processing time at which the pending group is sealed at the latest. */
  @StateId(DEADLINE)
  private final StateSpec<ValueState<Instant>> deadlineSpec = StateSpecs.value(InstantCoder.of());

  /** The {@link CheckpointMarks mark} of the latest pending file's arrival. */
  @StateId(ARRIVAL)
  private final StateSpec<ValueState<String>> arrivalSpec = StateSpecs.value(StringUtf8Coder.of());

  /**
   * Sealed groups waiting until their files are durable, with their marks ({@link SealedGroups}).
   */
  @StateId(SEALED)
  private final StateSpec<BagState<KV<String, KV<Instant, List<WrittenFile>>>>> sealedSpec =
      StateSpecs.bag(
          KvCoder.of(
              StringUtf8Coder.of(),
              KvCoder.of(InstantCoder.of(), ListCoder.of(WrittenFileCoder.of()))));

  /** The smallest output timestamp of the sealed groups: the {@code commit} timer's hold. */
  @StateId(SEALED_HOLD)
  private final StateSpec<ValueState<Instant>> sealedHoldSpec = StateSpecs.value(InstantCoder.of());

  @TimerId(DELAY)
  private final TimerSpec delaySpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId(END)
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  @TimerId(COMMIT)
  private final TimerSpec commitSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  /**
   * Armed while groups are sealed: the end of the input publishes them. Flink does not fire the
   * processing-time {@code commit} timer once the input has ended, so without it sealed groups
   * would stay hidden.
   */
  @TimerId(SEALED_END)
  private final TimerSpec sealedEndSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  /**
   * @param merger merges a group into one file; null: every file is its own group and is just
   *     renamed ({@link #eachFileAlone})
   * @param pollMillis how often sealed groups are checked for durability (Flink); 0 to publish a
   *     group as soon as it is sealed (runners that never restore state)
   */
  GroupFilesFn(GroupPolicy policy, String writeUuid, @Nullable FileMerger merger, long pollMillis) {
    this.policy = policy;
    this.writeUuid = writeUuid;
    this.merger = merger;
    this.pollMillis = pollMillis;
  }

  /**
   * The publish step of the uncompacted sink: every file is sealed alone on arrival (target size 0)
   * and published by a rename (its segments deleted) once durable. No directory is listed: a rename
   * is idempotent by itself ({@link PartitionCompactor#publishAlone}), and without merging there
   * are no merged files of earlier attempts to find.
   */
  static GroupFilesFn eachFileAlone(String writeUuid, long pollMillis) {
    return new GroupFilesFn(GroupPolicy.eachFileAlone(), writeUuid, null, pollMillis);
  }

  @Setup
  public void setup() {
    PartitionCompactor compactor =
        merger == null ? null : new PartitionCompactor(writeUuid, merger);
    EarlierIntents earlierIntents = new EarlierIntents(writeUuid);
    marks = new CheckpointMarks();
    FinalCheckpointPublisher atFinalCheckpoint =
        new FinalCheckpointPublisher(writeUuid, compactor, earlierIntents);
    publisher =
        new GroupPublisher(compactor, pollMillis > 0, marks, earlierIntents, atFinalCheckpoint);
  }

  @StartBundle
  public void startBundle() {
    marks.startBundle();
  }

  @ProcessElement
  public void processElement(
      @Element KV<String, WrittenFile> element,
      @Timestamp Instant timestamp,
      @StateId(FILES) BagState<WrittenFile> files,
      @StateId(BYTES) ValueState<Long> bytes,
      @StateId(HOLD) ValueState<Instant> hold,
      @StateId(DEADLINE) ValueState<Instant> deadline,
      @StateId(ARRIVAL) ValueState<String> arrival,
      @StateId(SEALED) BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      @StateId(SEALED_HOLD) ValueState<Instant> sealedHold,
      @TimerId(DELAY) Timer delay,
      @TimerId(END) Timer end,
      @TimerId(COMMIT) Timer commit,
      @TimerId(SEALED_END) Timer sealedEnd,
      BundleFinalizer finalizer,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    if (pollMillis > 0) {
      arrival.write(marks.mark(finalizer));
      this.finalizer = finalizer;
    }
    List<WrittenFile> group =
        pending(files, bytes, hold, deadline, delay, end).add(element.getValue(), timestamp);
    if (group != null) {
      String mark = arrival.read();
      arrival.clear();
      seal(group, timestamp, mark, sealed(sealed, sealedHold, commit, sealedEnd), out);
    }
  }

  /** The oldest pending file has waited long enough (or the runner drains timers at the end). */
  @OnTimer(DELAY)
  public void onDelay(
      @StateId(FILES) BagState<WrittenFile> files,
      @StateId(BYTES) ValueState<Long> bytes,
      @StateId(HOLD) ValueState<Instant> hold,
      @StateId(DEADLINE) ValueState<Instant> deadline,
      @StateId(ARRIVAL) ValueState<String> arrival,
      @StateId(SEALED) BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      @StateId(SEALED_HOLD) ValueState<Instant> sealedHold,
      @TimerId(DELAY) Timer delay,
      @TimerId(END) Timer end,
      @TimerId(COMMIT) Timer commit,
      @TimerId(SEALED_END) Timer sealedEnd,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    PendingGroup pending = pending(files, bytes, hold, deadline, delay, end);
    Instant held = pending.hold();
    List<WrittenFile> group = pending.drain();
    if (group.isEmpty()) {
      return; // a released timer
    }
    String mark = arrival.read();
    arrival.clear();
    // at the hold: this timer's output timestamp, never behind the output watermark
    seal(group, held, mark, sealed(sealed, sealedHold, commit, sealedEnd), out);
  }

  /**
   * The input ended: every pending and sealed group is published now, or prepared for the final
   * checkpoint (no regular checkpoint follows).
   */
  @OnTimer(END)
  public void onEnd(
      OnTimerContext context,
      @StateId(FILES) BagState<WrittenFile> files,
      @StateId(BYTES) ValueState<Long> bytes,
      @StateId(HOLD) ValueState<Instant> hold,
      @StateId(DEADLINE) ValueState<Instant> deadline,
      @StateId(ARRIVAL) ValueState<String> arrival,
      @StateId(SEALED) BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      @StateId(SEALED_HOLD) ValueState<Instant> sealedHold,
      @TimerId(DELAY) Timer delay,
      @TimerId(END) Timer end,
      @TimerId(COMMIT) Timer commit,
      @TimerId(SEALED_END) Timer sealedEnd,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    if (context.fireTimestamp().isBefore(GlobalWindow.INSTANCE.maxTimestamp())) {
      return; // a released timer (see TimerHolds), not the end of the input
    }
    PendingGroup pending = pending(files, bytes, hold, deadline, delay, end);
    Instant held = pending.hold();
    List<WrittenFile> group = pending.drain();
    String mark = arrival.read();
    arrival.clear();
    // not before this timer's output timestamp (the pending hold), as the runner demands
    Instant notBefore = context.timestamp();
    SealedGroups sealedGroups = sealed(sealed, sealedHold, commit, sealedEnd);
    List<KV<String, KV<Instant, List<WrittenFile>>>> groups = sealedGroups.all();
    if (!group.isEmpty()) {
      groups.add(KV.of(mark, KV.of(held, group)));
    }
    if (groups.isEmpty()) {
      return;
    }
    publisher.publishOrPrepare(groups, notBefore, finalizer, out);
    sealedGroups.clearAtEnd();
  }

  /**
   * Publishes the sealed groups whose files are durable and polls again for the others. A firing
   * before its time means the runner drains timers at the end of the input: all published at once.
   */
  @OnTimer(COMMIT)
  public void onCommit(
      OnTimerContext context,
      @StateId(SEALED) BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      @StateId(SEALED_HOLD) ValueState<Instant> sealedHold,
      @TimerId(COMMIT) Timer commit,
      @TimerId(SEALED_END) Timer sealedEnd,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    SealedGroups groups = sealed(sealed, sealedHold, commit, sealedEnd);
    Instant held = groups.hold();
    if (held == null) {
      return; // a released timer
    }
    boolean draining = context.fireTimestamp().getMillis() > System.currentTimeMillis();
    if (draining) {
      // the end of the input: durable groups are published, the others wait for the final
      // checkpoint
      publisher.publishOrPrepare(groups.all(), held, finalizer, out);
      groups.clearAtCommit(held);
      return;
    }
    List<KV<Instant, List<WrittenFile>>> durable = new ArrayList<>();
    List<KV<String, KV<Instant, List<WrittenFile>>>> waiting = new ArrayList<>();
    for (KV<String, KV<Instant, List<WrittenFile>>> marked : groups.all()) {
      if (marks.isDurable(marked.getKey())) {
        durable.add(marked.getValue());
      } else {
        waiting.add(marked);
      }
    }
    Instant next = held;
    if (!durable.isEmpty()) {
      publisher.publish(durable, held, out);
      next = groups.replaceWith(waiting);
    }
    groups.pollAgain(next, held);
  }

  /**
   * The input ended while groups were sealed: all published now, or prepared for the final
   * checkpoint (no regular checkpoint follows).
   */
  @OnTimer(SEALED_END)
  public void onSealedEnd(
      OnTimerContext context,
      @StateId(SEALED) BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      @StateId(SEALED_HOLD) ValueState<Instant> sealedHold,
      @TimerId(COMMIT) Timer commit,
      @TimerId(SEALED_END) Timer sealedEnd,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    SealedGroups groups = sealed(sealed, sealedHold, commit, sealedEnd);
    if (context.fireTimestamp().isBefore(GlobalWindow.INSTANCE.maxTimestamp())
        || groups.hold() == null) {
      return; // a released timer, or the sealed groups were published by the end timer
    }
    publisher.publishOrPrepare(groups.all(), context.timestamp(), finalizer, out);
    groups.clearAtEnd();
  }

  /**
   * A group is complete: published now on runners that never restore, otherwise kept (with the
   * latest arrival mark of its files) until its files are durable.
   */
  private void seal(
      List<WrittenFile> group,
      Instant timestamp,
      String mark,
      SealedGroups sealed,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    if (pollMillis == 0) {
      publisher.publish(List.of(KV.of(timestamp, group)), timestamp, out);
      return;
    }
    sealed.add(mark, timestamp, group);
  }

  private PendingGroup pending(
      BagState<WrittenFile> files,
      ValueState<Long> bytes,
      ValueState<Instant> hold,
      ValueState<Instant> deadline,
      Timer delay,
      Timer end) {
    return new PendingGroup(policy, files, bytes, hold, deadline, delay, end);
  }

  private SealedGroups sealed(
      BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      ValueState<Instant> sealedHold,
      Timer commit,
      Timer sealedEnd) {
    return new SealedGroups(sealed, sealedHold, commit, sealedEnd, pollMillis);
  }
}
