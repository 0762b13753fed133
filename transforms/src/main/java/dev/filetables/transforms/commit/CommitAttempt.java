package dev.filetables.transforms.commit;

import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.partition.time.PartitionTimes;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn.OutputReceiver;
import org.joda.time.Duration;

/**
 * One commit attempt of one partition, over the state of {@link PartitionCommitFn} for that key:
 * waits while hidden files of the write are in the partition, commits through the {@link
 * PartitionCommitter}, retries a failed commit later, and records a commit in the key's state.
 * Created per timer firing; it keeps nothing itself.
 *
 * <h2>Commit follows visibility, not only the watermark</h2>
 *
 * A due partition is committed only when no in-progress part file of this write (or of the write of
 * any pending file) is left in its directory. The watermark alone is not trusted: on the Flink
 * runner the watermark hold of records buffered for a pending checkpoint by a stable-input step can
 * be dropped (Beam issue #39991), so the watermark could pass a partition whose last file is closed
 * but still waits, hidden, for the checkpoint that publishes it (the sink's own publish step holds
 * the watermark; the check costs one listing). That file exists on disk under its in-progress name,
 * so checking the directory closes the gap. (With {@code process-time} a partition is due at its
 * first published file and so mostly waits for its open files.) A waiting partition is checked
 * again when a published file of it arrives ({@link #onPublished}: it may have been the last, so
 * the success file follows the last file's publish at once), and by a processing-time timer with
 * backoff for hidden files that go away without a publish; it is logged as "waiting for files …".
 * With compaction, the hidden compaction outputs are named after the inputs and hold the commit the
 * same way. Files of other writes (an earlier crashed job) never block.
 *
 * <h2>Failures</h2>
 *
 * A failing policy does not fail the bundle: on Flink that would restart the whole job for one
 * partition's file system hiccup. The commit is retried by a processing-time timer with exponential
 * backoff (1 s doubling to 1 min), every policy again in order (policies are idempotent), counted
 * and logged; it is never skipped. At the end of input (no timers left) it is retried a few times
 * inline and then fails the pipeline ({@link FinalCommit}). A partition whose time cannot be
 * extracted is parked until the end of the input ({@link PartitionTimeTrigger}).
 */
final class CommitAttempt {
  static final Counter COMMITTED = CommitMetrics.counter(CommitMetrics.COMMITTED);
  static final Counter RECOMMITTED = CommitMetrics.counter(CommitMetrics.RECOMMITTED);
  static final Distribution LAG = CommitMetrics.distribution(CommitMetrics.COMMIT_LAG_MILLIS);
  static final Counter WAITS = CommitMetrics.counter(CommitMetrics.WAITS_FOR_FILES);
  static final Counter FAILURES = CommitMetrics.counter(CommitMetrics.FAILURES);

  /** How {@code lastProblem} begins while a due partition waits for hidden files of the write. */
  private static final String WAITING_FOR_FILES = "waiting for files ";

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
      WAITS.inc();
      int n = PartitionCommitFn.orZero(attempts.read()) + 1;
      attempts.write(n);
      String problem = WAITING_FOR_FILES + names(inProgress) + " to become visible";
      lastProblem.write(problem);
      // the publish of a file checks again at once (onPublished); the timer is for files that go
      // away unpublished (a failed attempt's leftovers)
      Duration wait = Backoff.delay(Backoff.FIRST_RETRY, n, Backoff.MAX_RETRY);
      if (n == 1 || Integer.bitCount(n) == 1) {
        PartitionCommitFn.LOG.info(
            "Partition {} of table `{}` is due ({}) but {}; checking again when a file of it is"
                + " published, at the latest in {}",
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
      FAILURES.inc();
      retryLater("commit failed: " + e.getMessage(), e, commitNow);
      return;
    }
    done(context, out);
    overdue.clear();
    // bookkeeping, not a commit: no hold, or the Direct runner would wait for it (see TimerHolds)
    forget.withNoOutputTimestamp().offset(fn.retention).setRelative();
  }

  /**
   * A published file of the partition arrived: if its due round waits for hidden files, this file
   * may have been the last of them, so the partition is checked again now, not when the backoff of
   * its waits comes round (up to a minute later). The file arrives after its publish, so the check
   * sees it visible: a partition is committed at the first check after its last file became
   * visible.
   */
  static void onPublished(ValueState<String> lastProblem, Timer commitNow) {
    String problem = lastProblem.read();
    if (problem != null && problem.startsWith(WAITING_FOR_FILES)) {
      commitNow.offset(Duration.ZERO).setRelative();
    }
  }

  void runAtEndOfInput(
      Optional<java.time.Instant> watermark, OutputReceiver<CommittedPartition> out)
      throws Exception {
    List<WrittenFile> pending = pending();
    List<Path> inProgress = fn.committer.inProgressFiles(path, fn.writeUuid, pending);
    int number = PartitionCommitFn.orZero(commits.read()) + 1;
    FinalCommit commit = new FinalCommit(path, pending, announced(), number, watermark);
    if (inProgress.isEmpty()) {
      done(commit.commit(fn.committer, fn.table.name()), out);
      return;
    }
    // Waiting here would block the checkpoint that publishes these files (see EndOfInputCommits).
    PartitionCommitFn.LOG.info(
        "Partition {} of table `{}`: the input has ended while files {} are not visible yet; it is"
            + " committed once they are (waiting up to {})",
        path,
        fn.table.name(),
        names(inProgress),
        fn.endOfInputWait);
    PartitionCommitFn.PENDING.dec();
    PartitionCommitter own = new PartitionCommitter(fn.table); // policies need not be thread-safe
    fn.endOfInputCommits()
        .submit(
            () -> commit.commitOnceVisible(own, fn.table.name(), fn.writeUuid, fn.endOfInputWait));
  }

  private void retryLater(String problem, Exception e, Timer commitNow) {
    int n = PartitionCommitFn.orZero(attempts.read()) + 1;
    attempts.write(n);
    lastProblem.write(problem + " (" + n + " attempt(s))");
    Duration wait = Backoff.delay(Backoff.FIRST_RETRY, n, Backoff.MAX_RETRY);
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

  static String names(List<Path> files) {
    return files.stream()
        .map(p -> p.getFileName().toString())
        .collect(Collectors.toList())
        .toString();
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
    (number == 1 ? COMMITTED : RECOMMITTED).inc();
    context
        .partitionTime()
        .ifPresent(
            t ->
                LAG.update(
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
