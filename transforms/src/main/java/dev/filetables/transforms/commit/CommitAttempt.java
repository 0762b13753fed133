package dev.filetables.transforms.commit;

import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.partition.time.PartitionTimes;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn.OutputReceiver;
import org.joda.time.Duration;

/**
 * One commit attempt of one partition, over the state of {@link PartitionCommitFn} for that key:
 * waits (with backoff) while hidden files of the write are in the partition, commits through the
 * {@link PartitionCommitter}, retries a failed commit later, and records a commit in the key's
 * state. Created per timer firing; it keeps nothing itself.
 */
final class CommitAttempt {

  private final PartitionCommitFn fn;
  final String path;
  final BagState<WrittenFile> files;
  final BagState<WrittenFile> announced;
  final ValueState<Long> pendingSince;
  final ValueState<Integer> commits;
  final ValueState<Integer> attempts;
  final ValueState<String> lastProblem;
  final ValueState<Integer> overdueChecks;
  final BagState<String> committedNames;

  CommitAttempt(
      PartitionCommitFn fn,
      String path,
      BagState<WrittenFile> files,
      BagState<WrittenFile> announced,
      ValueState<Long> pendingSince,
      ValueState<Integer> commits,
      ValueState<Integer> attempts,
      ValueState<String> lastProblem,
      ValueState<Integer> overdueChecks,
      BagState<String> committedNames) {
    this.fn = fn;
    this.path = path;
    this.files = files;
    this.announced = announced;
    this.pendingSince = pendingSince;
    this.commits = commits;
    this.attempts = attempts;
    this.lastProblem = lastProblem;
    this.overdueChecks = overdueChecks;
    this.committedNames = committedNames;
  }

  void run(
      String reason,
      Optional<java.time.Instant> watermark,
      OutputReceiver<CommittedPartition> out,
      Timer commitNow,
      Timer overdue,
      Timer forget) {
    if (pendingSince.read() == null) {
      return; // nothing published since the last commit
    }
    List<WrittenFile> pending = pending();
    List<Path> inProgress;
    try {
      inProgress = fn.committer.inProgressFiles(path, fn.writeUuid, pending);
    } catch (IOException e) {
      retryLater("cannot list the partition directory: " + e, e, commitNow);
      return;
    }
    if (!inProgress.isEmpty()) {
      PartitionCommitFn.WAITS.inc();
      int n = PartitionCommitFn.orZero(attempts.read()) + 1;
      attempts.write(n);
      String problem =
          "waiting for files " + PartitionCommitFn.names(inProgress) + " to become visible";
      lastProblem.write(problem);
      Duration wait =
          PartitionCommitFn.backoff(PartitionCommitFn.FIRST_RETRY, n, PartitionCommitFn.MAX_RETRY);
      if (n == 1 || Integer.bitCount(n) == 1) {
        PartitionCommitFn.LOG.info(
            "Partition {} of table `{}` is due ({}) but {}; checking again in {}",
            path,
            fn.table.name(),
            reason,
            problem,
            wait);
      }
      commitNow.offset(wait).setRelative();
      return;
    }
    int number = PartitionCommitFn.orZero(commits.read()) + 1;
    PartitionCommitContext context;
    try {
      context = fn.committer.commit(path, pending, announced(), number, watermark, reason);
    } catch (Exception e) {
      PartitionCommitFn.FAILURES.inc();
      retryLater("commit failed: " + e.getMessage(), e, commitNow);
      return;
    }
    done(context, out);
    overdue.clear();
    forget.withOutputTimestamp(PartitionCommitFn.NO_HOLD).offset(fn.retention).setRelative();
  }

  void runAtEndOfInput(
      Optional<java.time.Instant> watermark, OutputReceiver<CommittedPartition> out)
      throws Exception {
    List<WrittenFile> pending = pending();
    List<Path> inProgress = fn.committer.inProgressFiles(path, fn.writeUuid, pending);
    int number = PartitionCommitFn.orZero(commits.read()) + 1;
    if (inProgress.isEmpty()) {
      done(
          fn.commitAtEndOfInput(
              fn.committer, new FinalCommit(path, pending, announced(), number, watermark)),
          out);
      return;
    }
    // Waiting here would block the checkpoint that publishes these files (see EndOfInputCommits).
    PartitionCommitFn.LOG.info(
        "Partition {} of table `{}`: the input has ended while files {} are not visible yet; it is"
            + " committed once they are (waiting up to {})",
        path,
        fn.table.name(),
        PartitionCommitFn.names(inProgress),
        fn.endOfInputWait);
    PartitionCommitFn.PENDING.dec();
    FinalCommit commit = new FinalCommit(path, pending, announced(), number, watermark);
    PartitionCommitter own = new PartitionCommitter(fn.table); // policies need not be thread-safe
    fn.endOfInputCommits().submit(() -> fn.commitOnceVisible(own, commit));
  }

  private void retryLater(String problem, Exception e, Timer commitNow) {
    int n = PartitionCommitFn.orZero(attempts.read()) + 1;
    attempts.write(n);
    lastProblem.write(problem + " (" + n + " attempt(s))");
    Duration wait =
        PartitionCommitFn.backoff(PartitionCommitFn.FIRST_RETRY, n, PartitionCommitFn.MAX_RETRY);
    if (n == 1) {
      PartitionCommitFn.LOG.warn(
          "Partition {} of table `{}`: {}; retrying in {}",
          path,
          fn.table.name(),
          problem,
          wait,
          e);
    } else {
      PartitionCommitFn.LOG.warn(
          "Partition {} of table `{}`: {}; retrying in {} (attempt {})",
          path,
          fn.table.name(),
          problem,
          wait,
          n);
    }
    commitNow.offset(wait).setRelative();
  }

  /** The pending files, once each: a replay after a failure may deliver a file twice. */
  private List<WrittenFile> pending() {
    java.util.Map<String, WrittenFile> byPath = new java.util.LinkedHashMap<>();
    for (WrittenFile file : files.read()) {
      byPath.put(file.path(), file);
    }
    return new ArrayList<>(byPath.values());
  }

  private List<WrittenFile> announced() {
    List<WrittenFile> all = new ArrayList<>();
    announced.read().forEach(all::add);
    return all;
  }

  private void done(PartitionCommitContext context, OutputReceiver<CommittedPartition> out) {
    int number = context.commitNumber();
    commits.write(number);
    files.clear();
    announced.clear();
    pendingSince.clear();
    attempts.clear();
    lastProblem.clear();
    overdueChecks.clear();
    committedNames.clear();
    context.files().forEach(f -> committedNames.add(f.name()));
    PartitionCommitFn.PENDING.dec();
    (number == 1 ? PartitionCommitFn.COMMITTED : PartitionCommitFn.RECOMMITTED).inc();
    context
        .partitionTime()
        .ifPresent(
            t ->
                PartitionCommitFn.LAG.update(
                    context.commitTime().toEpochMilli()
                        - PartitionTimes.toEpochMillis(t, fn.committer.zone())
                        - fn.committer.delay().toMillis()));
    PartitionCommitFn.LOG.info(
        "Committed partition {} of table `{}` (commit #{}, {}): {} new file(s), {} new row(s), {} file(s) in all",
        path,
        fn.table.name(),
        number,
        context.reason(),
        context.newFiles().size(),
        context.newRowCount(),
        context.files().size());
    out.output(
        CommittedPartition.of(
            path,
            context.partitionValues(),
            number,
            context.newFiles().size(),
            context.newRowCount(),
            context.files().size(),
            context.commitTime(),
            context.partitionTime().orElse(null),
            context.reason()));
  }
}
