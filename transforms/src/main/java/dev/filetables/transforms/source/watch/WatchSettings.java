package dev.filetables.transforms.source.watch;

import com.google.auto.value.AutoValue;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.io.Serializable;

/** Everything a watcher shard needs to know, fixed when the pipeline is built. */
@AutoValue
abstract class WatchSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  abstract TableSpec table();

  abstract PartitionFilter filter();

  abstract long intervalMillis();

  abstract long latenessMillis();

  /** 0: never idle. */
  abstract long idleTimeoutMillis();

  abstract boolean skipCommittedPartitions();

  abstract String successFileName();

  abstract int shards();

  abstract long targetSplitSize();

  /** At most this many files of a shard are pending at once; more wait in the directory. */
  abstract int maxPendingFiles();

  static WatchSettings of(
      TableSpec table,
      PartitionFilter filter,
      int shards,
      long targetSplitSize,
      int maxPendingFiles) {
    TableOptions options = table.options();
    return new AutoValue_WatchSettings(
        table,
        filter,
        options.sourceMonitorInterval().orElseThrow().toMillis(),
        options.sourceMonitorLateness().toMillis(),
        options.sourceIdleTimeout().toMillis(),
        options.sourceMonitorSkipCommitted(),
        options.successFileName(),
        shards,
        targetSplitSize,
        maxPendingFiles);
  }
}
