package dev.filetables.transforms.sink.batch;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.SinkInputCheck;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.batch.ShardRowsFn.Sharding;
import java.util.OptionalInt;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Writes rows into in-progress part files (not yet visible) and outputs them, choosing the writer
 * layout from the table options:
 *
 * <ul>
 *   <li>neither {@code sink.parallelism} nor {@code sink.shuffle-by-partition.enable}: no shuffle,
 *       per-bundle writers ({@link WriteBundlesFn});
 *   <li>otherwise rows are keyed to writers ({@link ShardRowsFn}), grouped, and each group is
 *       written by one set of rolling writers ({@link WriteGroupsFn}).
 * </ul>
 *
 * Input rows must have passed {@link SinkInputCheck}.
 */
@Internal
public final class WriteRows extends PTransform<PCollection<Row>, PCollection<WrittenFile>> {
  private static final long serialVersionUID = 1L;

  private final TableSpec table;
  private final PartFiles files;

  public WriteRows(TableSpec table, PartFiles files) {
    this.table = table;
    this.files = files;
  }

  @Override
  public PCollection<WrittenFile> expand(PCollection<Row> rows) {
    Schema inputSchema = rows.getSchema();
    TableOptions options = table.options();
    OptionalInt parallelism = options.sinkParallelism();
    boolean byPartition = options.shuffleByPartition();
    if (parallelism.isEmpty() && !byPartition) {
      return rows.apply("WriteBundles", ParDo.of(new WriteBundlesFn(table, inputSchema, files)))
          .setCoder(WrittenFileCoder.of());
    }
    Sharding sharding;
    int writers;
    if (parallelism.isPresent()) {
      sharding = byPartition ? Sharding.PARTITION_HASH : Sharding.ROUND_ROBIN;
      writers = parallelism.getAsInt();
    } else {
      sharding = Sharding.PARTITION;
      writers = 0;
    }
    return rows.apply(
            "KeyByWriter", ParDo.of(new ShardRowsFn(table, inputSchema, sharding, writers)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), RowCoder.of(inputSchema)))
        .apply("GroupByWriter", GroupByKey.create())
        .apply(
            "WriteGroups",
            ParDo.of(new WriteGroupsFn(table, inputSchema, files, sharding != Sharding.PARTITION)))
        .setCoder(WrittenFileCoder.of());
  }
}
