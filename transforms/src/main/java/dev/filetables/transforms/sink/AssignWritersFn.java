package dev.filetables.transforms.sink;

import dev.filetables.io.table.TableSpec;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;

/**
 * Keys each input row by its {@link WriterKey} and projects it onto the file schema (partition
 * columns live in the directory name, not in files). Timestamps are kept.
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
 * hidden files the failed attempt left (see {@link RollingWriterFn}).
 */
class AssignWritersFn extends DoFn<Row, KV<WriterKey, Row>> {
  private final TableSpec table;
  private final Schema inputSchema;
  private final boolean byPartition;
  private final int writers;

  private transient Partitioner partitioner;

  AssignWritersFn(TableSpec table, Schema inputSchema, boolean byPartition, int writers) {
    if (writers <= 0 && !byPartition) {
      throw new IllegalArgumentException("Spreading rows needs a positive writer count, got " + writers);
    }
    this.table = table;
    this.inputSchema = inputSchema;
    this.byPartition = byPartition;
    this.writers = writers;
  }

  @Setup
  public void setup() {
    partitioner = Partitioner.of(table, inputSchema);
  }

  @ProcessElement
  public void processElement(@Element Row row, OutputReceiver<KV<WriterKey, Row>> out) {
    String partition = partitioner.partitionPath(row);
    int writer;
    if (byPartition) {
      writer = writers > 0 ? Math.floorMod(partition.hashCode(), writers) : 0;
    } else {
      writer = Math.floorMod(mix(row.hashCode()), writers);
    }
    out.output(KV.of(WriterKey.of(partition, writer), partitioner.toFileRow(row)));
  }

  /** Spreads similar hash codes (rows differing in one small field) over all writers. */
  private static int mix(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
