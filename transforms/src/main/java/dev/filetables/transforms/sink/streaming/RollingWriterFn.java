package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.ConcatenatingMerger;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.runner.CheckpointClock;
import dev.filetables.transforms.runner.SinkRunnerOptions;
import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.segment.FileRowCoder;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import dev.filetables.transforms.sink.segment.SegmentKind;
import dev.filetables.transforms.sink.segment.SegmentWriter;
import dev.filetables.transforms.sink.segment.SpillMerger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming sink's writer: per {@link WriterKey} at most one open part file, rolled by {@link
 * RollingPolicy}, and emitted as a hidden {@link WrittenFile} for the publisher. See {@link
 * StreamingWrite} for why the design guarantees exactly-once output.
 *
 * <h3>Rows go to disk, state only names files</h3>
 *
 * The rows of an open file are written to hidden <em>segment</em> files, one per bundle in which
 * the key got rows: at the key's first row of a bundle, the writer begins segment {@code n =
 * file.segments} under its name derived from the file ({@link SegmentFiles#segmentName}), records
 * {@code segments = n + 1} in state right away, and appends the bundle's rows of the key to it.
 * {@code @FinishBundle} closes every open segment (a segment also closes early once it reaches the
 * segment size, see {@link RollingPolicy#segmentSize}, and the next row begins the next one). A
 * roll first closes the key's open segment, then merges the file's segment files (segments 0..n-1,
 * some combined, see below) into the hidden part file ({@link SegmentFiles#merge}). Memory per open
 * key is a stream buffer, or for Parquet segments of {@link SegmentKind#FORMAT} the pages of one
 * row group; Beam state holds a few numbers per key.
 *
 * <p>Why a segment counted in state is always complete on disk when that state is committed: the
 * Flink runner finishes the open bundle inside {@code snapshotState}, before the keyed state is
 * snapshotted ({@code DoFnOperator.snapshotState} calls {@code invokeFinishBundle} and then the
 * operator's state snapshot), so the segments of the bundle are closed before any checkpoint can
 * record their count. A segment begun after the checkpoint is either rewritten under the same name
 * when the input is replayed after a restore (the restored count says which segment comes next;
 * opening replaces the file), or it lies beyond the count that ends up in the closed file and is
 * deleted with the file's other segments when the file is published. On the Direct runner the state
 * changes and the output of a bundle are committed together after {@code @FinishBundle}; a retried
 * bundle starts from the old count and rewrites its segment.
 *
 * <h3>Combining segment files while the file is open</h3>
 *
 * A file open for long would otherwise have one hidden segment file per bundle (6,400 files after
 * 30 s with 200 open partitions). Before a segment begins, {@link SegmentCombiner} may say that the
 * last complete segment files are to become one ({@code .seg-<first>-<last>.inprogress}, joined
 * without re-encoding: byte concatenation for csv/json and spill segments, block copy for Avro,
 * row-group copy for Parquet segments), which keeps at most 16 per open file. Exactly-once:
 *
 * <ul>
 *   <li>The plan and every name follow from the state ({@link OpenFile#starts}), so a replay after
 *       a restore combines the same segments under the same names, rewriting what a failed attempt
 *       wrote; a combined name always covers more segments than each file it replaces, so it is
 *       never the name of a file the restored state still needs.
 *   <li>The combined file is written completely in {@code @ProcessElement}, before the state names
 *       it (written back at the end of the element): a checkpoint whose state names it has it.
 *   <li>The replaced files stay until a completed checkpoint holds the state without them: the
 *       bundle finalizer of the bundle deletes them (Flink runs it when the checkpoint taken after
 *       the bundle completes; a bundle ends before any snapshot of its state). A restore to an
 *       earlier checkpoint finds them intact; one to a later checkpoint finds the combined file. A
 *       finalizer lost in a failure leaves them to the publish step, which deletes every {@code
 *       .part-…<ext>.*.inprogress} of the part file ({@code PartitionCompactor.deleteDerived}). On
 *       the Direct runner (never restores) they are deleted at once.
 *   <li>Combines happen only where a segment begins ({@code @ProcessElement}: the only method that
 *       gets a {@link BundleFinalizer} on Beam 2.62's non-portable runners), never in a timer or in
 *       {@code @FinishBundle}; a file that closes at the bundle end merges the state's segment
 *       files as they are at that point, which that bundle's state holds too.
 * </ul>
 *
 * A restore from a savepoint older than the last completed checkpoint may miss replaced files, as
 * it already missed the segments of files published since.
 *
 * <h3>State per key (cleared when the file closes)</h3>
 *
 * <ul>
 *   <li>{@code file}: an {@link OpenFile} (name, times, row count, number of segments begun and
 *       which segment files hold them, and whether it closes at the end of the bundle that marked
 *       it: roll at the commit point, see {@link #finishBundle} and {@link StreamingWrite});
 *   <li>timer {@code check} (processing time): the file's next rollover/inactivity deadline on the
 *       check-interval grid, or on Flink shortly before the checkpoint nearest to it (see {@link
 *       RollingPolicy#nextAligned});
 *   <li>timer {@code end} (event time, end of the global window): closes the file when the input
 *       ends (bounded input, drain).
 * </ul>
 *
 * Only {@code lastCounter}, the counter of the key's latest file, outlives the file, together with
 * the timer {@code forget}: it keeps counters increasing and tells which hidden files of this
 * writer a failed attempt left behind, and it is dropped once all the key's files are published.
 *
 * <h3>Size</h3>
 *
 * A file rolls by size on the real bytes of its segments ({@link SegmentWriter#bytes}); the bytes
 * of {@link SegmentKind#SPILL} segments are scaled by the ratio of part file to spill bytes learnt
 * from this writer's previous rolls (1 until then, so an early file rolls smaller, never larger).
 *
 * <h3>Leftovers of failed attempts</h3>
 *
 * After a restore, the files a failed attempt opened after the checkpoint are unknown to the
 * restored state; the partition commit would wait for them forever. They are exactly this writer's
 * hidden files with a counter above {@code lastCounter} (counters only grow, and every file that
 * may still be published was opened before), so the writer deletes them when it opens its next
 * file, and those above the closing file's counter when it closes a file (a file open in the
 * restored state may have been closed and followed by others in the failed attempt). Rows are
 * assigned to writers by a function of the row ({@link AssignWritersFn}), so the replayed rows
 * reach the same writer and trigger this. The {@code forget} timer cleans up once more before
 * dropping {@code lastCounter}, which it only does when no hidden file of the key is left, so a
 * file that still waits for its checkpoint is never mistaken for a leftover.
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

  /**
   * The runner restores state (Flink): segment files replaced by a combined one are deleted only
   * once a completed checkpoint holds the state without them (a bundle finalizer), not at once.
   */
  private final boolean restoresState;

  private transient FileFormat format;
  private transient FileMerger merger;

  /** Combines segment files of an open file into one segment file of the same kind. */
  private transient FileMerger combining;

  /**
   * Segment files replaced by combined ones in the current bundle: deleted by the bundle's
   * finalizer once the checkpoint after the bundle completed (a new list per bundle).
   */
  private transient List<Path> replacedInBundle;

  /** A combine happened in the current element (for the failpoint after its state write). */
  private transient String combinedInElement;

  /** Decodes the rows of a batch when they cannot be appended as they are. */
  private transient org.apache.beam.sdk.coders.Coder<Row> rowCoder;

  private transient boolean commitWatched;

  /** Files may close at a bundle end (roll at the commit point); null until the first bundle. */
  private transient Boolean rollAtCommit;

  /** The segments open in the current bundle, by key; all closed at the end of the bundle. */
  private transient Map<WriterKey, OpenSegment> openSegments;

  /**
   * Files marked in this bundle to close at its end ({@link OpenFile#closesAtBundleEnd}), by key:
   * closed and emitted by {@code @FinishBundle}. A marked file in state whose key is not here
   * belongs to a bundle that has ended, so it is closed already.
   */
  private transient Map<WriterKey, OpenFile> closingAtBundleEnd;

  /** Part file bytes per spill byte, learnt from this writer's rolls of spill segments. */
  private transient double spillRatio;

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
    format = FileFormats.of(table.options());
    merger =
        segmentKind == SegmentKind.SPILL
            ? new SpillMerger(format, fileSchema)
            : FileMergers.of(format, fileSchema);
    // spill segments are rows one after the other: their bytes join as they are
    combining = segmentKind == SegmentKind.SPILL ? ConcatenatingMerger.INSTANCE : merger;
    openSegments = new HashMap<>();
    closingAtBundleEnd = new HashMap<>();
    rowCoder = FileRowCoder.of(fileSchema);
    spillRatio = 1.0;
  }

  @StartBundle
  public void startBundle(PipelineOptions options) {
    commitWatched = false;
    replacedInBundle = null;
    if (rollAtCommit == null) {
      rollAtCommit =
          commitInterval > 0 && SinkRunnerOptions.flinkFinishBundleBeforeCheckpointing(options);
    }
    if (WARNED.add(files.writeUuid())) {
      StreamingWrite.smallBundleWarning(table.name(), options).ifPresent(LOG::warn);
      if (commitInterval > 0 && !rollAtCommit) {
        LOG.info(
            "FileTableIO.write(`{}`): --finishBundleBeforeCheckpointing=true lets a file close at the"
                + " checkpoint itself and be published by it (rows visible within about one checkpoint"
                + " interval); without it rolls are timed to predicted checkpoints",
            table.name());
      }
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
    completeSegments();
    if (closingAtBundleEnd.isEmpty()) {
      return;
    }
    String last = null;
    for (OpenFile file : closingAtBundleEnd.values()) {
      WrittenFile closed = finish(file);
      SinkFailpoints.reached(SinkFailpoints.Point.BUNDLE_END_MERGED, closed.path());
      context.output(closed, new Instant(file.minTimestamp), GlobalWindow.INSTANCE);
      last = closed.path();
    }
    closingAtBundleEnd.clear();
    SinkFailpoints.reached(SinkFailpoints.Point.BUNDLE_END_EMITTED, last);
  }

  private void completeSegments() throws IOException {
    IOException failure = null;
    for (OpenSegment segment : openSegments.values()) {
      try {
        segment.writer.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = new IOException("Cannot complete segment " + segment.writer.file(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    openSegments.clear();
    if (failure != null) {
      throw failure;
    }
  }

  @Teardown
  public void teardown() {
    if (openSegments != null) {
      // only after a failure: the bundle will be retried or the state restored
      openSegments.values().forEach(segment -> segment.writer.abort());
      openSegments.clear();
    }
    if (closingAtBundleEnd != null) {
      closingAtBundleEnd.clear();
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
    if (commitInterval > 0 && !commitWatched) {
      // runs when the checkpoint covering this bundle completes: learns when checkpoints happen
      String writeId = files.writeUuid();
      finalizer.afterBundleCommit(
          Instant.now().plus(Duration.standardHours(1)),
          () -> CheckpointClock.committed(writeId, System.currentTimeMillis()));
      commitWatched = true;
    }
    long now = check.getCurrentRelativeTime().getMillis();
    combinedInElement = null;
    WriterKey key = element.getKey();
    RowBatch batch = element.getValue();
    OpenSegment open = openSegments.get(key);
    // within a bundle the open segment's file is the state's (written back after every batch); a
    // file read from state is copied before it changes (OpenFile: a checkpoint may still be writing
    // it)
    OpenFile file = open != null ? open.file : copyOfState(fileState);
    if (file != null && closedAtEarlierBundleEnd(key, file)) {
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
      SegmentWriter segment = segmentOf(key, file, finalizer);
      if (next == 0 && segment.takesEncoded() && fits(file, segment, batch)) {
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
        if (estimatedSize(file, segment) >= policy.fileSize()) {
          // emitted at the batch's timestamp, its smallest row timestamp
          out.output(close(key, file, check, end, forget, fileState, lastCounter));
          file = null;
          holdMoved = false;
          continue;
        }
      }
      if (segment.bytes() >= policy.segmentSize()) {
        closeSegment(key); // the next row begins the next segment
      }
    }
    if (file == null) {
      return; // the last row filled the file
    }
    if (!file.closesAtBundleEnd && closesAtCommit(file, now)) {
      file.closesAtBundleEnd = true;
    }
    fileState.write(file);
    if (combinedInElement != null) {
      SinkFailpoints.reached(SinkFailpoints.Point.COMBINE_RECORDED, combinedInElement);
    }
    if (file.closesAtBundleEnd) {
      closingAtBundleEnd.put(key, file);
    }
    if (holdMoved) {
      // allowed here: the new hold is at or after this element's timestamp, the batch's smallest
      arm(file, now, check, end);
    }
  }

  /** True when the whole batch can go into the open segment without the file reaching its size. */
  private boolean fits(OpenFile file, SegmentWriter segment, RowBatch batch) {
    long bytes = file.closedBytes + segment.bytes() + batch.encoded().length;
    long estimated = segmentKind == SegmentKind.SPILL ? (long) (bytes * spillRatio) : bytes;
    return estimated < policy.fileSize();
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
      if (closedAtEarlierBundleEnd(key, file)) {
        settleClosed(file, check, end, forget, fileState);
        return;
      }
      if (!inputEnded) {
        // closes at the end of this bundle; look again after it to settle its state
        check
            .withOutputTimestamp(new Instant(file.minTimestamp))
            .set(new Instant(now + Math.max(1, commitInterval / 4)));
        return;
      }
    }
    if (inputEnded || isDue(file, Math.max(now, fired))) {
      // emitted at the hold: the file's min timestamp
      out.output(close(key, file, check, end, forget, fileState, lastCounter));
    } else {
      check
          .withOutputTimestamp(new Instant(file.minTimestamp))
          .set(new Instant(nextCheck(file, now)));
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
    if (closedAtEarlierBundleEnd(key, file)) {
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
    Path dir = files.directory(key.partitionPath());
    String uuid = files.writeUuid();
    SegmentFiles.deleteHidden(dir, uuid, key.writerId(), counter -> counter > last);
    boolean waiting =
        !SegmentFiles.hiddenFiles(dir, uuid, key.writerId(), counter -> true).isEmpty();
    if (waiting || System.currentTimeMillis() <= last) {
      forget.withNoOutputTimestamp().offset(FORGET_AFTER).setRelative();
    } else {
      lastCounter.clear();
    }
  }

  /**
   * Opens the key's next file: deletes what failed attempts left (hidden files of this writer above
   * the last counter, or all of them when the key has no counter, i.e. nothing of it is pending)
   * and picks a counter above every earlier one.
   */
  private OpenFile open(WriterKey key, long now, ValueState<Long> lastCounter) throws IOException {
    Long last = lastCounter.read();
    int deleted =
        SegmentFiles.deleteHidden(
            files.directory(key.partitionPath()),
            files.writeUuid(),
            key.writerId(),
            counter -> last == null || counter > last);
    if (deleted > 0) {
      LOG.info(
          "Deleted {} hidden file(s) of writer {} in '{}' left by a failed attempt",
          deleted,
          key.writerId(),
          key.partitionPath());
    }
    long counter = nextCounter(last);
    lastCounter.write(counter);
    return new OpenFile(
        key.partitionPath(), files.inProgressName(key.writerId(), counter), counter, now);
  }

  /**
   * Roll at the commit point: true when the file should close at the end of this bundle, because
   * its rollover or inactivity deadline comes before the commit point after the next one. On Flink
   * a bundle ends at every checkpoint, and with {@code --finishBundleBeforeCheckpointing=true}
   * before the barrier is sent on, so the closed file reaches the publisher inside that checkpoint
   * and is published when it completes, like Flink's roll on checkpoint: with rollover at the
   * commit interval every file closes at the first checkpoint after its first row, and a row waits
   * at most a commit interval plus the checkpoint's own time. (Without the option the runner emits
   * the bundle's output after the barrier: the file would wait for the next checkpoint, so rolls
   * stay with the timers.) Only when rolls are aligned to commit points; never for a file already
   * published under its name (restored from an older checkpoint, see {@link #close}), which the
   * timers close under another name.
   */
  private boolean closesAtCommit(OpenFile file, long now) {
    return Boolean.TRUE.equals(rollAtCommit)
        && policy.deadline(file.createdAt, file.lastWrite) - commitInterval <= now
        && !Files.exists(
            files.directory(file.partitionPath).resolve(PartFileName.visibleOf(file.name)));
  }

  /**
   * True when {@code file} (the key's state) was marked to close at the end of a bundle that has
   * ended: {@code @FinishBundle} closed and emitted it before any snapshot could commit the mark.
   */
  private boolean closedAtEarlierBundleEnd(WriterKey key, OpenFile file) {
    return file.closesAtBundleEnd && !closingAtBundleEnd.containsKey(key);
  }

  /**
   * The state left by a file closed at a bundle end ({@code @FinishBundle} cannot touch state or
   * timers): clears it, releases the watermark hold of both timers and schedules the forget.
   */
  private static void settleClosed(
      OpenFile file, Timer check, Timer end, Timer forget, ValueState<OpenFile> fileState) {
    fileState.clear();
    TimerHolds.releaseProcessingTime(check);
    TimerHolds.releaseEventTime(end, new Instant(file.maxTimestamp));
    forget.withNoOutputTimestamp().offset(FORGET_AFTER).setRelative();
  }

  private static @org.checkerframework.checker.nullness.qual.Nullable OpenFile copyOfState(
      ValueState<OpenFile> fileState) {
    OpenFile file = fileState.read();
    return file == null ? null : OpenFile.copyOf(file);
  }

  /** Sets both timers with the file's minimum timestamp as their output timestamp (the hold). */
  private void arm(OpenFile file, long now, Timer check, Timer end) {
    Instant hold = new Instant(file.minTimestamp);
    check.withOutputTimestamp(hold).set(new Instant(nextCheck(file, now)));
    end.withOutputTimestamp(hold).set(GlobalWindow.INSTANCE.maxTimestamp());
  }

  /** The last completed commit point, when rolls are aligned to commit points and one was seen. */
  private OptionalLong lastCommit() {
    return commitInterval > 0
        ? CheckpointClock.lastCommit(files.writeUuid())
        : OptionalLong.empty();
  }

  private boolean isDue(OpenFile file, long now) {
    return lastCommit().isPresent()
        ? policy.isDueAligned(now, file.createdAt, file.lastWrite, commitInterval)
        : policy.isDue(now, file.createdAt, file.lastWrite);
  }

  private long nextCheck(OpenFile file, long now) {
    OptionalLong commit = lastCommit();
    if (commit.isPresent()) {
      return policy.nextAligned(
          file.createdAt, file.lastWrite, now, commit.getAsLong(), commitInterval);
    }
    if (commitInterval > 0) {
      // No checkpoint seen yet (the job's first seconds): look again soon, so that the first files
      // are timed to checkpoints as soon as one has been seen, not only after their deadline.
      return Math.min(
          policy.nextCheck(file.createdAt, file.lastWrite, commitInterval),
          now + Math.max(1, commitInterval / 4));
    }
    return policy.nextCheck(file.createdAt, file.lastWrite);
  }

  /**
   * The open segment of the key's file in this bundle; begins the file's next segment (recorded in
   * {@code file}, which the caller writes to state) when there is none, after combining the file's
   * complete segment files when it has too many ({@link #combineSegments}).
   */
  private SegmentWriter segmentOf(WriterKey key, OpenFile file, BundleFinalizer finalizer)
      throws IOException {
    OpenSegment open = openSegments.get(key);
    if (open != null && open.file.name.equals(file.name)) {
      return open.writer;
    }
    if (open != null) {
      closeSegment(key); // cannot happen: a file's close closes its segment first
    }
    Path dir = files.directory(file.partitionPath);
    // the latest segment is a file of its own until the next one begins: combines come after this
    long previousBytes = file.segments == 0 ? 0 : segmentSize(dir, file.name, file.segments - 1);
    combineSegments(dir, file, finalizer);
    int n = file.beginSegment(previousBytes);
    SegmentWriter writer =
        SegmentWriter.open(
            segmentKind, format, fileSchema, dir, SegmentFiles.segmentName(file.name, n));
    openSegments.put(key, new OpenSegment(file, writer));
    return writer;
  }

  /**
   * Combines the tail of the file's complete segment files into one when {@link SegmentCombiner}
   * says so: writes the combined file completely, then records it in {@code file} (the caller
   * writes it to state). The replaced files are deleted at once where the runner never restores
   * state, else by this bundle's finalizer, once the checkpoint taken after the bundle (holding the
   * state without them) has completed; see the class comment.
   */
  private void combineSegments(Path dir, OpenFile file, BundleFinalizer finalizer)
      throws IOException {
    int from = combiner.combineFrom(file.starts, file.segments);
    if (from < 0) {
      return;
    }
    List<String> names = file.segmentFiles();
    List<String> inputs = new ArrayList<>(names.subList(from, names.size()));
    String combined = SegmentFiles.segmentName(file.name, file.firstOf(from), file.segments - 1);
    SegmentFiles.merge(combining, dir, inputs, combined);
    combinedInElement = dir.resolve(combined).toString();
    SinkFailpoints.reached(SinkFailpoints.Point.COMBINE_WRITTEN, combinedInElement);
    file.combinedFrom(from);
    if (!restoresState) {
      inputs.forEach(name -> FileOps.deleteQuietly(dir.resolve(name)));
      return;
    }
    if (replacedInBundle == null) {
      List<Path> replaced = new ArrayList<>();
      replacedInBundle = replaced;
      finalizer.afterBundleCommit(
          Instant.now().plus(Duration.standardDays(1)),
          () -> {
            if (!replaced.isEmpty()) {
              SinkFailpoints.reached(
                  SinkFailpoints.Point.COMBINE_DELETING, replaced.get(0).toString());
            }
            replaced.forEach(FileOps::deleteQuietly);
          });
    }
    inputs.forEach(name -> replacedInBundle.add(dir.resolve(name)));
  }

  private void closeSegment(WriterKey key) throws IOException {
    OpenSegment open = openSegments.remove(key);
    if (open != null) {
      open.writer.close();
    }
  }

  private static long segmentSize(Path dir, String partName, int n) throws IOException {
    Path segment = dir.resolve(SegmentFiles.segmentName(partName, n));
    try {
      return Files.size(segment);
    } catch (NoSuchFileException e) {
      throw new IOException(
          "Segment " + segment + " of an open part file is missing (deleted while the write ran?)",
          e);
    }
  }

  /** Bytes the file would have if it rolled now. */
  private long estimatedSize(OpenFile file, SegmentWriter open) {
    long bytes = file.closedBytes + open.bytes();
    return segmentKind == SegmentKind.SPILL ? (long) (bytes * spillRatio) : bytes;
  }

  /**
   * Finishes the hidden part file from its segments, clears the key's state and timers (releasing
   * the watermark hold) and returns the file for the publisher. Segments stay on disk until the
   * file is published: a restore to a checkpoint taken before this close needs them.
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
    closeSegment(key);
    closingAtBundleEnd.remove(key);
    Path dir = files.directory(file.partitionPath);
    String writer = PartFileName.parse(file.name).get().writer();
    String target = file.name;
    if (Files.exists(dir.resolve(PartFileName.visibleOf(target)))) {
      // Only after a restore from a checkpoint older than this file's publication (e.g. an old
      // savepoint): its rows were committed before and are being replayed. Never overwrite.
      long counter = nextCounter(lastCounter.read());
      lastCounter.write(counter);
      target = files.inProgressName(writer, counter);
      LOG.warn(
          "{} was already published (restored from an older checkpoint?); writing the replayed rows"
              + " as {} instead",
          PartFileName.visibleOf(file.name),
          target);
    }
    WrittenFile closed = finish(file, target);
    fileState.clear();
    // not check.clear()/end.clear(): on Flink these keep the hold (see TimerHolds); the
    // replacements fire without a file and do nothing
    TimerHolds.releaseProcessingTime(check);
    TimerHolds.releaseEventTime(end, new Instant(file.maxTimestamp));
    forget.withNoOutputTimestamp().offset(FORGET_AFTER).setRelative();
    return closed;
  }

  /** {@link #finish(OpenFile, String)} under the file's own name. */
  private WrittenFile finish(OpenFile file) throws IOException {
    return finish(file, file.name);
  }

  /**
   * Merges the file's segments (all complete) into the hidden part file {@code target}, after
   * deleting the writer's hidden files above this file's counter (a failed attempt may have closed
   * this file and opened others: they are leftovers). Touches no state, so {@code @FinishBundle}
   * can use it.
   */
  private WrittenFile finish(OpenFile file, String target) throws IOException {
    Path dir = files.directory(file.partitionPath);
    String writer = PartFileName.parse(file.name).get().writer();
    SegmentFiles.deleteHidden(dir, files.writeUuid(), writer, counter -> counter > file.counter);
    long size = SegmentFiles.merge(merger, dir, file.segmentFiles(), target);
    if (segmentKind == SegmentKind.SPILL) {
      long spilled = file.closedBytes + segmentSize(dir, file.name, file.segments - 1);
      if (spilled > 0) {
        spillRatio = (double) size / spilled;
      }
    }
    return WrittenFile.of(
        file.partitionPath,
        dir.resolve(target).toString(),
        file.rows,
        size,
        new Instant(file.minTimestamp),
        new Instant(file.maxTimestamp));
  }

  /** A segment open in the current bundle and the open file (as in state) it belongs to. */
  private static final class OpenSegment {
    final OpenFile file;
    final SegmentWriter writer;

    OpenSegment(OpenFile file, SegmentWriter writer) {
      this.file = file;
      this.writer = writer;
    }
  }

  /**
   * Part file counters are wall-clock milliseconds at opening, kept strictly increasing per key by
   * the key's last counter while it is known (many files in one millisecond, clocks of another
   * machine after a failover). Once it is dropped (see {@code forget}), the wall clock has passed
   * it.
   */
  private static long nextCounter(Long last) {
    long now = System.currentTimeMillis();
    return last == null ? now : Math.max(now, last + 1);
  }
}
