package dev.filetables.pipelines.orders;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * A deterministic, replayable unbounded source of {@link Orders} rows.
 *
 * <p>Split {@code k} of {@code n} emits rows {@code k, k+n, k+2n, ...}; its {@link Mark checkpoint
 * mark} is the next row it would emit, so a runner that restores the mark (Flink from a checkpoint
 * or savepoint) resumes exactly where the checkpoint was taken and replays the same rows. Row
 * timestamps are {@link Orders#eventTime}; the watermark is {@link
 * Orders#eventTimeLowerBoundMillis} of the next row.
 *
 * <p>Optional: a rate limit (rows per second over all splits, paced per split from the moment its
 * reader starts, so a restored reader does not burst), and a total row count after which each split
 * stops and moves its watermark to the end of time, which lets a streaming job finish. Emission
 * times go to the {@link EmitLog} named by {@code emitLogId}, if one is registered.
 */
@Internal
public final class OrdersSource extends UnboundedSource<Row, OrdersSource.Mark> {
  private static final long serialVersionUID = 1L;

  /**
   * Readers created from a snapshot's checkpoint mark, by source id and split (see {@link
   * #restoring}).
   */
  private static final Map<String, Reader> RESTORED_READERS = new ConcurrentHashMap<>();

  private final String sourceId;
  private final Orders orders;
  private final long totalRows;
  private final double rowsPerSecond;
  private final @Nullable String emitLogId;
  private final boolean restoring;
  private final int splitIndex;
  private final int splitCount;

  private OrdersSource(
      String sourceId,
      Orders orders,
      long totalRows,
      double rowsPerSecond,
      @Nullable String emitLogId,
      boolean restoring,
      int splitIndex,
      int splitCount) {
    this.sourceId = sourceId;
    this.orders = orders;
    this.totalRows = totalRows;
    this.rowsPerSecond = rowsPerSecond;
    this.emitLogId = emitLogId;
    this.restoring = restoring;
    this.splitIndex = splitIndex;
    this.splitCount = splitCount;
  }

  /** An endless, unthrottled source. */
  public static OrdersSource of(Orders orders) {
    return new OrdersSource(
        UUID.randomUUID().toString(), orders, Long.MAX_VALUE, 0, null, false, 0, 1);
  }

  private OrdersSource with(
      long totalRows, double rowsPerSecond, @Nullable String emitLogId, boolean restoring) {
    return new OrdersSource(
        sourceId, orders, totalRows, rowsPerSecond, emitLogId, restoring, splitIndex, splitCount);
  }

  /** Stops after rows {@code 0 .. totalRows-1}; the job can then finish. */
  public OrdersSource withTotalRows(long totalRows) {
    if (totalRows < 0) {
      throw new IllegalArgumentException("totalRows must be >= 0, got " + totalRows);
    }
    return with(totalRows, rowsPerSecond, emitLogId, restoring);
  }

  /** Emits at most this many rows per second over all splits; 0 means as fast as possible. */
  public OrdersSource withRowsPerSecond(double rowsPerSecond) {
    if (rowsPerSecond < 0) {
      throw new IllegalArgumentException("rowsPerSecond must be >= 0, got " + rowsPerSecond);
    }
    return with(totalRows, rowsPerSecond, emitLogId, restoring);
  }

  /**
   * The same source under a fixed id. A job submitted again from another process (to restore a
   * savepoint on a cluster) must build its source with the id of the first job's source, so that
   * {@link #restoring} can pair the fresh splits with the restored readers.
   */
  public OrdersSource withSourceId(String id) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("source id must not be blank");
    }
    return new OrdersSource(
        id, orders, totalRows, rowsPerSecond, emitLogId, restoring, splitIndex, splitCount);
  }

  /** Records emissions in {@link EmitLog#get EmitLog.get(id)}. */
  public OrdersSource withEmitLog(String id) {
    return with(totalRows, rowsPerSecond, id, restoring);
  }

  /**
   * This source for a new job started from a snapshot (savepoint or retained checkpoint) of a job
   * that ran it, in the same JVM.
   *
   * <p>Beam 2.62's Flink source enumerator splits the source again when a job starts from a
   * snapshot and assigns those fresh splits next to the restored ones (apache/beam#31313, fixed
   * after 2.62). The reader then polls both, so every row would be read twice, while it checkpoints
   * and ends by the fresh split alone. A restoring source's fresh split therefore shadows the
   * restored reader of the same split: it emits nothing and reports that reader's watermark,
   * checkpoint mark and source, so the job reads each row once, checkpoints the real position and
   * ends when the restored readers are done. Without the bug (no fresh splits) it does nothing.
   */
  public OrdersSource restoring() {
    return with(totalRows, rowsPerSecond, emitLogId, true);
  }

  public Orders orders() {
    return orders;
  }

  public long totalRows() {
    return totalRows;
  }

  /**
   * Exactly {@code desiredNumSplits} splits, even when some have no rows: the Flink runner signals
   * "no more splits" to a reader without a split and, with checkpointing on, such a reader keeps
   * the job running.
   */
  @Override
  public List<OrdersSource> split(int desiredNumSplits, PipelineOptions options) {
    int n = Math.max(1, desiredNumSplits);
    List<OrdersSource> splits = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      splits.add(
          new OrdersSource(sourceId, orders, totalRows, rowsPerSecond, emitLogId, restoring, k, n));
    }
    return splits;
  }

  @Override
  public UnboundedReader<Row> createReader(PipelineOptions options, @Nullable Mark mark) {
    String key = sourceId + "/" + splitIndex + "/" + splitCount;
    if (mark != null) {
      Reader reader = new Reader(this, mark.nextRow);
      RESTORED_READERS.put(key, reader);
      return reader;
    }
    if (restoring) {
      Reader restored = RESTORED_READERS.get(key);
      if (restored != null) {
        return new ShadowReader(restored);
      }
    }
    return new Reader(this, splitIndex);
  }

  @Override
  public Coder<Mark> getCheckpointMarkCoder() {
    return MarkCoder.INSTANCE;
  }

  @Override
  public Coder<Row> getOutputCoder() {
    return RowCoder.of(Orders.SCHEMA);
  }

  @Override
  public String toString() {
    return "OrdersSource{split "
        + splitIndex
        + "/"
        + splitCount
        + ", totalRows="
        + (totalRows == Long.MAX_VALUE ? "unbounded" : totalRows)
        + ", rowsPerSecond="
        + rowsPerSecond
        + ", partitions="
        + orders.partitions()
        + "}";
  }

  /** The next row a split emits. Nothing to finalize: the source is replayable by construction. */
  public static final class Mark implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    final long nextRow;

    Mark(long nextRow) {
      this.nextRow = nextRow;
    }

    public long nextRow() {
      return nextRow;
    }

    @Override
    public void finalizeCheckpoint() {}

    @Override
    public String toString() {
      return "Mark{nextRow=" + nextRow + "}";
    }
  }

  static final class MarkCoder extends CustomCoder<Mark> {
    static final MarkCoder INSTANCE = new MarkCoder();
    private static final long serialVersionUID = 1L;

    @Override
    public void encode(Mark value, OutputStream out) throws IOException {
      VarLongCoder.of().encode(value.nextRow, out);
    }

    @Override
    public Mark decode(InputStream in) throws IOException {
      return new Mark(VarLongCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}
  }

  /** Stands in for a restored reader of the same split; see {@link #restoring}. */
  private static final class ShadowReader extends UnboundedReader<Row> {
    private final Reader restored;

    ShadowReader(Reader restored) {
      this.restored = restored;
    }

    @Override
    public boolean start() {
      return false;
    }

    @Override
    public boolean advance() {
      return false;
    }

    @Override
    public Row getCurrent() {
      throw new NoSuchElementException("a shadow reader emits nothing");
    }

    @Override
    public Instant getCurrentTimestamp() {
      throw new NoSuchElementException("a shadow reader emits nothing");
    }

    @Override
    public Instant getWatermark() {
      return restored.getWatermark();
    }

    @Override
    public Mark getCheckpointMark() {
      return restored.getCheckpointMark();
    }

    @Override
    public OrdersSource getCurrentSource() {
      return restored.getCurrentSource();
    }

    @Override
    public void close() {}
  }

  private static final class Reader extends UnboundedReader<Row> {
    private final OrdersSource source;
    private final @Nullable EmitLog log;
    private final double nanosPerRow;
    private long nextRow;
    private long current = -1;
    private @Nullable Row currentRow;
    private long startNanos = -1;
    private long emittedByThisReader;
    private long lastEmitNanos;

    Reader(OrdersSource source, long nextRow) {
      this.source = source;
      this.nextRow = nextRow;
      this.log = source.emitLogId == null ? null : EmitLog.get(source.emitLogId);
      // each split takes its share of the rate
      this.nanosPerRow =
          source.rowsPerSecond > 0 ? 1e9 * source.splitCount / source.rowsPerSecond : 0;
    }

    @Override
    public boolean start() {
      startNanos = System.nanoTime();
      return advance();
    }

    @Override
    public boolean advance() {
      if (nextRow >= source.totalRows) {
        current = -1;
        currentRow = null;
        return false;
      }
      if (nanosPerRow > 0
          && System.nanoTime() - startNanos < (long) (emittedByThisReader * nanosPerRow)) {
        current = -1;
        currentRow = null;
        return false;
      }
      long brake = log == null ? 0 : log.brakeNanosPerRow(source.splitCount);
      if (brake > 0) {
        long now = System.nanoTime();
        if (now - lastEmitNanos < brake) {
          current = -1;
          currentRow = null;
          return false;
        }
        // the rate limit resumes from here when the brake is released, without a burst
        if (lastEmitNanos > 0) {
          startNanos += Math.max(0, now - lastEmitNanos - (long) nanosPerRow);
        }
      }
      current = nextRow;
      currentRow = source.orders.row(current);
      nextRow += source.splitCount;
      emittedByThisReader++;
      lastEmitNanos = System.nanoTime();
      if (log != null) {
        log.emitted(current, System.currentTimeMillis());
      }
      return true;
    }

    @Override
    public Row getCurrent() {
      if (currentRow == null) {
        throw new NoSuchElementException("no current row");
      }
      return currentRow;
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current < 0) {
        throw new NoSuchElementException("no current row");
      }
      return source.orders.eventTime(current);
    }

    @Override
    public Instant getWatermark() {
      if (nextRow >= source.totalRows) {
        return BoundedWindow.TIMESTAMP_MAX_VALUE;
      }
      return new Instant(source.orders.eventTimeLowerBoundMillis(nextRow));
    }

    @Override
    public Mark getCheckpointMark() {
      return new Mark(nextRow);
    }

    @Override
    public OrdersSource getCurrentSource() {
      return source;
    }

    @Override
    public void close() {}
  }
}
