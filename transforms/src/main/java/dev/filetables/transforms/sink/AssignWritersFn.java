package dev.filetables.transforms.sink;

import dev.filetables.io.table.TableSpec;
import java.util.concurrent.ThreadLocalRandom;
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
 *   <li>otherwise round robin over writers 0..N-1 per DoFn instance (random start), so a partition's
 *       rows spread over all writers.
 * </ul>
 */
class AssignWritersFn extends DoFn<Row, KV<WriterKey, Row>> {
  private final TableSpec table;
  private final Schema inputSchema;
  private final boolean byPartition;
  private final int writers;

  private transient Partitioner partitioner;
  private transient int next;

  AssignWritersFn(TableSpec table, Schema inputSchema, boolean byPartition, int writers) {
    if (writers <= 0 && !byPartition) {
      throw new IllegalArgumentException("Round-robin writers need a positive count, got " + writers);
    }
    this.table = table;
    this.inputSchema = inputSchema;
    this.byPartition = byPartition;
    this.writers = writers;
  }

  @Setup
  public void setup() {
    partitioner = Partitioner.of(table, inputSchema);
    next = writers > 0 ? ThreadLocalRandom.current().nextInt(writers) : 0;
  }

  @ProcessElement
  public void processElement(@Element Row row, OutputReceiver<KV<WriterKey, Row>> out) {
    String partition = partitioner.partitionPath(row);
    int writer;
    if (byPartition) {
      writer = writers > 0 ? Math.floorMod(partition.hashCode(), writers) : 0;
    } else {
      writer = next;
      next = next + 1 == writers ? 0 : next + 1;
    }
    out.output(KV.of(WriterKey.of(partition, writer), partitioner.toFileRow(row)));
  }
}
