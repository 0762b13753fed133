package dev.filetables.transforms.source.watch;

import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRange;
import dev.filetables.transforms.source.FileRangeReader;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.ManualWatermarkEstimator;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.WatermarkEstimators;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watched source: a splittable DoFn that both watches the table directory and reads the new
 * files, one restriction per shard (files are assigned to shards by a hash of their path).
 *
 * <p>Watching and reading are one step because the step that emits rows with data timestamps has to
 * own the watermark: a downstream reader could not hold or advance it. Its restriction ({@link
 * WatchRestriction}) is the shard's entire memory — cursor, files of the lateness window, pending
 * ranges with rows already emitted, watermark inputs — and every emitted row is claimed in it, so a
 * runner checkpoint is exactly "emitted so far" and a restore continues after the last emitted row:
 * no file read twice, none skipped, including a checkpoint in the middle of a file.
 *
 * <p>Ranges are read through {@link FileRangeReader}, so the table's {@code source.bad-records}
 * policy applies as in the bounded read. A bad record is a step of its range like a row: it is
 * claimed (counted in the range's {@code rowsDone}) before it is counted, logged or dead-lettered,
 * also when the claim is refused and another instance reads the step again after the resume, and a
 * resume steps over it silently, so no dead letter is emitted twice either.
 *
 * <p>One call works until the runner checkpoints it or until nothing is pending and the next poll
 * is not due; then it resumes after the remaining interval.
 */
@DoFn.UnboundedPerElement
final class WatchAndReadFn extends DoFn<byte[], Row> {
  private static final Logger LOG = LoggerFactory.getLogger(WatchAndReadFn.class);
  private static final long MIN_MILLIS = BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis();
  private static final long MAX_MILLIS = BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis();
  private static final int MAX_OPEN_RANGES = 8;

  private final WatchSettings settings;
  private final EventTimes eventTimes;

  private final Counter filesDiscovered = Metrics.counter(WatchAndReadFn.class, "files-discovered");
  private final Counter rowsRead = Metrics.counter(WatchAndReadFn.class, "rows-read");

  /** Polls of all shards; {@code listings} (DirectoryPoller) counts the listings they shared. */
  private final Counter polls = Metrics.counter(WatchAndReadFn.class, "polls");

  private final Distribution listingMillis =
      Metrics.distribution(WatchAndReadFn.class, "listing-millis");

  /** Rows of the table schema. */
  static final TupleTag<Row> ROWS = new TupleTag<Row>("rows") {};

  /** {@link DeadLetterTable} rows (policy {@code dead-letter} only). */
  static final TupleTag<Row> DEAD_LETTERS = new TupleTag<Row>("deadLetters") {};

  private final FileRangeReader reader;

  private transient DirectoryPoller poller;

  WatchAndReadFn(WatchSettings settings) {
    this.settings = settings;
    this.eventTimes = new EventTimes(settings.table());
    this.reader = new FileRangeReader(settings.table());
  }

  @Setup
  public void setup() {
    poller = new DirectoryPoller(settings, SharedListings.PROCESS);
  }

  @GetInitialRestriction
  public WatchRestriction initialRestriction() {
    return WatchRestriction.initial(0, 1);
  }

  @SplitRestriction
  public void splitRestriction(
      @Restriction WatchRestriction restriction, OutputReceiver<WatchRestriction> out) {
    if (restriction.shards == 1
        && restriction.cursorMillis == WatchRestriction.UNSET
        && restriction.pending.isEmpty()
        && !restriction.finished) {
      for (int shard = 0; shard < settings.shards(); shard++) {
        out.output(WatchRestriction.initial(shard, settings.shards()));
      }
    } else {
      out.output(restriction);
    }
  }

  @NewTracker
  public WatchTracker newTracker(@Restriction WatchRestriction restriction) {
    return new WatchTracker(restriction);
  }

  @GetRestrictionCoder
  public Coder<WatchRestriction> restrictionCoder() {
    return WatchRestrictionCoder.of();
  }

  @GetSize
  public double size(@Restriction WatchRestriction restriction) {
    return restriction.pending.size() + 1;
  }

  @GetInitialWatermarkEstimatorState
  public Instant initialWatermark() {
    return BoundedWindow.TIMESTAMP_MIN_VALUE;
  }

  @GetWatermarkEstimatorStateCoder
  public Coder<Instant> watermarkStateCoder() {
    return InstantCoder.of();
  }

  @NewWatermarkEstimator
  public WatermarkEstimators.Manual newWatermarkEstimator(@WatermarkEstimatorState Instant state) {
    return new WatermarkEstimators.Manual(state);
  }

  @ProcessElement
  public ProcessContinuation processElement(
      RestrictionTracker<WatchRestriction, WatchClaim> tracker,
      ManualWatermarkEstimator<Instant> watermark,
      MultiOutputReceiver out)
      throws IOException {
    while (true) {
      WatchRestriction restriction = tracker.currentRestriction();
      if (restriction.finished) {
        return ProcessContinuation.stop();
      }
      PendingRange head = restriction.pending.peekFirst();
      if (head == null) {
        long now = System.currentTimeMillis();
        if (restriction.nextPollAtMillis != WatchRestriction.UNSET
            && now < restriction.nextPollAtMillis) {
          advance(watermark, restriction, now);
          return ProcessContinuation.resume()
              .withResumeDelay(Duration.millis(restriction.nextPollAtMillis - now));
        }
        long started = System.nanoTime();
        PollOutcome poll = poller.poll(restriction, now);
        listingMillis.update((System.nanoTime() - started) / 1_000_000);
        if (!tracker.tryClaim(WatchClaim.poll(poll))) {
          return ProcessContinuation.stop();
        }
        polls.inc();
        filesDiscovered.inc(poll.newFiles().size());
        if (!poll.newFiles().isEmpty() || poll.deferredFiles() > 0) {
          LOG.info(
              "Table `{}` shard {}/{}: {} new file(s){}",
              settings.table().name(),
              restriction.shard,
              restriction.shards,
              poll.newFiles().size(),
              poll.deferredFiles() > 0
                  ? ", " + poll.deferredFiles() + " left for later polls"
                  : "");
        }
        advance(watermark, tracker.currentRestriction(), now);
        continue;
      }
      if (!readRange(head, tracker, watermark, out)) {
        return ProcessContinuation.stop();
      }
      if (!tracker.tryClaim(WatchClaim.rangeDone())) {
        return ProcessContinuation.stop();
      }
      advance(watermark, tracker.currentRestriction(), System.currentTimeMillis());
    }
  }

  /**
   * A range cursor left open when a checkpoint interrupted it: the runner usually resumes the shard
   * on this same instance right away, and reopening would re-parse every record already emitted.
   */
  private static final class OpenRange {
    /** The range's steps, parsed ahead on a helper thread from where the claimed ones end. */
    final ReadAhead steps;

    /** Steps (rows and bad records) taken and claimed. */
    long done;

    /** A step taken but not claimed (the claim was refused by the checkpoint), emitted next. */
    FileRangeReader.Step unclaimed;

    OpenRange(ReadAhead steps, long done) {
      this.steps = steps;
      this.done = done;
    }

    void close() {
      steps.close();
    }
  }

  private transient Map<String, OpenRange> openRanges;

  @Teardown
  public void teardown() {
    if (openRanges != null) {
      openRanges.values().forEach(OpenRange::close);
      openRanges.clear();
    }
  }

  private static String key(PendingRange head) {
    return head.file.path() + "@" + head.range;
  }

  /**
   * The open cursor of {@code head}, positioned after its claimed steps. Replayed steps report
   * nothing: their rows were emitted and their bad records counted and dead-lettered before.
   */
  private OpenRange open(PendingRange head) throws IOException {
    if (openRanges == null) {
      openRanges = new LinkedHashMap<>();
    }
    OpenRange open = openRanges.remove(key(head));
    if (open != null && open.done == head.rowsDone) {
      return open;
    }
    if (open != null) {
      open.close(); // another position (a restore or a retry): read again from the start
    }
    FileRangeReader.Cursor cursor = reader.open(FileRange.of(head.file, head.range));
    long skipped;
    try {
      skipped = cursor.skip(head.rowsDone);
    } catch (IOException | RuntimeException e) {
      cursor.close();
      throw e;
    }
    if (skipped < head.rowsDone && !cursor.result().vanished()) {
      cursor.close();
      throw new IOException(
          head.file.path()
              + " range "
              + head.range
              + " has fewer than the "
              + head.rowsDone
              + " records already emitted from it: the file changed after it was listed");
    }
    // a file gone since (counted as vanished) has nothing more to read: the cursor has ended
    return new OpenRange(ReadAhead.start(cursor), skipped);
  }

  /**
   * Reads the rest of {@code head}, each step (row or bad record) claimed before it is emitted;
   * false when a claim was refused (checkpoint: the residual resumes after the last claimed step,
   * and the cursor stays open for that).
   */
  private boolean readRange(
      PendingRange head,
      RestrictionTracker<WatchRestriction, WatchClaim> tracker,
      ManualWatermarkEstimator<Instant> watermark,
      MultiOutputReceiver out)
      throws IOException {
    OutputReceiver<Row> rowsOut = out.get(ROWS);
    OpenRange open = open(head);
    boolean done = false;
    long rows = 0;
    try {
      while (true) {
        FileRangeReader.Step step = open.unclaimed != null ? open.unclaimed : open.steps.next();
        open.unclaimed = null;
        if (step == null) {
          done = true;
          return true;
        }
        Row row = step.row();
        long eventMillis = row == null ? WatchRestriction.UNSET : eventTimes.eventMillis(row);
        if (!tracker.tryClaim(WatchClaim.row(eventMillis))) {
          open.unclaimed = step;
          if (openRanges.size() >= MAX_OPEN_RANGES) {
            OpenRange oldest = openRanges.remove(openRanges.keySet().iterator().next());
            oldest.close();
          }
          openRanges.put(key(head), open);
          return false;
        }
        open.done++;
        step.taken();
        // not inside the reader's error handling: a failure downstream is not a read failure
        if (row != null) {
          long timestamp =
              eventMillis != WatchRestriction.UNSET ? eventMillis : head.fileTimeMillis;
          rowsOut.outputWithTimestamp(row, new Instant(clamp(timestamp)));
          rows++;
        } else if (step.deadLetter() != null) {
          // never behind this shard's watermark, so the dead-letter sink never sees it as late
          long timestamp = Math.max(head.fileTimeMillis, watermark.currentWatermark().getMillis());
          out.get(DEAD_LETTERS)
              .outputWithTimestamp(step.deadLetter(), new Instant(clamp(timestamp)));
        }
      }
    } catch (IOException | RuntimeException e) {
      done = true;
      throw e;
    } finally {
      rowsRead.inc(rows); // once per call, not per row: the counter is looked up on every inc
      if (done) {
        open.close();
      }
    }
  }

  /** Moves the shard's watermark forward to what its restriction allows (never back). */
  private void advance(ManualWatermarkEstimator<Instant> watermark, WatchRestriction r, long now) {
    long target = watermarkMillis(r, now);
    if (target > watermark.currentWatermark().getMillis()) {
      watermark.setWatermark(new Instant(target));
    }
  }

  /**
   * The shard's watermark: with a WATERMARK clause the largest event time emitted minus its delay;
   * without, the oldest file time still pending, bounded by the listing's horizon. After the idle
   * timeout with nothing pending and no new file, at least processing time minus the timeout.
   */
  long watermarkMillis(WatchRestriction r, long now) {
    long target;
    if (eventTimes.fromData()) {
      target =
          r.maxEventMillis == WatchRestriction.UNSET
              ? MIN_MILLIS
              : r.maxEventMillis - eventTimes.delayMillis();
    } else {
      target = r.horizonMillis == WatchRestriction.UNSET ? MIN_MILLIS : r.horizonMillis;
      for (PendingRange p : r.pending) {
        target = Math.min(target, p.fileTimeMillis);
      }
    }
    long idle = settings.idleTimeoutMillis();
    if (idle > 0
        && r.pending.isEmpty()
        && r.lastNewFileAtMillis != WatchRestriction.UNSET
        && now - r.lastNewFileAtMillis >= idle) {
      target = Math.max(target, now - idle);
    }
    return clamp(target);
  }

  private static long clamp(long millis) {
    return Math.max(MIN_MILLIS, Math.min(MAX_MILLIS - 1, millis));
  }
}
