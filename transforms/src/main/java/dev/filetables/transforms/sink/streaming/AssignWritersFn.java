package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.Partitioner;
import dev.filetables.transforms.sink.segment.FileRowCoder;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Keys each input row by its {@link WriterKey}, projects it onto the file schema (partition columns
 * live in the directory name, not in files) and hands the rows of a key on in {@link RowBatch
 * batches}. Row timestamps travel inside the batch; a batch is output at its smallest one.
 *
 * <ul>
 *   <li>{@code byPartition} with {@code writers} N: writer = hash(partition path) mod N, so a
 *       partition's rows go to one writer;
 *   <li>{@code byPartition} with N = 0: writer 0 in every partition (one writer per partition);
 *   <li>otherwise writer = hash(row values) mod N, so a partition's rows spread over all writers.
 * </ul>
 *
 * <p>Every choice is a function of the row, unlike round robin: when a runner replays input after a
 * restore, a row goes to the same writer as in the failed attempt, and that writer removes the
 * hidden files the failed attempt left (see {@link LeftoverFiles}).
 *
 * <h3>Batches</h3>
 *
 * With {@code batching} off, every row goes on at once as a batch of one. With it on, a key's batch
 * is output when it reaches {@link #BATCH_BYTES}; all batches are output at the end of the bundle,
 * when the rows of all keys buffered together reach {@link #BUFFERED_BYTES}, when the oldest
 * buffered row waited {@link #MAX_DELAY}, and at once when rows come sparsely (the previous row
 * came more than {@link #SPARSE_GAP} earlier), so a slow stream is not delayed at all. Exactly-once
 * is unaffected: runners finish a bundle before its checkpoint or commit (Flink with {@code
 * --finishBundleBeforeCheckpointing=true} before the barrier goes downstream), so no row is
 * buffered across a checkpoint, and Flink emits no watermark while a bundle is open, so a batch
 * output at the end of the bundle is never behind the watermark. The cost: the last rows before a
 * pause in a fast stream reach the writer at the end of the bundle (at the latest at the next
 * checkpoint).
 *
 * <p>Batching needs a runner whose bundle output at a checkpoint goes downstream before the
 * barrier: on Flink only with {@code --finishBundleBeforeCheckpointing=true}. Otherwise Beam 2.62's
 * Flink runner finishes the bundle inside {@code snapshotState}, after the barrier, keeps that
 * output in operator state and emits it only when the operator starts its next bundle, i.e. at its
 * next input row: the last rows before a pause would wait for the next row, and the watermark could
 * pass them. {@link StreamingWrite} therefore turns batching off on Flink without that option.
 */
class AssignWritersFn extends DoFn<Row, KV<WriterKey, RowBatch>> {
  /** Encoded bytes at which a key's batch is output. */
  static final int BATCH_BYTES = 32 * 1024;

  /** Encoded bytes of all keys' batches at which all are output (memory bound per instance). */
  static final int BUFFERED_BYTES = 4 * 1024 * 1024;

  /** The longest a row waits in a batch while rows keep coming. */
  static final Duration MAX_DELAY = Duration.millis(50);

  /** A row coming this long after the previous one is output at once, with all buffered rows. */
  static final Duration SPARSE_GAP = Duration.millis(5);

  private final TableSpec table;
  private final Schema inputSchema;
  private final boolean byPartition;
  private final int writers;
  private final boolean batching;

  private transient Partitioner partitioner;
  private transient Coder<Row> rowCoder;
  private transient Map<WriterKey, RowBatch.Builder> batches;

  /** The current row, encoded. */
  private transient RowBatch.Bytes scratch;

  private transient long bufferedBytes;

  /** {@link System#nanoTime} of the oldest buffered row, and of the previous row. */
  private transient long oldestNanos;

  private transient long previousNanos;

  AssignWritersFn(
      TableSpec table, Schema inputSchema, boolean byPartition, int writers, boolean batching) {
    if (writers <= 0 && !byPartition) {
      throw new IllegalArgumentException(
          "Spreading rows needs a positive writer count, got " + writers);
    }
    this.table = table;
    this.inputSchema = inputSchema;
    this.byPartition = byPartition;
    this.writers = writers;
    this.batching = batching;
  }

  @Setup
  public void setup() {
    partitioner = Partitioner.of(table, inputSchema);
    rowCoder = FileRowCoder.of(table.fileSchema());
    batches = new HashMap<>();
    scratch = new RowBatch.Bytes();
  }

  /** Batches go out at their smallest row timestamp, which may be before the current row's. */
  @Override
  @SuppressWarnings("deprecation")
  public Duration getAllowedTimestampSkew() {
    return Duration.millis(Long.MAX_VALUE); // "unbounded" per DoFn's javadoc
  }

  @ProcessElement
  public void processElement(
      @Element Row row, @Timestamp Instant timestamp, OutputReceiver<KV<WriterKey, RowBatch>> out)
      throws IOException {
    String partition = partitioner.partitionPath(row);
    scratch.reset();
    rowCoder.encode(partitioner.toFileRow(row), scratch);
    int writer;
    if (byPartition) {
      writer = writers > 0 ? Math.floorMod(partition.hashCode(), writers) : 0;
    } else {
      // a hash of the row's encoded file columns: cheaper than Row.hashCode and as deterministic
      writer = Math.floorMod(mix(scratch.hash()), writers);
    }
    WriterKey key = WriterKey.of(partition, writer);
    RowBatch.Builder batch = batches.get(key);
    if (batch == null) {
      batch = new RowBatch.Builder();
      batches.put(key, batch);
    }
    if (!batching) {
      batch.add(scratch, timestamp.getMillis());
      output(key, batch, out);
      return;
    }
    long now = System.nanoTime();
    if (bufferedBytes == 0) {
      oldestNanos = now;
    }
    int before = batch.bytes();
    batch.add(scratch, timestamp.getMillis());
    bufferedBytes += batch.bytes() - before;
    boolean sparse = now - previousNanos > SPARSE_GAP.getMillis() * 1_000_000L;
    previousNanos = now;
    if (sparse
        || bufferedBytes >= BUFFERED_BYTES
        || now - oldestNanos >= MAX_DELAY.getMillis() * 1_000_000L) {
      for (Map.Entry<WriterKey, RowBatch.Builder> entry : batches.entrySet()) {
        if (entry.getValue().size() > 0) {
          output(entry.getKey(), entry.getValue(), out);
        }
      }
    } else if (batch.bytes() >= BATCH_BYTES) {
      output(key, batch, out);
    }
  }

  @FinishBundle
  public void finishBundle(FinishBundleContext context) {
    // the sink's input is in the global window (StreamingWrite re-windows it)
    for (Map.Entry<WriterKey, RowBatch.Builder> entry : batches.entrySet()) {
      if (entry.getValue().size() > 0) {
        RowBatch batch = entry.getValue().build();
        context.output(
            KV.of(entry.getKey(), batch), new Instant(batch.minTimestamp()), GlobalWindow.INSTANCE);
      }
    }
    // keys seen in this bundle only: a stream over ever new partitions must not grow the map
    batches.clear();
    bufferedBytes = 0;
  }

  private void output(
      WriterKey key, RowBatch.Builder builder, OutputReceiver<KV<WriterKey, RowBatch>> out) {
    bufferedBytes -= builder.bytes();
    RowBatch batch = builder.build();
    out.outputWithTimestamp(KV.of(key, batch), new Instant(batch.minTimestamp()));
  }

  /** Spreads similar hash codes (rows differing in one small field) over all writers. */
  private static int mix(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
