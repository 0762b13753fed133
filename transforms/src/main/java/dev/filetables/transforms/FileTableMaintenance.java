package dev.filetables.transforms;

import static org.apache.beam.sdk.util.Preconditions.checkArgumentNotNull;

import dev.filetables.io.compaction.OfflineCompaction;
import dev.filetables.io.files.PartitionDirectory;
import dev.filetables.io.files.TablePartitions;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.commit.AfterJobCommit;
import dev.filetables.transforms.commit.PartitionCommit;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.publish.EndOfInputIntents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operations on a table outside a pipeline: the post-job publish of a streaming write ({@link
 * #finishWrite}, {@link #publishLeftovers}) and offline compaction ({@link #compact}). What {@code
 * bin/filetables publish-leftovers} and {@code compact} run, for Java programs too.
 */
public final class FileTableMaintenance {
  private static final Logger LOG = LoggerFactory.getLogger(FileTableMaintenance.class);

  private FileTableMaintenance() {}

  /**
   * The post-job publish of a streaming write on Flink: finishes what the end of a finite stream
   * left hidden. The sink publishes the last stretch of a finite stream when the job's final
   * checkpoint completes (exactly once); if that callback never ran or failed midway (the job still
   * ends {@code FINISHED}), the files stay hidden under an intent ({@code
   * .filetables-eoi-<writeUuid>-….intent}) in their partition directory. This publishes them (the
   * newest intent of the write per partition; older ones, and hidden files of the write in that
   * partition that it does not name, are deleted, never published) and, when the table has commit
   * policies, commits those partitions, which the job did not. Idempotent; nothing to do is the
   * normal case.
   *
   * <p><b>Call it only once the writing job has ended and will not be restored</b> ({@code
   * waitUntilFinish()} returned {@code DONE}, or the job is known to be over for good): while it
   * runs, or if it is later restored from a savepoint or checkpoint taken before its input ended, a
   * restore may write the same rows again. Pass the id given to {@link
   * FileTableIO.Write#withWriteUuid}.
   */
  public static PublishedLeftovers publishLeftovers(TableSpec table, String writeUuid)
      throws Exception {
    checkArgumentNotNull(
        writeUuid,
        "write uuid must not be null (null means every write: use the three-argument form)");
    return publishLeftovers(table, writeUuid, false);
  }

  /**
   * {@link #publishLeftovers(TableSpec, String)} for {@code writeUuid} (every write that left
   * intents when null: only when no job writes the table), or with {@code dryRun} only what would
   * be done.
   */
  public static PublishedLeftovers publishLeftovers(
      TableSpec table, @Nullable String writeUuid, boolean dryRun) throws Exception {
    checkArgumentNotNull(table, "table must not be null");
    List<EndOfInputIntents.RecoveredPartition> partitions =
        EndOfInputIntents.recover(table, writeUuid, dryRun);
    List<String> committed = new ArrayList<>();
    if (!dryRun && PartitionCommit.isConfigured(table)) {
      Map<String, List<WrittenFile>> byPartition = new LinkedHashMap<>();
      for (EndOfInputIntents.RecoveredPartition partition : partitions) {
        byPartition
            .computeIfAbsent(partition.partitionPath(), p -> new ArrayList<>())
            .addAll(partition.published());
      }
      for (Map.Entry<String, List<WrittenFile>> partition : byPartition.entrySet()) {
        AfterJobCommit.commit(table, partition.getKey(), partition.getValue());
        committed.add(partition.getKey());
      }
    }
    PublishedLeftovers result = new PublishedLeftovers(table.name(), dryRun, partitions, committed);
    if (!result.isEmpty()) {
      LOG.warn("{}", result);
    }
    return result;
  }

  /**
   * What a program calls once a streaming write's job ended by itself ({@code waitUntilFinish()}
   * returned {@code DONE}); every CLI command that waits for a streaming write does. On Flink the
   * last files of a finite stream are published by a callback at the job's final checkpoint, which
   * the runner can skip (Beam 2.62 runs a checkpoint's bundle finalizers only when that very
   * checkpoint's completion is notified; a final checkpoint declined by a closing task is followed
   * by another that ends the job): so this first runs {@link #publishLeftovers(TableSpec, String)},
   * then checks that no hidden file of the write is left anywhere in the table.
   *
   * @param writeUuid the write's id ({@link FileTableIO.Write#withWriteUuid}); null for every write
   *     of the table (only when no other job writes it)
   * @throws UnpublishedFilesException naming the hidden files when any is left: rows in them may be
   *     missing, and nothing will publish them. Never a silent success.
   */
  public static PublishedLeftovers finishWrite(TableSpec table, @Nullable String writeUuid)
      throws Exception {
    checkArgumentNotNull(table, "table must not be null");
    PublishedLeftovers published = publishLeftovers(table, writeUuid, false);
    List<Path> hidden = EndOfInputIntents.hiddenFilesOf(table, writeUuid);
    if (!hidden.isEmpty()) {
      throw new UnpublishedFilesException(
          table.name(), writeUuid, table.options().rootPath().toAbsolutePath().normalize(), hidden);
    }
    return published;
  }

  /**
   * Merges the small visible files of each partition matching {@code filter} into files of about
   * {@code targetSize} bytes ({@link OfflineCompaction}: atomic for FileTables readers; when it
   * returns, the replaced files are out of sight of every reader, kept under hidden names for
   * FileTables readers that listed them before and deleted by a later run once {@code grace} has
   * passed, or at once with a zero grace). Partitions run in parallel on a thread pool (one thread
   * per core), not as a Beam job: each is a listing, a byte copy and a few renames, which a thread
   * does at disk speed, and a job would only add start-up time. Run one compaction per table at a
   * time.
   *
   * @param dryRun only report what would be merged
   * @return one result per partition, in listing order
   */
  public static List<OfflineCompaction.Result> compact(
      TableSpec table, PartitionFilter filter, long targetSize, Duration grace, boolean dryRun)
      throws Exception {
    checkArgumentNotNull(table, "table must not be null");
    TableOptions options = table.options();
    FileFormat format = FileFormats.of(options);
    OfflineCompaction compaction =
        new OfflineCompaction(
            FileMergers.of(format, table.fileSchema()), format.extension(), targetSize, grace);
    List<Path> partitions = new ArrayList<>();
    for (PartitionDirectory partition :
        TablePartitions.listPartitions(
            options.rootPath(), table.partitionKeys(), options.partitionDefaultName(), filter)) {
      partitions.add(TablePaths.of(partition.path()));
    }
    return compaction.compact(partitions, dryRun);
  }
}
