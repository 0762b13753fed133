package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.format.ConcatenatingMerger;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.segment.FileRowCoder;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentKind;
import dev.filetables.transforms.sink.segment.SegmentWriter;
import dev.filetables.transforms.sink.segment.SpillMerger;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.schemas.Schema;
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
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming sink's writer: per {@link WriterKey} at most one open part file, rolled by {@link
 * RollingPolicy}, and emitted as a hidden {@link WrittenFile} for the publisher. See {@link
 * StreamingWrite} for why the design guarantees exactly-once output. This DoFn owns the key's Beam
 * state and timers; the rest is delegated, each part with its share of the protocol:
 *
 * <ul>
 *   <li>{@link BundleSegments}: rows go to a hidden segment file per bundle, state only names
 *       files; segment files of an open file are combined while it is open;
 *   <li>{@link RollSchedule}: when the {@code check} timer looks at a file and whether it is due,
 *       timed to checkpoints; whether a file rolls at the commit point ({@link ClosesAtBundleEnd});
 *   <li>{@link PartFileFinisher}: a closing file's segments merged into the hidden part file; when
 *       a file is full;
 *   <li>{@link LeftoverFiles}: part file counters and the hidden files of failed attempts.
 * </ul>
 *
 * <h3>State per key (cleared when the file closes)</h3>
 *
 * <ul>
 *   <li>{@code file}: an {@link OpenFile} (name, times, row count, number of segments begun and
 *       which segment files hold them, and whether it closes at the end of the bundle that marked
 *       it: roll at the commit point, see {@link #finishBundle} and {@link StreamingWrite});
 *   <li>timer {@code check} (processing time): the file's next rollover/inactivity deadline on the
 *       check-interval grid, or on Flink shortly before the checkpoint nearest to it (see {@link
 *       RollSchedule#nextCheck});
 *   <li>timer {@code end} (event time, end of the global window): closes the file when the input
 *       ends (bounded input, drain).
 * </ul>
 *
 * Only {@code lastCounter}, the counter of the key's latest file, outlives the file, together with
 * the timer {@code forget}: it keeps counters increasing and tells which hidden files of this
 * writer a failed attempt left behind ({@link LeftoverFiles}), and it is dropped once all the key's
 * files are published.
 *
 * <h3>Watermark</h3>
 *
 * Both timers carry the smallest event timestamp of the open file's rows as output timestamp, which
 * holds the output watermark there until the file is emitted; files closed by a timer are emitted
 * at that timestamp, files closed by size at the timestamp of the row that filled them. Closing
 * releases the hold of both timers ({@link TimerHolds}: {@code Timer.clear()} alone keeps it on
 * Beam 2.62's Flink runner, which held the sink's output watermark at the first file until the end
 * of the input); idle files close by inactivity, so an idle partition never holds the watermark for
 * longer than inactivity-interval + check-interval. {@code check} and {@code end} may therefore
 * fire when no file is open: they do nothing then.
 */
class RollingWriterFn extends DoFn<KV<WriterKey, RowBatch>, WrittenFile> {
  private static final Logger LOG = LoggerFactory.getLogger(RollingWriterFn.class);

  private static final String FILE = "file";
  private static final String CHECK = "check";
  private static final String END = "end";
  private static final String LAST_COUNTER = "lastCounter";
  private static final String FORGET = "forget";

  /** Writes whose bundle options were checked in this JVM: the warning comes once per write. */
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  /** How long after its last file closed a key first tries to drop its {@code lastCounter}. */
  static final Duration FORGET_AFTER = Duration.standardMinutes(1);

  @StateId(FILE)
  private final StateSpec<ValueState<OpenFile>> fileSpec = StateSpecs.value(OpenFile.Coder.of());

  @TimerId(CHECK)
  private final TimerSpec checkSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId(END)
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  @StateId(LAST_COUNTER)
  private final StateSpec<ValueState<Long>> lastCounterSpec = StateSpecs.value(VarLongCoder.of());

  @TimerId(FORGET)
  private final TimerSpec forgetSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  private final TableSpec table;
  private final Schema fileSchema;
  private final PartFiles files;
  private final RollingPolicy policy;
  private final SegmentKind segmentKind;

  /**
   * The runner's commit interval (Flink checkpoint interval) in ms, 0 when rolls are not aligned.
   */
  private final long commitInterval;

  private final SegmentCombiner combiner;

  /** The runner restores state (Flink): see {@link BundleSegments} for what that changes. */
  private final boolean restoresState;

  private transient BundleSegments segments;
  private transient RollSchedule schedule;
  private transient PartFileFinisher finisher;
  private transient LeftoverFiles leftovers;

  /** Decodes the rows of a batch when they cannot be appended as they are. */
  private transient Coder<Row> rowCoder;

  private transient ClosesAtBundleEnd closesAtBundleEnd;

  /**
   * @param commitInterval the runner's commit (checkpoint) interval in ms to time rolls just before
   *     checkpoints (see {@link RollingPolicy#nextAligned}), or 0; ignored unless the policy {@link
   *     RollingPolicy#alignsTo aligns to it}
   * @param combiner when to combine the segment files of an open file
   * @param restoresState the runner restores state after failures (Flink): replaced segment files
   *     are deleted only after a checkpoint completed without them; otherwise at once
   */
  RollingWriterFn(
      TableSpec table,
      PartFiles files,
      RollingPolicy policy,
      SegmentKind segmentKind,
      long commitInterval,
      SegmentCombiner combiner,
      boolean restoresState) {
    this.table = table;
    this.fileSchema = table.fileSchema();
    this.files = files;
    this.policy = policy;
    this.segmentKind = segmentKind;
    this.commitInterval = policy.alignsTo(commitInterval) ? commitInterval : 0;
    this.combiner = combiner;
    this.restoresState = restoresState;
  }

  @Setup
  public void setup() {
    FileFormat format = FileFormats.of(table.options());
    FileMerger merger =
        segmentKind == SegmentKind.SPILL
            ? new SpillMerger(format, fileSchema)
            : FileMergers.of(format, fileSchema);
    // spill segments are rows one after the other: their bytes join as they are
    FileMerger combining = segmentKind == SegmentKind.SPILL ? ConcatenatingMerger.INSTANCE : merger;
    SegmentSizes sizes = new SegmentSizes();
    // a new instance for every (re)start of the task: its files are told apart from those of a
    // failed or stale attempt (see BundleSegments)
    WriterAttempt attempt = WriterAttempt.begin();
    segments =
        new BundleSegments(
            segmentKind,
            format,
            fileSchema,
            files,
            combiner,
            combining,
            sizes,
            restoresState,
            attempt);
    schedule = new RollSchedule(policy, commitInterval, files.writeUuid());
    leftovers = new LeftoverFiles(files, attempt);
    // auto-compaction reads the closed files it merges; without it they are published unread
    finisher =
        new PartFileFinisher(
            files,
            segmentKind,
            merger,
            policy.fileSize(),
            leftovers,
            sizes,
            !table.options().autoCompaction(),
            attempt);
    closesAtBundleEnd = new ClosesAtBundleEnd();
    rowCoder = FileRowCoder.of(fileSchema);
  }

  @StartBundle
  public void startBundle(PipelineOptions options) {
    segments.startBundle();
    schedule.startBundle(options);
    if (WARNED.add(files.writeUuid())) {
      StreamingWrite.smallBundleWarning(table.name(), options).ifPresent(LOG::warn);
      schedule.rollAtCommitHint(table.name()).ifPresent(LOG::info);
    }
  }

  /**
   * Completes every segment written in this bundle, then closes the files marked to close at its
   * end and emits them. The Flink runner calls this before it snapshots the keyed state for a
   * checkpoint, so every segment counted in checkpointed state is on disk, and a file whose
   * committed state is marked was emitted into the same checkpoint (the runner buffers this output
   * in it).
   */
  @FinishBundle
  public void finishBundle(FinishBundleContext context) throws IOException {
    segments.completeAll();
    closesAtBundleEnd.closeAll(
        finisher, (file, timestamp) -> context.output(file, timestamp, GlobalWindow.INSTANCE));
  }

  @Teardown
  public void teardown() {
    if (segments != null) {
      segments.abortAll(); // only after a failure: the bundle will be retried or the state restored
    }
    if (closesAtBundleEnd != null) {
      closesAtBundleEnd.clear();
    }
  }

  @ProcessElement
  public void processElement(
      @Element KV<WriterKey, RowBatch> element,
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(LAST_COUNTER) ValueState<Long> lastCounter,
      @TimerId(CHECK) Timer check,
      @TimerId(END) Timer end,
      @TimerId(FORGET) Timer forget,
      BundleFinalizer finalizer,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    schedule.watchCommits(finalizer);
    long now = check.getCurrentRelativeTime().getMillis();
    segments.startElement();
    WriterKey key = element.getKey();
    RowBatch batch = element.getValue();
    // within a bundle the open segment's file is the state's (written back after every batch); a
    // file read from state is copied before it changes (OpenFile: a checkpoint may still be writing
    // it)
    OpenFile file = segments.fileOf(key);
    if (file == null) {
      file = copyOfState(fileState);
    }
    if (file != null && closesAtBundleEnd.closedEarlier(key, file)) {
      settleClosed(file, check, end, forget, fileState);
      file = null;
    }
    boolean holdMoved = false;
    RowBatch.Rows rows = null;
    int next = 0;
    while (next < batch.size()) {
      if (file == null) {
        file = open(key, now, lastCounter);
        holdMoved = true;
      }
      SegmentWriter segment = segments.segmentOf(key, file, finalizer);
      if (next == 0
          && segment.takesEncoded()
          && !finisher.full(file, segment.bytes() + batch.encoded().length)) {
        // the common case: the whole batch goes into the segment as it is, without decoding
        holdMoved |= batch.minTimestamp() < file.minTimestamp;
        segment.writeEncoded(batch.encoded());
        file.add(batch.size(), batch.minTimestamp(), batch.maxTimestamp(), now);
        next = batch.size();
      } else {
        // row by row: the file may roll by size within the batch
        if (rows == null) {
          rows = batch.rows(rowCoder);
        }
        long timestamp = batch.timestamp(next++);
        holdMoved |= timestamp < file.minTimestamp;
        segment.write(rows.next());
        file.add(timestamp, now);
        if (finisher.full(file, segment.bytes())) {
          // emitted at the batch's timestamp, its smallest row timestamp
          out.output(close(key, file, check, end, forget, fileState, lastCounter));
          file = null;
          holdMoved = false;
          continue;
        }
      }
      if (segment.bytes() >= policy.segmentSize()) {
        segments.close(key); // the next row begins the next segment
      }
    }
    if (file == null) {
      return; // the last row filled the file
    }
    if (!file.closesAtBundleEnd
        && schedule.closesAtCommit(file, now)
        && !finisher.published(file)) {
      file.closesAtBundleEnd = true;
    }
    fileState.write(file);
    if (segments.combinedInElement() != null) {
      SinkFailpoints.reached(SinkFailpoints.Point.COMBINE_RECORDED, segments.combinedInElement());
    }
    if (file.closesAtBundleEnd) {
      closesAtBundleEnd.add(key, file);
    }
    if (holdMoved) {
      // allowed here: the new hold is at or after this element's timestamp, the batch's smallest
      arm(file, now, check, end);
    }
  }

  @OnTimer(CHECK)
  public void onCheck(
      OnTimerContext context,
      @Key WriterKey key,
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(LAST_COUNTER) ValueState<Long> lastCounter,
      @TimerId(CHECK) Timer check,
      @TimerId(END) Timer end,
      @TimerId(FORGET) Timer forget,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    OpenFile file = fileState.read();
    if (file == null) {
      return;
    }
    long now = check.getCurrentRelativeTime().getMillis();
    long fired = context.fireTimestamp().getMillis();
    // A timer firing before its time means the runner is draining timers because the input ended
    // (Flink does so before the final watermark): close now, or a re-armed timer would loop.
    boolean inputEnded = fired > now;
    if (file.closesAtBundleEnd) {
      if (closesAtBundleEnd.closedEarlier(key, file)) {
        settleClosed(file, check, end, forget, fileState);
        return;
      }
      if (!inputEnded) {
        // closes at the end of this bundle; look again after it to settle its state
        check
            .withOutputTimestamp(new Instant(file.minTimestamp))
            .set(new Instant(schedule.afterBundleEnd(now)));
        return;
      }
    }
    if (inputEnded || schedule.isDue(file, Math.max(now, fired))) {
      // emitted at the hold: the file's min timestamp
      out.output(close(key, file, check, end, forget, fileState, lastCounter));
    } else {
      check
          .withOutputTimestamp(new Instant(file.minTimestamp))
          .set(new Instant(schedule.nextCheck(file, now)));
    }
  }

  @OnTimer(END)
  public void onEnd(
      @Key WriterKey key,
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(LAST_COUNTER) ValueState<Long> lastCounter,
      @TimerId(CHECK) Timer check,
      @TimerId(END) Timer end,
      @TimerId(FORGET) Timer forget,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    OpenFile file = fileState.read();
    if (file == null) {
      return;
    }
    if (closesAtBundleEnd.closedEarlier(key, file)) {
      settleClosed(file, check, end, forget, fileState);
    } else {
      out.output(close(key, file, check, end, forget, fileState, lastCounter));
    }
  }

  /**
   * Drops {@code lastCounter} once the key has no open file and no hidden file left (all
   * published), after deleting leftovers of failed attempts; otherwise tries again later.
   */
  @OnTimer(FORGET)
  public void onForget(
      OnTimerContext context,
      @Key WriterKey key,
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(LAST_COUNTER) ValueState<Long> lastCounter,
      @TimerId(FORGET) Timer forget)
      throws IOException {
    Long last = lastCounter.read();
    if (last == null || fileState.read() != null) {
      return; // a new file is open: its close sets the timer again
    }
    long now = forget.getCurrentRelativeTime().getMillis();
    if (context.fireTimestamp().getMillis() > now) {
      lastCounter.clear(); // the input ended (timers drained early): nothing follows
      return;
    }
    if (leftovers.mayForget(key, last)) {
      lastCounter.clear();
    } else {
      forget.withNoOutputTimestamp().offset(FORGET_AFTER).setRelative();
    }
  }

  /**
   * Opens the key's next file, with a counter above every earlier one, after deleting what failed
   * attempts left ({@link LeftoverFiles#deleteBeforeOpen}).
   */
  private OpenFile open(WriterKey key, long now, ValueState<Long> lastCounter) throws IOException {
    leftovers.deleteBeforeOpen(key, lastCounter.read());
    long counter = takeCounter(lastCounter);
    return new OpenFile(
        key.partitionPath(), files.inProgressName(key.writerId(), counter), counter, now);
  }

  /** The key's next part file counter ({@link LeftoverFiles#nextCounter}), kept as its last. */
  private static long takeCounter(ValueState<Long> lastCounter) {
    long counter = LeftoverFiles.nextCounter(lastCounter.read());
    lastCounter.write(counter);
    return counter;
  }

  /**
   * Finishes the hidden part file ({@link PartFileFinisher}), clears the key's state and timers
   * (releasing the watermark hold) and returns the file for the publisher.
   */
  private WrittenFile close(
      WriterKey key,
      OpenFile file,
      Timer check,
      Timer end,
      Timer forget,
      ValueState<OpenFile> fileState,
      ValueState<Long> lastCounter)
      throws IOException {
    segments.close(key);
    closesAtBundleEnd.remove(key);
    WrittenFile closed = finisher.finishNotOverwriting(file, () -> takeCounter(lastCounter));
    settleClosed(file, check, end, forget, fileState);
    return closed;
  }

  /**
   * Clears the state of a closed file and releases the watermark hold of both timers, then
   * schedules the forget; also for a file closed at a bundle end ({@code @FinishBundle} cannot
   * touch state or timers). Not {@code check.clear()}/{@code end.clear()}: on Flink these keep the
   * hold (see {@link TimerHolds}); the replacements fire without a file and do nothing.
   */
  private static void settleClosed(
      OpenFile file, Timer check, Timer end, Timer forget, ValueState<OpenFile> fileState) {
    fileState.clear();
    TimerHolds.releaseProcessingTime(check);
    TimerHolds.releaseEventTime(end, new Instant(file.maxTimestamp));
    forget.withNoOutputTimestamp().offset(FORGET_AFTER).setRelative();
  }

  /**
   * The key's open file as a copy to change (never the instance state returned: {@link OpenFile}).
   */
  private static @Nullable OpenFile copyOfState(ValueState<OpenFile> fileState) {
    OpenFile file = fileState.read();
    return file == null ? null : OpenFile.copyOf(file);
  }

  /** Sets both timers with the file's minimum timestamp as their output timestamp (the hold). */
  private void arm(OpenFile file, long now, Timer check, Timer end) {
    Instant hold = new Instant(file.minTimestamp);
    check.withOutputTimestamp(hold).set(new Instant(schedule.nextCheck(file, now)));
    end.withOutputTimestamp(hold).set(GlobalWindow.INSTANCE.maxTimestamp());
  }
}
