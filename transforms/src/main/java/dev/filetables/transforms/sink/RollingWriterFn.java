package dev.filetables.transforms.sink;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
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
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming sink's writer: per {@link WriterKey} at most one open part file, kept entirely in
 * keyed state, rolled by {@link RollingPolicy}, and emitted as a hidden {@link WrittenFile} for the
 * publisher. See {@link StreamingWrite} for why the design guarantees exactly-once output.
 *
 * <h3>State per key (cleared when the file closes)</h3>
 *
 * <ul>
 *   <li>{@code file}: an {@link OpenFile} (name, times, counts, number of segments written);
 *   <li>{@code rows}: the rows not yet in a segment, at most about {@link RollingPolicy#bufferSize}
 *       estimated bytes; when full they are written as the next segment and the bag is emptied;
 *   <li>timer {@code check} (processing time): the file's next rollover/inactivity deadline on the
 *       check-interval grid;
 *   <li>timer {@code end} (event time, end of the global window): closes the file when the input
 *       ends (bounded input, drain).
 * </ul>
 *
 * <h3>Watermark</h3>
 *
 * Both timers carry the smallest event timestamp of the open file's rows as output timestamp, which
 * holds the output watermark there until the file is emitted; files closed by a timer are emitted
 * at that timestamp, files closed by size at the timestamp of the row that filled them. Closing
 * clears both timers and so releases the hold; idle files close by inactivity, so an idle partition
 * never holds the watermark for longer than inactivity-interval + check-interval.
 */
class RollingWriterFn extends DoFn<KV<WriterKey, Row>, WrittenFile> {
  private static final Logger LOG = LoggerFactory.getLogger(RollingWriterFn.class);

  private static final String FILE = "file";
  private static final String ROWS = "rows";
  private static final String CHECK = "check";
  private static final String END = "end";

  @StateId(FILE)
  private final StateSpec<ValueState<OpenFile>> fileSpec = StateSpecs.value(OpenFile.Coder.of());

  @StateId(ROWS)
  private final StateSpec<BagState<Row>> rowsSpec;

  @TimerId(CHECK)
  private final TimerSpec checkSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId(END)
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  private final TableSpec table;
  private final Schema fileSchema;
  private final PartFiles files;
  private final RollingPolicy policy;

  private transient FileFormat format;
  private transient FileMerger merger;

  RollingWriterFn(TableSpec table, PartFiles files, RollingPolicy policy) {
    this.table = table;
    this.fileSchema = table.fileSchema();
    this.files = files;
    this.policy = policy;
    this.rowsSpec = StateSpecs.bag(RowCoder.of(fileSchema));
  }

  @Setup
  public void setup() {
    format = FileFormats.of(table.options());
    merger = FileMergers.of(format, fileSchema);
  }

  @ProcessElement
  public void processElement(
      @Element KV<WriterKey, Row> element,
      @Timestamp Instant timestamp,
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(ROWS) BagState<Row> rows,
      @TimerId(CHECK) Timer check,
      @TimerId(END) Timer end,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    long now = check.getCurrentRelativeTime().getMillis();
    OpenFile file = fileState.read();
    boolean holdMoved;
    if (file == null) {
      WriterKey key = element.getKey();
      long counter = System.currentTimeMillis();
      file =
          new OpenFile(
              key.partitionPath(), files.inProgressName(key.writerId(), counter), counter, now);
      holdMoved = true;
    } else {
      holdMoved = timestamp.getMillis() < file.minTimestamp;
    }
    Row row = element.getValue();
    rows.add(row);
    file.add(timestamp.getMillis(), RowSizes.estimate(row), now);

    if (file.bufferedEstimate >= policy.bufferSize()) {
      writeSegment(file, rows);
    }
    if (file.estimatedSize() >= policy.fileSize() && !file.sizeRatioKnown()) {
      writeSegment(file, rows); // the estimate may be far off (compression): learn the real size
    }
    if (file.estimatedSize() >= policy.fileSize()) {
      out.output(close(file, rows, check, end, fileState));
      return;
    }
    fileState.write(file);
    if (holdMoved) {
      // allowed here: the new hold is this element's own timestamp
      arm(file, check, end);
    }
  }

  @OnTimer(CHECK)
  public void onCheck(
      OnTimerContext context,
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(ROWS) BagState<Row> rows,
      @TimerId(CHECK) Timer check,
      @TimerId(END) Timer end,
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
    if (inputEnded || policy.isDue(Math.max(now, fired), file.createdAt, file.lastWrite)) {
      out.output(close(file, rows, check, end, fileState)); // at the hold: the file's min timestamp
    } else {
      check
          .withOutputTimestamp(new Instant(file.minTimestamp))
          .set(new Instant(policy.nextCheck(file.createdAt, file.lastWrite)));
    }
  }

  @OnTimer(END)
  public void onEnd(
      @StateId(FILE) ValueState<OpenFile> fileState,
      @StateId(ROWS) BagState<Row> rows,
      @TimerId(CHECK) Timer check,
      @TimerId(END) Timer end,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    OpenFile file = fileState.read();
    if (file != null) {
      out.output(close(file, rows, check, end, fileState));
    }
  }

  /** Sets both timers with the file's minimum timestamp as their output timestamp (the hold). */
  private void arm(OpenFile file, Timer check, Timer end) {
    Instant hold = new Instant(file.minTimestamp);
    check.withOutputTimestamp(hold).set(new Instant(policy.nextCheck(file.createdAt, file.lastWrite)));
    end.withOutputTimestamp(hold).set(GlobalWindow.INSTANCE.maxTimestamp());
  }

  private void writeSegment(OpenFile file, BagState<Row> rows) throws IOException {
    if (file.bufferedRows == 0) {
      return;
    }
    long bytes =
        SegmentFiles.writeRows(
            format,
            fileSchema,
            files.directory(file.partitionPath),
            SegmentFiles.segmentName(file.name, file.segments),
            rows.read());
    file.segmentWritten(bytes);
    rows.clear();
  }

  /**
   * Finishes the hidden part file from its segments and buffered rows, clears the key's state and
   * timers (releasing the watermark hold) and returns the file for the publisher. Segments stay on
   * disk until the file is published: a restore to a checkpoint taken before this close needs them.
   */
  private WrittenFile close(
      OpenFile file,
      BagState<Row> rows,
      Timer check,
      Timer end,
      ValueState<OpenFile> fileState)
      throws IOException {
    Path dir = files.directory(file.partitionPath);
    String target = file.name;
    if (Files.exists(dir.resolve(PartFileName.visibleOf(target)))) {
      // Only after a restore from a checkpoint older than this file's publication (e.g. an old
      // savepoint): its rows were committed before and are being replayed. Never overwrite.
      target = files.inProgressName(PartFileName.parse(target).get().writer(), nextCounter(file));
      LOG.warn(
          "{} was already published (restored from an older checkpoint?); writing the replayed rows"
              + " as {} instead",
          PartFileName.visibleOf(file.name),
          target);
    }
    long size;
    if (file.segments == 0) {
      size = SegmentFiles.writeRows(format, fileSchema, dir, target, rows.read());
    } else {
      writeSegment(file, rows);
      size = SegmentFiles.merge(merger, dir, file.name, file.segments, target);
    }
    rows.clear();
    fileState.clear();
    check.clear();
    end.clear();
    waitPastCounter(file.counter);
    return WrittenFile.of(
        file.partitionPath,
        dir.resolve(target).toString(),
        file.rows,
        size,
        new Instant(file.minTimestamp),
        new Instant(file.maxTimestamp));
  }

  private static long nextCounter(OpenFile file) {
    waitPastCounter(file.counter);
    return System.currentTimeMillis();
  }

  /**
   * Part file counters are wall-clock milliseconds at opening. Once a file closes, its key's state is
   * gone, so the next file of the key must not open within the same millisecond; waiting here (at
   * most about a millisecond, and only for files closed right after opening) guarantees that without
   * keeping any per-key state after the close.
   */
  private static void waitPastCounter(long counter) {
    while (System.currentTimeMillis() <= counter) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
