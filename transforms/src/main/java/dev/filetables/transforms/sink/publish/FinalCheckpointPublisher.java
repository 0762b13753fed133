package dev.filetables.transforms.sink.publish;

import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.compact.CompactionFailpoints;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.apache.beam.sdk.transforms.DoFn.OutputReceiver;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the last groups of a finite stream on Flink at the job's final checkpoint, for one
 * instance of the publish step. When the input has ended no regular checkpoint follows, only the
 * job's final one (Flink 1.19: checkpoints-after-tasks-finish, on by default), which the task waits
 * for before it ends. So the groups whose files are not durable yet are published in two phases:
 *
 * <ol>
 *   <li><b>Prepare</b> ({@link #prepare}, from the publish step's end-of-input timers): the groups
 *       are written into one intent file per partition ({@link EndOfInputIntents}; rewritten with
 *       all groups if a second timer of the key prepares more, deleting older intents of the write
 *       there), and the visible files they will become are emitted now ({@link
 *       PartitionCompactor#preview}: deterministic names; the partition commit waits while hidden
 *       files or an intent of the write are in the partition). They leave the step's state.
 *   <li><b>Publish</b> (one bundle-finalizer callback per instance, registered with the finalizer
 *       kept from {@code @ProcessElement}, the only method Beam 2.62's non-portable runners give
 *       one to; the runner collects it in the final checkpoint's snapshot and runs it when that
 *       checkpoint completes, before the task ends): every prepared intent is completed with the
 *       idempotent compactor operations and deleted.
 * </ol>
 *
 * A failure before the final checkpoint completes restores an earlier checkpoint: nothing of the
 * last stretch is visible, and the replay publishes or prepares those rows again. Before an
 * instance publishes into a partition for the first time it deletes the intents of the write there
 * (an earlier attempt's: their files are no longer the truth, {@link EarlierIntents}), and a
 * replay's intent is newer than the failed attempt's. After the final checkpoint no restore can
 * take the writers back. The callback itself may fail or never run (not retried by the runner; an
 * aborted final checkpoint drops it): the job still ends and the intents stay, for the post-job
 * publish ({@link EndOfInputIntents#recover}, {@code FileTableMaintenance.publishLeftovers}).
 */
final class FinalCheckpointPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(FinalCheckpointPublisher.class);

  private final String writeUuid;
  private final @Nullable PartitionCompactor compactor;
  private final EarlierIntents earlierIntents;

  /** Partition directory → the groups this instance prepared there at the end of the input. */
  private final Map<Path, Prepared> prepared = new LinkedHashMap<>();

  private boolean callbackRegistered;

  /**
   * @param compactor merges a group into one file; null: each file is renamed
   */
  FinalCheckpointPublisher(
      String writeUuid, @Nullable PartitionCompactor compactor, EarlierIntents earlierIntents) {
    this.writeUuid = writeUuid;
    this.compactor = compactor;
    this.earlierIntents = earlierIntents;
  }

  /** True if this instance has prepared groups in {@code dir} that are not published yet. */
  boolean hasPrepared(Path dir) {
    return prepared.containsKey(dir);
  }

  /**
   * Writes the partition's intent for {@code groups} (output timestamp → files of one partition)
   * and emits the files they will become, each at its group's timestamp but not before {@code
   * notBefore}; the first call registers the callback that publishes them with {@code finalizer}.
   */
  void prepare(
      List<KV<Instant, List<WrittenFile>>> groups,
      Instant notBefore,
      @Nullable BundleFinalizer finalizer,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    List<WrittenFile> first = groups.get(0).getValue();
    Path dir = GroupPublisher.directoryOf(first);
    Prepared partition =
        prepared.computeIfAbsent(dir, d -> new Prepared(first.get(0).partitionPath()));
    groups.forEach(group -> partition.groups.add(group.getValue()));
    // one intent per partition and attempt: a second end timer of the key rewrites it with all
    // groups
    Path intent =
        EndOfInputIntents.write(
            dir, writeUuid, partition.partitionPath, compactor != null, partition.groups);
    partition.intent = intent;
    earlierIntents.keepOnly(dir, intent); // ours before, and earlier attempts'
    CompactionFailpoints.reached(
        CompactionFailpoints.Point.END_OF_INPUT_PREPARED, intent.toString());
    if (!callbackRegistered) {
      // collected by the next snapshot (the final checkpoint), run when it completes
      Objects.requireNonNull(finalizer, "bundle finalizer")
          .afterBundleCommit(Instant.now().plus(Duration.standardDays(7)), this::publishPrepared);
      callbackRegistered = true;
    }
    LOG.debug(
        "Prepared {} group(s) of {} for the final checkpoint ({})",
        groups.size(),
        dir,
        intent.getFileName());
    for (KV<Instant, List<WrittenFile>> group : groups) {
      List<WrittenFile> visible =
          compactor == null
              ? EndOfInputIntents.renamed(group.getValue())
              : compactor.preview(group.getValue());
      Instant at = group.getKey().isBefore(notBefore) ? notBefore : group.getKey();
      for (WrittenFile file : visible) {
        out.outputWithTimestamp(file, at);
      }
    }
  }

  /**
   * The final checkpoint completed: publishes every prepared group and deletes the intents. Runs on
   * the task's thread before the task ends; a failure here is not retried by the runner (the
   * intents stay for the post-job publish, {@link EndOfInputIntents#recover}).
   */
  private void publishPrepared() throws IOException {
    for (Map.Entry<Path, Prepared> entry : new ArrayList<>(prepared.entrySet())) {
      EndOfInputIntents.Intent intent = EndOfInputIntents.read(entry.getValue().intent);
      List<WrittenFile> visible =
          EndOfInputIntents.complete(
              intent,
              compactor,
              path ->
                  CompactionFailpoints.reached(
                      CompactionFailpoints.Point.END_OF_INPUT_PUBLISHED, path.toString()));
      prepared.remove(entry.getKey());
      LOG.debug(
          "Published {} file(s) of {} at the final checkpoint", visible.size(), entry.getKey());
    }
  }

  /** The groups prepared in one partition directory and their current intent. */
  private static final class Prepared {
    final String partitionPath;
    final List<List<WrittenFile>> groups = new ArrayList<>();
    @Nullable Path intent;

    Prepared(String partitionPath) {
      this.partitionPath = partitionPath;
    }
  }
}
