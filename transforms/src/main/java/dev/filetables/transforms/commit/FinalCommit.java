package dev.filetables.transforms.commit;

import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * The commit of a partition at the end of the input: what it commits, and how. No timer fires after
 * the end of the input, so a failing policy is retried a few times inline and then fails the
 * pipeline; a partition whose last files are not visible yet is committed off the DoFn's thread
 * once they are ({@link EndOfInputCommits} says why).
 */
final class FinalCommit {
  static final int ATTEMPTS = 3;

  final String path;
  final List<WrittenFile> pending;
  final List<WrittenFile> announced;
  final int number;
  final Optional<Instant> watermark;

  FinalCommit(
      String path,
      List<WrittenFile> pending,
      List<WrittenFile> announced,
      int number,
      Optional<Instant> watermark) {
    this.path = path;
    this.pending = pending;
    this.announced = announced;
    this.number = number;
    this.watermark = watermark;
  }

  /** Commits now, retrying a failing policy a few times inline. */
  PartitionCommitContext commit(PartitionCommitter committer, String table) throws Exception {
    Exception last = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        return committer.commit(
            path, pending, announced, number, watermark, PartitionCommitter.END_OF_INPUT);
      } catch (Exception e) {
        CommitAttempt.FAILURES.inc();
        last = e;
        PartitionCommitFn.LOG.warn(
            "Commit of partition {} at the end of input failed (attempt {}): {}",
            path,
            attempt,
            e.toString());
        Thread.sleep(Backoff.FIRST_RETRY.getMillis() * attempt);
      }
    }
    throw new IllegalStateException(
        "Cannot commit partition '"
            + path
            + "' of table `"
            + table
            + "` at the end of the input after "
            + ATTEMPTS
            + " attempts; its files are visible but it is not committed",
        last);
  }

  /**
   * Off the DoFn's thread, after the end of the input: waits until no in-progress file or
   * end-of-input intent of the write is left in the partition (at most {@code wait}), then commits;
   * if some are left then, does not commit (WARN): the post-job publish does. Files published after
   * the final watermark never reach the DoFn as elements, so the commit lists them from the
   * directory (their row counts are unknown to the manifest). Neither output nor metrics can be
   * emitted from here; the commit is logged.
   */
  void commitOnceVisible(
      PartitionCommitter committer, String table, @Nullable String writeUuid, Duration wait)
      throws Exception {
    long deadline = System.currentTimeMillis() + wait.getMillis();
    List<Path> inProgress = committer.inProgressFiles(path, writeUuid, pending);
    while (!inProgress.isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
      inProgress = committer.inProgressFiles(path, writeUuid, pending);
    }
    if (!inProgress.isEmpty()) {
      // Committing now could commit a partition whose last files are still to come: the final
      // checkpoint's publish did not run (or not yet), or a failed attempt left files behind. The
      // post-job publish finishes both and runs the commit policies for such partitions.
      PartitionCommitFn.LOG.warn(
          "Partition {} of table `{}` is NOT committed: the input has ended but hidden files of the"
              + " write {} are still there after {}; the post-job publish (FileTableMaintenance.publishLeftovers,"
              + " `filetables publish-leftovers <table.sql> --write-uuid {}`) publishes them and commits"
              + " the partition",
          path,
          table,
          CommitAttempt.names(inProgress),
          wait,
          writeUuid);
      return;
    }
    PartitionCommitContext context = commit(committer, table);
    PartitionCommitFn.LOG.info(
        "Committed partition {} of table `{}` (commit #{}, {}, after its last files became visible): {} file(s), {} in all",
        path,
        table,
        number,
        context.reason(),
        context.files().size(),
        context.rowCount().isPresent()
            ? context.rowCount().getAsLong() + " row(s)"
            : "row count partly unknown");
  }
}
