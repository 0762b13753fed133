package dev.filetables.transforms.sink.batch;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.Partitioner;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;

/**
 * Keys each row by the writer that will write it (see {@link Sharding}); a GroupByKey then gives
 * every writer its rows.
 */
class ShardRowsFn extends DoFn<Row, KV<String, Row>> {

  /** How rows are spread over writers. */
  enum Sharding {
    /** {@code sink.parallelism} = N: round robin over writers 0..N-1. */
    ROUND_ROBIN,
    /** N writers plus shuffle-by-partition: writer = hash(partition path) mod N. */
    PARTITION_HASH,
    /** Shuffle-by-partition without N: one writer per partition, keyed by its path. */
    PARTITION
  }

  private final TableSpec table;
  private final Schema inputSchema;
  private final Sharding sharding;
  private final int writers;

  private transient Partitioner partitioner;
  private transient String[] shardKeys;
  private transient int next;

  ShardRowsFn(TableSpec table, Schema inputSchema, Sharding sharding, int writers) {
    this.table = table;
    this.inputSchema = inputSchema;
    this.sharding = sharding;
    this.writers = writers;
  }

  @Setup
  public void setup() {
    partitioner = Partitioner.of(table, inputSchema);
    shardKeys = new String[Math.max(writers, 0)];
    for (int i = 0; i < shardKeys.length; i++) {
      shardKeys[i] = Integer.toString(i);
    }
    // a random start spreads small bundles of many instances over all writers
    next = writers > 0 ? ThreadLocalRandom.current().nextInt(writers) : 0;
  }

  @ProcessElement
  public void processElement(@Element Row row, OutputReceiver<KV<String, Row>> out) {
    String key;
    switch (sharding) {
      case ROUND_ROBIN:
        key = shardKeys[next];
        next = next + 1 == writers ? 0 : next + 1;
        break;
      case PARTITION_HASH:
        key = shardKeys[Math.floorMod(partitioner.partitionPath(row).hashCode(), writers)];
        break;
      case PARTITION:
        key = partitioner.partitionPath(row);
        break;
      default:
        throw new AssertionError(sharding);
    }
    out.output(KV.of(key, row));
  }
}
