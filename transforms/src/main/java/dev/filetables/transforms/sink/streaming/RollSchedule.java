package dev.filetables.transforms.sink.streaming;

import dev.filetables.transforms.runner.CheckpointClock;
import dev.filetables.transforms.runner.SinkRunnerOptions;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * When {@link RollingWriterFn} rolls its open files by time: the {@link RollingPolicy}'s deadlines,
 * timed to the runner's commit points (Flink checkpoints) when rolls are aligned to them.
 *
 * <ul>
 *   <li>The {@code check} timer of a key fires at {@link #nextCheck}: the file's next rollover or
 *       inactivity deadline on the check-interval grid, or, once a checkpoint has been seen ({@link
 *       CheckpointClock}, told by a bundle finalizer, {@link #watchCommits}), shortly before the
 *       checkpoint nearest to it ({@link RollingPolicy#nextAligned}); {@link #isDue} then says
 *       whether the file rolls.
 *   <li><b>Roll at the commit point</b> ({@link #closesAtCommit}): a file whose deadline comes
 *       before the commit point after the next one closes at the end of the current bundle. On
 *       Flink a bundle ends at every checkpoint, and with {@code
 *       --finishBundleBeforeCheckpointing=true} before the barrier is sent on, so the closed file
 *       reaches the publisher inside that checkpoint and is published when it completes, like
 *       Flink's roll on checkpoint: with rollover at the commit interval every file closes at the
 *       first checkpoint after its first row, and a row waits at most a commit interval plus the
 *       checkpoint's own time. (Without the option the runner emits the bundle's output after the
 *       barrier: the file would wait for the next checkpoint, so rolls stay with the timers.) The
 *       writer marks such a file ({@link OpenFile#closesAtBundleEnd}); {@link ClosesAtBundleEnd}
 *       closes it in {@code @FinishBundle}.
 * </ul>
 *
 * Only when rolls are aligned to commit points ({@link RollingPolicy#alignsTo}); otherwise files
 * roll on the check-interval grid alone.
 */
final class RollSchedule {
  private final RollingPolicy policy;

  /**
   * The runner's commit interval (Flink checkpoint interval) in ms, 0 when rolls are not aligned.
   */
  private final long commitInterval;

  private final String writeUuid;

  /** Files may close at a bundle end (roll at the commit point); null until the first bundle. */
  private @Nullable Boolean rollAtCommit;

  /** The current bundle registered its finalizer that tells {@link CheckpointClock} of commits. */
  private boolean commitWatched;

  /**
   * @param commitInterval the commit interval in ms when rolls are aligned to it, else 0
   * @param writeUuid the write whose commit points {@link CheckpointClock} has seen
   */
  RollSchedule(RollingPolicy policy, long commitInterval, String writeUuid) {
    this.policy = policy;
    this.commitInterval = commitInterval;
    this.writeUuid = writeUuid;
  }

  /**
   * Learns from the first bundle's options whether files can roll at the commit point: the bundle
   * output must go downstream before the checkpoint barrier ({@code
   * --finishBundleBeforeCheckpointing=true}).
   */
  void startBundle(PipelineOptions options) {
    commitWatched = false;
    if (rollAtCommit == null) {
      rollAtCommit =
          commitInterval > 0 && SinkRunnerOptions.flinkFinishBundleBeforeCheckpointing(options);
    }
  }

  /**
   * Once per bundle, when rolls are aligned to commit points: registers a finalizer that runs when
   * the checkpoint covering the bundle completes, so {@link CheckpointClock} learns when
   * checkpoints happen. {@code finalizer} is the one of {@code @ProcessElement}.
   */
  void watchCommits(BundleFinalizer finalizer) {
    if (commitInterval > 0 && !commitWatched) {
      String writeId = writeUuid;
      finalizer.afterBundleCommit(
          Instant.now().plus(Duration.standardHours(1)),
          () -> CheckpointClock.committed(writeId, System.currentTimeMillis()));
      commitWatched = true;
    }
  }

  /**
   * A hint, logged once per write, when rolls are aligned to commit points but cannot happen at
   * them (known from the first bundle on).
   */
  Optional<String> rollAtCommitHint(String table) {
    if (commitInterval > 0 && !rollsAtCommit()) {
      return Optional.of(
          String.format(
              "FileTableIO.write(`%s`): --finishBundleBeforeCheckpointing=true lets a file close at"
                  + " the checkpoint itself and be published by it (rows visible within about one"
                  + " checkpoint interval); without it rolls are timed to predicted checkpoints",
              table));
    }
    return Optional.empty();
  }

  /** True when files may close at a bundle end (known from the first bundle on). */
  boolean rollsAtCommit() {
    return Boolean.TRUE.equals(rollAtCommit);
  }

  /**
   * Roll at the commit point: true when the file should close at the end of this bundle, because
   * its rollover or inactivity deadline comes before the commit point after the next one. The
   * writer also checks that the file is not published under its name already (restored from an
   * older checkpoint: the timers close it under another name).
   */
  boolean closesAtCommit(OpenFile file, long now) {
    return rollsAtCommit()
        && policy.deadline(file.createdAt, file.lastWrite) - commitInterval <= now;
  }

  /** When to look again at a file that closes at the end of the current bundle. */
  long afterBundleEnd(long now) {
    return now + Math.max(1, commitInterval / 4);
  }

  /** True when the file's time to roll has come. */
  boolean isDue(OpenFile file, long now) {
    return lastCommit().isPresent()
        ? policy.isDueAligned(now, file.createdAt, file.lastWrite, commitInterval)
        : policy.isDue(now, file.createdAt, file.lastWrite);
  }

  /** When the {@code check} timer should next look at the file. */
  long nextCheck(OpenFile file, long now) {
    OptionalLong commit = lastCommit();
    if (commit.isPresent()) {
      return policy.nextAligned(
          file.createdAt, file.lastWrite, now, commit.getAsLong(), commitInterval);
    }
    if (commitInterval > 0) {
      // No checkpoint seen yet (the job's first seconds): look again soon, so that the first files
      // are timed to checkpoints as soon as one has been seen, not only after their deadline.
      return Math.min(
          policy.nextCheck(file.createdAt, file.lastWrite, commitInterval),
          now + Math.max(1, commitInterval / 4));
    }
    return policy.nextCheck(file.createdAt, file.lastWrite);
  }

  /** The last completed commit point, when rolls are aligned to commit points and one was seen. */
  private OptionalLong lastCommit() {
    return commitInterval > 0 ? CheckpointClock.lastCommit(writeUuid) : OptionalLong.empty();
  }
}
