package dev.filetables.transforms.sink.publish;

import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.runner.CheckpointMarks;
import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.compact.CompactionFailpoints;
import dev.filetables.transforms.sink.compact.GroupPolicy;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import dev.filetables.transforms.sink.compact.PendingGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects the closed hidden files of a partition (keyed by partition path) into compaction groups
 * and publishes each group ({@link PartitionCompactor}) once it is safe to. Only names, sizes and
 * counts are kept in state, never rows. Outputs the visible files.
 *
 * <h2>Grouping</h2>
 *
 * A group is <em>sealed</em> when
 *
 * <ul>
 *   <li>its files add up to at least the target size ({@code compaction.file-size}), or
 *   <li>its oldest file has waited {@code compaction.max-delay} (a processing-time timer, so a
 *       quiet partition does not wait forever), or
 *   <li>the input ends (an event-time timer at the end of the global window).
 * </ul>
 *
 * Files of several commit points end up in one group when they arrive within the delay.
 *
 * <p>The uncompacted sink uses this step as its publish step ({@link #eachFileAlone}, {@link
 * DurablePublish}): target size 0, so every file is sealed alone on arrival and renamed, not
 * merged.
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
 * <h2>At the end of the input: two phases, at the job's final checkpoint</h2>
 *
 * The end-of-window timers {@code end} (pending files) and {@code sealedEnd} (sealed groups) fire
 * once the input has ended (Flink fires no processing-time timer then; where the runner drains
 * timers, {@code commit} and {@code delay} fire before their time, Beam's Flink runner in {@code
 * finish()}). No regular checkpoint follows, only the job's final one (Flink 1.19:
 * checkpoints-after-tasks-finish, on by default), which the task waits for before it ends. So:
 *
 * <ol>
 *   <li><b>Prepare</b> (the timers): groups whose mark is durable are published as usual. The
 *       others are written into one intent file per partition ({@link EndOfInputIntents}; rewritten
 *       with all groups if a second timer of the key prepares more, deleting older intents of the
 *       write there), and the visible files they will become are emitted now ({@link
 *       PartitionCompactor#preview}: deterministic names; the partition commit waits while hidden
 *       files or an intent of the write are in the partition). They leave the state.
 *   <li><b>Publish</b> (one bundle-finalizer callback per instance, registered with the finalizer
 *       kept from {@code @ProcessElement}, the only method Beam 2.62's non-portable runners give
 *       one to; the runner collects it in the final checkpoint's snapshot and runs it when that
 *       checkpoint completes, before the task ends): every prepared intent is completed with the
 *       idempotent compactor operations and deleted.
 * </ol>
 *
 * A failure before the final checkpoint completes restores an earlier checkpoint: nothing of the
 * last stretch is visible, and the replay publishes or prepares those rows again. Before this
 * instance publishes into a partition for the first time it deletes the intents of the write there
 * (an earlier attempt's: their files are no longer the truth), and a replay's intent is newer than
 * the failed attempt's. After the final checkpoint no restore can take the writers back. The
 * callback itself may fail or never run (not retried by the runner; an aborted final checkpoint
 * drops it): the job still ends and the intents stay, for the post-job publish ({@link
 * EndOfInputIntents#recover}, {@code FileTableMaintenance.publishLeftovers}).
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
  private static final Logger LOG = LoggerFactory.getLogger(GroupFilesFn.class);

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

  private transient @Nullable PartitionCompactor compactor;
  private transient CheckpointMarks marks;

  /**
   * The bundle finalizer of the last {@code @ProcessElement} (Flink: one instance per operator):
   * the end-of-input timers register the final checkpoint's callback with it, since Beam 2.62's
   * non-portable runners hand out none to {@code @OnTimer}.
   */
  private transient @Nullable BundleFinalizer finalizer;

  /** Partition directory → the groups this instance prepared there at the end of the input. */
  private transient Map<Path, Prepared> prepared;

  /**
   * Partition directories whose intents of earlier attempts this instance has deleted; the most
   * recent ones only (an endless stream of partitions; forgetting one costs one listing more).
   */
  private transient Set<Path> swept;

  private static final int SWEPT_REMEMBERED = 10_000;

  private transient boolean callbackRegistered;

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
   * Sealed groups waiting until their files are durable, each with the latest {@link
   * CheckpointMarks mark} of its files and its output timestamp. Each group has its own mark, so
   * files that keep arriving in a busy partition never hold back those that are durable already.
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
    compactor = merger == null ? null : new PartitionCompactor(writeUuid, merger);
    marks = new CheckpointMarks();
    prepared = new LinkedHashMap<>();
    swept =
        java.util.Collections.newSetFromMap(
            new LinkedHashMap<Path, Boolean>(16, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<Path, Boolean> eldest) {
                return size() > SWEPT_REMEMBERED;
              }
            });
    callbackRegistered = false;
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
      seal(group, timestamp, mark, sealed, sealedHold, commit, sealedEnd, out);
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
    seal(group, held, mark, sealed, sealedHold, commit, sealedEnd, out);
  }

  /** The input ended: every pending and sealed group is published now (no checkpoint follows). */
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
    List<KV<String, KV<Instant, List<WrittenFile>>>> groups = new ArrayList<>();
    sealed.read().forEach(groups::add);
    if (!group.isEmpty()) {
      groups.add(KV.of(mark, KV.of(held, group)));
    }
    if (groups.isEmpty()) {
      return;
    }
    publishOrPrepare(groups, notBefore, out);
    boolean armed = sealedHold.read() != null;
    sealed.clear();
    sealedHold.clear();
    if (armed) {
      TimerHolds.releaseProcessingTime(commit);
    }
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
    Instant held = sealedHold.read();
    if (held == null) {
      return; // a released timer
    }
    boolean draining = context.fireTimestamp().getMillis() > System.currentTimeMillis();
    if (draining) {
      // the end of the input: durable groups are published, the others wait for the final
      // checkpoint
      List<KV<String, KV<Instant, List<WrittenFile>>>> all = new ArrayList<>();
      sealed.read().forEach(all::add);
      publishOrPrepare(all, held, out);
      sealed.clear();
      sealedHold.clear();
      TimerHolds.releaseEventTime(sealedEnd, held);
      return;
    }
    List<KV<Instant, List<WrittenFile>>> durable = new ArrayList<>();
    List<KV<String, KV<Instant, List<WrittenFile>>>> waiting = new ArrayList<>();
    for (KV<String, KV<Instant, List<WrittenFile>>> marked : sealed.read()) {
      if (marks.isDurable(marked.getKey())) {
        durable.add(marked.getValue());
      } else {
        waiting.add(marked);
      }
    }
    Instant next = null;
    if (!durable.isEmpty()) {
      publish(durable, held, out);
      sealed.clear();
      for (KV<String, KV<Instant, List<WrittenFile>>> marked : waiting) {
        sealed.add(marked);
        Instant at = marked.getValue().getKey();
        next = next == null || at.isBefore(next) ? at : next;
      }
    } else {
      next = held;
    }
    if (next == null) {
      sealedHold.clear(); // this timer fired: its hold is gone; the end timer's is released
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

  /** The input ended while groups were sealed: all published now (no checkpoint follows). */
  @OnTimer(SEALED_END)
  public void onSealedEnd(
      OnTimerContext context,
      @StateId(SEALED) BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      @StateId(SEALED_HOLD) ValueState<Instant> sealedHold,
      @TimerId(COMMIT) Timer commit,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    if (context.fireTimestamp().isBefore(GlobalWindow.INSTANCE.maxTimestamp())
        || sealedHold.read() == null) {
      return; // a released timer, or the sealed groups were published by the end timer
    }
    List<KV<String, KV<Instant, List<WrittenFile>>>> groups = new ArrayList<>();
    sealed.read().forEach(groups::add);
    publishOrPrepare(groups, context.timestamp(), out);
    sealed.clear();
    sealedHold.clear();
    TimerHolds.releaseProcessingTime(commit);
  }

  /**
   * A group is complete: published now on runners that never restore, otherwise kept (with the
   * latest arrival mark of its files) until its files are durable.
   */
  private void seal(
      List<WrittenFile> group,
      Instant timestamp,
      String mark,
      BagState<KV<String, KV<Instant, List<WrittenFile>>>> sealed,
      ValueState<Instant> sealedHold,
      Timer commit,
      Timer sealedEnd,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    if (pollMillis == 0) {
      publish(List.of(KV.of(timestamp, group)), timestamp, out);
      return;
    }
    sealed.add(KV.of(Objects.requireNonNull(mark, "arrival mark"), KV.of(timestamp, group)));
    Instant held = sealedHold.read();
    if (held == null || timestamp.isBefore(held)) {
      // allowed: the timestamp is the current element's, or the firing timer's output timestamp
      sealedHold.write(timestamp);
      commit.withOutputTimestamp(timestamp).offset(Duration.millis(pollMillis)).setRelative();
      sealedEnd.withOutputTimestamp(timestamp).set(GlobalWindow.INSTANCE.maxTimestamp());
    }
  }

  private void publish(
      List<KV<Instant, List<WrittenFile>>> groups,
      Instant notBefore,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    for (KV<Instant, List<WrittenFile>> group : groups) {
      sweepEarlierIntents(directoryOf(group.getValue()));
      List<WrittenFile> visible =
          compactor == null
              ? PartitionCompactor.publishAlone(group.getValue())
              : compactor.compact(group.getValue());
      Instant at = group.getKey().isBefore(notBefore) ? notBefore : group.getKey();
      for (WrittenFile file : visible) {
        CompactionFailpoints.reached(CompactionFailpoints.Point.BEFORE_EMIT, file.path());
        out.outputWithTimestamp(file, at);
      }
    }
  }

  /**
   * The end of the input (on Flink): groups whose files are durable are published now; the others
   * are <em>prepared</em>: an intent names them ({@link EndOfInputIntents}), the visible files they
   * will become are emitted (their names are deterministic), and the final checkpoint's callback
   * publishes them ({@link #publishPrepared}). Until that checkpoint completes a failure restores
   * an earlier one and nothing of the last stretch has become visible; after it, no restore can
   * take the writers back. Where no checkpoint follows ({@code pollMillis == 0}) all are published
   * now.
   */
  private void publishOrPrepare(
      List<KV<String, KV<Instant, List<WrittenFile>>>> marked,
      Instant notBefore,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    List<KV<Instant, List<WrittenFile>>> now = new ArrayList<>();
    List<KV<Instant, List<WrittenFile>>> atFinalCheckpoint = new ArrayList<>();
    for (KV<String, KV<Instant, List<WrittenFile>>> group : marked) {
      String mark = group.getKey();
      if (pollMillis == 0 || mark == null || marks.isDurable(mark)) {
        now.add(group.getValue());
      } else if (finalizer == null) {
        // cannot happen: a mark of this instance was taken in @ProcessElement, which kept a
        // finalizer
        LOG.warn(
            "No bundle finalizer to publish {} at the final checkpoint: published now",
            group.getValue().getValue());
        now.add(group.getValue());
      } else {
        atFinalCheckpoint.add(group.getValue());
      }
    }
    if (!now.isEmpty()) {
      publish(now, notBefore, out);
    }
    if (!atFinalCheckpoint.isEmpty()) {
      prepare(atFinalCheckpoint, notBefore, out);
    }
  }

  /** Writes the partition's intent for {@code groups} and emits the files they will become. */
  private void prepare(
      List<KV<Instant, List<WrittenFile>>> groups,
      Instant notBefore,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    List<WrittenFile> first = groups.get(0).getValue();
    Path dir = directoryOf(first);
    Prepared partition =
        prepared.computeIfAbsent(dir, d -> new Prepared(first.get(0).partitionPath()));
    groups.forEach(group -> partition.groups.add(group.getValue()));
    // one intent per partition and attempt: a second end timer of the key rewrites it with all
    // groups
    Path intent =
        EndOfInputIntents.write(
            dir, writeUuid, partition.partitionPath, compactor != null, partition.groups);
    partition.intent = intent;
    EndOfInputIntents.deleteOthers(dir, writeUuid, intent); // ours before, and earlier attempts'
    swept.add(dir);
    CompactionFailpoints.reached(
        CompactionFailpoints.Point.END_OF_INPUT_PREPARED, intent.toString());
    if (!callbackRegistered) {
      // collected by the next snapshot (the final checkpoint), run when it completes
      Objects.requireNonNull(finalizer, "bundle finalizer")
          .afterBundleCommit(Instant.now().plus(Duration.standardDays(7)), this::publishPrepared);
      callbackRegistered = true;
    }
    LOG.debug(
        "Prepared {} group(s) of {} for the final checkpoint ({})",
        groups.size(),
        dir,
        intent.getFileName());
    for (KV<Instant, List<WrittenFile>> group : groups) {
      List<WrittenFile> visible =
          compactor == null
              ? EndOfInputIntents.renamed(group.getValue())
              : compactor.preview(group.getValue());
      Instant at = group.getKey().isBefore(notBefore) ? notBefore : group.getKey();
      for (WrittenFile file : visible) {
        out.outputWithTimestamp(file, at);
      }
    }
  }

  /**
   * The final checkpoint completed: publishes every prepared group and deletes the intents. Runs on
   * the task's thread before the task ends; a failure here is not retried by the runner (the
   * intents stay for the post-job publish, {@link EndOfInputIntents#recover}).
   */
  private void publishPrepared() throws IOException {
    for (Map.Entry<Path, Prepared> entry : new ArrayList<>(prepared.entrySet())) {
      EndOfInputIntents.Intent intent = EndOfInputIntents.read(entry.getValue().intent);
      List<WrittenFile> visible =
          EndOfInputIntents.complete(
              intent,
              compactor,
              path ->
                  CompactionFailpoints.reached(
                      CompactionFailpoints.Point.END_OF_INPUT_PUBLISHED, path.toString()));
      prepared.remove(entry.getKey());
      LOG.debug(
          "Published {} file(s) of {} at the final checkpoint", visible.size(), entry.getKey());
    }
  }

  /**
   * Before this instance publishes into a partition for the first time: deletes the end-of-input
   * intents an earlier, failed attempt left there. The replay now publishes those rows (or prepares
   * them again under a newer intent), so such an intent names files that are no longer the truth.
   */
  private void sweepEarlierIntents(Path dir) throws IOException {
    if (pollMillis == 0 || prepared.containsKey(dir) || !swept.add(dir)) {
      return;
    }
    EndOfInputIntents.deleteOthers(dir, writeUuid, null);
  }

  private static Path directoryOf(List<WrittenFile> group) {
    return Path.of(group.get(0).path()).getParent();
  }

  /** The groups prepared in one partition directory and their current intent. */
  private static final class Prepared {
    final String partitionPath;
    final List<List<WrittenFile>> groups = new ArrayList<>();
    @Nullable Path intent;

    Prepared(String partitionPath) {
      this.partitionPath = partitionPath;
    }
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
}
