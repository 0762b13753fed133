package dev.filetables.transforms.sink.publish;

import dev.filetables.io.files.TablePaths;
import dev.filetables.transforms.runner.CheckpointMarks;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.compact.CompactionFailpoints;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.apache.beam.sdk.transforms.DoFn.OutputReceiver;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes sealed groups whose files are durable, for one instance of the publish step: each group
 * merged into one visible file, or without compaction each file renamed ({@link
 * PartitionCompactor}, idempotent for replays), and emits the visible files. Where state can be
 * restored, it first deletes the end-of-input intents earlier attempts left in the partition
 * ({@link EarlierIntents}), unless this instance has prepared one there itself. At the end of the
 * input, groups not durable yet are handed to the {@link FinalCheckpointPublisher}.
 */
final class GroupPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(GroupPublisher.class);

  private final @Nullable PartitionCompactor compactor;
  private final boolean restores;
  private final CheckpointMarks marks;
  private final EarlierIntents earlierIntents;
  private final FinalCheckpointPublisher atFinalCheckpoint;

  /**
   * @param compactor merges a group into one file; null: each file is renamed
   * @param restores false on runners that never restore state: everything is durable at once, no
   *     intents
   * @param marks the step instance's checkpoint marks
   */
  GroupPublisher(
      @Nullable PartitionCompactor compactor,
      boolean restores,
      CheckpointMarks marks,
      EarlierIntents earlierIntents,
      FinalCheckpointPublisher atFinalCheckpoint) {
    this.compactor = compactor;
    this.restores = restores;
    this.marks = marks;
    this.earlierIntents = earlierIntents;
    this.atFinalCheckpoint = atFinalCheckpoint;
  }

  /**
   * Publishes {@code groups} (output timestamp → files) and emits their visible files, each at its
   * group's timestamp but not before {@code notBefore}.
   */
  void publish(
      List<KV<Instant, List<WrittenFile>>> groups,
      Instant notBefore,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    for (KV<Instant, List<WrittenFile>> group : groups) {
      Path dir = directoryOf(group.getValue());
      if (restores && !atFinalCheckpoint.hasPrepared(dir)) {
        earlierIntents.sweep(dir);
      }
      List<WrittenFile> visible =
          compactor == null
              ? PartitionCompactor.publishAlone(group.getValue())
              : compactor.compact(group.getValue());
      Instant at = group.getKey().isBefore(notBefore) ? notBefore : group.getKey();
      for (WrittenFile file : visible) {
        CompactionFailpoints.reached(CompactionFailpoints.Point.BEFORE_EMIT, file.path());
        out.outputWithTimestamp(file, at);
      }
    }
  }

  /**
   * The end of the input (on Flink): groups whose files are durable are published now; the others
   * are <em>prepared</em>: an intent names them ({@link EndOfInputIntents}), the visible files they
   * will become are emitted (their names are deterministic), and the final checkpoint's callback
   * publishes them ({@link FinalCheckpointPublisher}). Until that checkpoint completes a failure
   * restores an earlier one and nothing of the last stretch has become visible; after it, no
   * restore can take the writers back. Where no checkpoint follows ({@code restores} false) all are
   * published now.
   *
   * @param marked the groups (mark → (output timestamp → files)); a null mark is durable
   * @param finalizer the bundle finalizer of the step's last {@code @ProcessElement}
   */
  void publishOrPrepare(
      List<KV<String, KV<Instant, List<WrittenFile>>>> marked,
      Instant notBefore,
      @Nullable BundleFinalizer finalizer,
      OutputReceiver<WrittenFile> out)
      throws IOException {
    List<KV<Instant, List<WrittenFile>>> now = new ArrayList<>();
    List<KV<Instant, List<WrittenFile>>> atFinal = new ArrayList<>();
    for (KV<String, KV<Instant, List<WrittenFile>>> group : marked) {
      String mark = group.getKey();
      if (!restores || mark == null || marks.isDurable(mark)) {
        now.add(group.getValue());
      } else if (finalizer == null) {
        // cannot happen: a mark of this instance was taken in @ProcessElement, which kept a
        // finalizer
        LOG.warn(
            "No bundle finalizer to publish {} at the final checkpoint: published now",
            group.getValue().getValue());
        now.add(group.getValue());
      } else {
        atFinal.add(group.getValue());
      }
    }
    if (!now.isEmpty()) {
      publish(now, notBefore, out);
    }
    if (!atFinal.isEmpty()) {
      atFinalCheckpoint.prepare(atFinal, notBefore, finalizer, out);
    }
  }

  /** The partition directory of a group's files. */
  static Path directoryOf(List<WrittenFile> group) {
    return TablePaths.of(group.get(0).path()).getParent();
  }
}
