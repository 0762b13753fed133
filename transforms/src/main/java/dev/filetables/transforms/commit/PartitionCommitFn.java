package dev.filetables.transforms.commit;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits partitions: keyed by partition path, fed with the partition's <em>published</em> files
 * and, from the streaming sink, <em>announcements</em> of its closed but still hidden files.
 *
 * <h2>When a partition is due</h2>
 *
 * The table's {@link CommitTrigger} says, chosen once from its options: {@link
 * PartitionTimeTrigger} (the watermark passed partition time + delay: timer {@code
 * watermarkPassed}) or {@link ProcessTimeTrigger} ({@code delay} after the first file of the round:
 * timer {@code commitNow}). This DoFn keeps the state and the timers and asks the trigger. Each
 * firing runs a {@link CommitAttempt}: a due partition is committed once its files are visible, and
 * a failed commit is retried with backoff. A partition still pending after its expected commit time
 * is reported ({@link OverdueReports}).
 *
 * <p>At the end of the input {@link OnWindowExpiration} commits every partition still pending,
 * whatever its trigger (the Flink runner does not fire processing-time timers at the end of a
 * bounded input): at once, or, while its last files are still hidden, off the DoFn's thread once
 * they are visible ({@link FinalCommit}, {@link EndOfInputCommits}). Such a commit is logged but
 * not in the output, and {@code @Teardown} waits for it.
 *
 * <h2>Announcements: partitions whose files become visible only after the end</h2>
 *
 * A partition whose files all close at the end of the input (a finite stream whose partitions are
 * due only then: rolls by the final watermark) would never be committed on Flink if its files were
 * published only after the final watermark, when this DoFn's window has expired: their elements
 * would be dropped and the partition would have no state here. The sink's former
 * {@code @RequiresStableInput} publish step did that (its buffer dropped the watermark hold, Beam
 * issue #39991); the keyed publish step now holds the watermark until it has published, and this
 * stays as a safeguard for publish steps that do not. So the sink also sends each closed file under
 * its hidden name straight from the writer (it arrives before the final watermark). An announcement
 * (an element whose file name is in progress) is only kept in {@code announced}: it starts no
 * round, sets no timer, holds no watermark and is never counted as late or listed as a file of a
 * commit, so while the input runs everything happens as without it (rounds, {@code process-time}
 * delays and late counts start with the published file, which still arrives). At the end of the
 * input a partition that has announcements but no round is committed like a pending one: once no
 * in-progress file of the write is left ({@link EndOfInputCommits}), listing the directory; the
 * announced row counts go into the manifest under the published names (with compaction the merged
 * files' counts stay unknown). A late announcement of a committed partition thus also gets its
 * re-commit at the end. Announcements are cleared by every commit (which waited for their files to
 * become visible) and block the forget timer while they wait.
 *
 * <h2>State</h2>
 *
 * Pending files are kept until their commit, then cleared. After a commit only a few small values
 * stay (commit count, due flag, commit threshold, the names of the files the commit listed) so that
 * late data is recognised and re-committed at once, while a file that was published during the
 * commit — visible, hence committed, but delivered a moment later — is not mistaken for late data;
 * a processing-time timer forgets them after the retention (default 1 day), bounding state for an
 * endless stream of partitions. Re-commit manifests do not need older files in state: they list the
 * directory and take earlier row counts from the previous manifest.
 */
final class PartitionCommitFn extends DoFn<KV<String, WrittenFile>, CommittedPartition> {
  private static final long serialVersionUID = 1L;
  static final Logger LOG = LoggerFactory.getLogger(PartitionCommitFn.class);

  static final Counter PENDING = CommitMetrics.counter(CommitMetrics.PENDING);
  static final Counter LATE_ROWS = CommitMetrics.counter(CommitMetrics.LATE_ROWS);
  static final Counter LATE_FILES = CommitMetrics.counter(CommitMetrics.LATE_FILES);

  final TableSpec table;
  final @Nullable String writeUuid;
  final Duration retention;
  private final Duration overdueGrace;
  final Duration endOfInputWait;

  transient PartitionCommitter committer;
  private transient CommitTrigger trigger;
  private transient OverdueReports overdueReports;

  /**
   * Commits that wait, after the end of the input, for their last files; see {@link
   * EndOfInputCommits}.
   */
  private transient @Nullable EndOfInputCommits endOfInput;

  /** Published files of the partition not committed yet. */
  @StateId("files")
  private final StateSpec<BagState<WrittenFile>> filesSpec = StateSpecs.bag(WrittenFileCoder.of());

  /**
   * Hidden files announced (closed by the writers, not published yet) since the last commit: they
   * make the partition known to the end of the input, and their row counts go into a manifest.
   */
  @StateId("announced")
  private final StateSpec<BagState<WrittenFile>> announcedSpec =
      StateSpecs.bag(WrittenFileCoder.of());

  /** Wall-clock millis when the current pending round began; absent when nothing is pending. */
  @StateId("pendingSince")
  private final StateSpec<ValueState<Long>> pendingSinceSpec = StateSpecs.value(VarLongCoder.of());

  /**
   * Names of the visible data files the last commit listed (kept after a commit, until forgotten):
   * a file published during that commit may arrive after it; it was committed, so it is not late.
   */
  @StateId("committedNames")
  private final StateSpec<BagState<String>> committedNamesSpec =
      StateSpecs.bag(StringUtf8Coder.of());

  /** Commits done so far (kept after a commit, until forgotten). */
  @StateId("commits")
  private final StateSpec<ValueState<Integer>> commitsSpec = StateSpecs.value(VarIntCoder.of());

  /** The trigger's state ({@link TriggerState}): due flag, threshold, time error. */
  @StateId("due")
  private final StateSpec<ValueState<Boolean>> dueSpec = StateSpecs.value(BooleanCoder.of());

  @StateId("threshold")
  private final StateSpec<ValueState<Long>> thresholdSpec = StateSpecs.value(VarLongCoder.of());

  @StateId("timeError")
  private final StateSpec<ValueState<String>> timeErrorSpec =
      StateSpecs.value(StringUtf8Coder.of());

  /** Commit attempts of the current round that waited or failed (for backoff). */
  @StateId("attempts")
  private final StateSpec<ValueState<Integer>> attemptsSpec = StateSpecs.value(VarIntCoder.of());

  /** What held the last attempt back, for overdue reports. */
  @StateId("lastProblem")
  private final StateSpec<ValueState<String>> lastProblemSpec =
      StateSpecs.value(StringUtf8Coder.of());

  @StateId("overdueChecks")
  private final StateSpec<ValueState<Integer>> overdueChecksSpec =
      StateSpecs.value(VarIntCoder.of());

  @TimerId("watermarkPassed")
  private final TimerSpec watermarkPassedSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  /** Commit (or retry) now: process-time trigger, late data, backoff. */
  @TimerId("commitNow")
  private final TimerSpec commitNowSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId("overdue")
  private final TimerSpec overdueSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId("forget")
  private final TimerSpec forgetSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  PartitionCommitFn(
      TableSpec table,
      @Nullable String writeUuid,
      Duration retention,
      Duration overdueGrace,
      Duration endOfInputWait) {
    this.table = table;
    this.writeUuid = writeUuid;
    this.retention = retention;
    this.overdueGrace = overdueGrace;
    this.endOfInputWait = endOfInputWait;
  }

  @Setup
  public void setup() {
    committer = new PartitionCommitter(table);
    trigger = CommitTrigger.of(table.options(), committer);
    overdueReports = new OverdueReports(table.name(), trigger, overdueGrace);
  }

  @ProcessElement
  public void processElement(
      @Element KV<String, WrittenFile> element,
      @StateId("files") BagState<WrittenFile> files,
      @StateId("announced") BagState<WrittenFile> announced,
      @StateId("pendingSince") ValueState<Long> pendingSince,
      @StateId("commits") ValueState<Integer> commits,
      @StateId("due") ValueState<Boolean> due,
      @StateId("threshold") ValueState<Long> threshold,
      @StateId("timeError") ValueState<String> timeError,
      @StateId("overdueChecks") ValueState<Integer> overdueChecks,
      @StateId("committedNames") BagState<String> committedNames,
      @StateId("lastProblem") ValueState<String> lastProblem,
      @TimerId("watermarkPassed") Timer watermarkPassed,
      @TimerId("commitNow") Timer commitNow,
      @TimerId("overdue") Timer overdue) {
    String path = element.getKey();
    WrittenFile file = element.getValue();
    String name = TablePaths.of(file.path()).getFileName().toString();
    if (PartFileName.isInProgress(name)) {
      // An announcement: not data that can be committed (yet), so no round, timer or late count;
      // its published self comes later and is handled as before. Only the end of the input uses it.
      if (!contains(committedNames, PartFileName.visibleOf(name))) {
        announced.add(file);
      }
      return;
    }
    int committed = orZero(commits.read());
    if (committed > 0) {
      if (contains(committedNames, name)) {
        // Published while the last commit ran: it was visible then, so it is committed data. Only
        // a manifest has something to add (the file's row count), by committing again.
        if (!committer.writesManifest()) {
          return;
        }
      } else {
        LATE_ROWS.inc(file.rowCount());
        LATE_FILES.inc();
      }
    }
    files.add(file);
    boolean newRound = pendingSince.read() == null;
    if (newRound) {
      pendingSince.write(System.currentTimeMillis());
      PENDING.inc();
      overdueReports.start(overdueChecks, overdue);
      if (committed > 0) {
        LOG.info(
            "Partition {} of table `{}` gets late data after commit #{}: {} row(s) in {}; it will be committed again",
            path,
            table.name(),
            committed,
            file.rowCount(),
            file.path());
      }
    }
    trigger.onFile(
        path, newRound, new TriggerState(due, threshold, timeError), watermarkPassed, commitNow);
    CommitAttempt.onPublished(lastProblem, commitNow);
  }

  @OnTimer("watermarkPassed")
  public void onWatermarkPassed(
      @Key String path,
      OutputReceiver<CommittedPartition> out,
      @StateId("files") BagState<WrittenFile> files,
      @StateId("announced") BagState<WrittenFile> announced,
      @StateId("pendingSince") ValueState<Long> pendingSince,
      @StateId("commits") ValueState<Integer> commits,
      @StateId("due") ValueState<Boolean> due,
      @StateId("threshold") ValueState<Long> threshold,
      @StateId("timeError") ValueState<String> timeError,
      @StateId("attempts") ValueState<Integer> attempts,
      @StateId("lastProblem") ValueState<String> lastProblem,
      @StateId("overdueChecks") ValueState<Integer> overdueChecks,
      @StateId("committedNames") BagState<String> committedNames,
      @TimerId("commitNow") Timer commitNow,
      @TimerId("overdue") Timer overdue,
      @TimerId("forget") Timer forget) {
    TriggerState state = new TriggerState(due, threshold, timeError);
    state.markDue(); // only the partition-time trigger arms this timer
    CommitAttempt attempt =
        new CommitAttempt(
            this,
            path,
            files,
            announced,
            pendingSince,
            commits,
            attempts,
            lastProblem,
            overdueChecks,
            committedNames);
    attempt.run(PartitionTimeTrigger.NAME, state.threshold(), out, commitNow, overdue, forget);
  }

  @OnTimer("commitNow")
  public void onCommitNow(
      @Key String path,
      OutputReceiver<CommittedPartition> out,
      @StateId("files") BagState<WrittenFile> files,
      @StateId("announced") BagState<WrittenFile> announced,
      @StateId("pendingSince") ValueState<Long> pendingSince,
      @StateId("commits") ValueState<Integer> commits,
      @StateId("due") ValueState<Boolean> due,
      @StateId("threshold") ValueState<Long> threshold,
      @StateId("timeError") ValueState<String> timeError,
      @StateId("attempts") ValueState<Integer> attempts,
      @StateId("lastProblem") ValueState<String> lastProblem,
      @StateId("overdueChecks") ValueState<Integer> overdueChecks,
      @StateId("committedNames") BagState<String> committedNames,
      @TimerId("commitNow") Timer commitNow,
      @TimerId("overdue") Timer overdue,
      @TimerId("forget") Timer forget) {
    TriggerState state = new TriggerState(due, threshold, timeError);
    if (!trigger.mayCommitNow(state)) {
      return; // a stale timer after forgetting
    }
    state.markDue();
    CommitAttempt attempt =
        new CommitAttempt(
            this,
            path,
            files,
            announced,
            pendingSince,
            commits,
            attempts,
            lastProblem,
            overdueChecks,
            committedNames);
    attempt.run(trigger.name(), trigger.watermark(state), out, commitNow, overdue, forget);
  }

  /** Reports a partition still pending after its expected commit time, with the reason. */
  @OnTimer("overdue")
  public void onOverdue(
      @Key String path,
      @StateId("pendingSince") ValueState<Long> pendingSince,
      @StateId("due") ValueState<Boolean> due,
      @StateId("threshold") ValueState<Long> threshold,
      @StateId("timeError") ValueState<String> timeError,
      @StateId("lastProblem") ValueState<String> lastProblem,
      @StateId("overdueChecks") ValueState<Integer> overdueChecks,
      @TimerId("overdue") Timer overdue) {
    Long since = pendingSince.read();
    if (since == null) {
      return;
    }
    overdueReports.check(
        path,
        since,
        new TriggerState(due, threshold, timeError),
        lastProblem,
        overdueChecks,
        overdue);
  }

  @OnTimer("forget")
  public void onForget(
      @StateId("announced") BagState<WrittenFile> announced,
      @StateId("pendingSince") ValueState<Long> pendingSince,
      @StateId("commits") ValueState<Integer> commits,
      @StateId("due") ValueState<Boolean> due,
      @StateId("threshold") ValueState<Long> threshold,
      @StateId("timeError") ValueState<String> timeError,
      @StateId("committedNames") BagState<String> committedNames) {
    if (pendingSince.read() != null || !announced.isEmpty().read()) {
      return; // late data re-opened it (or is on its way); the next commit sets a new forget timer
    }
    committedNames.clear();
    commits.clear();
    new TriggerState(due, threshold, timeError).clear();
  }

  /** End of input: every pending partition is committed, due or not. */
  @OnWindowExpiration
  public void onWindowExpiration(
      @Key String path,
      OutputReceiver<CommittedPartition> out,
      @StateId("files") BagState<WrittenFile> files,
      @StateId("announced") BagState<WrittenFile> announced,
      @StateId("pendingSince") ValueState<Long> pendingSince,
      @StateId("commits") ValueState<Integer> commits,
      @StateId("due") ValueState<Boolean> due,
      @StateId("threshold") ValueState<Long> threshold,
      @StateId("timeError") ValueState<String> timeError,
      @StateId("attempts") ValueState<Integer> attempts,
      @StateId("lastProblem") ValueState<String> lastProblem,
      @StateId("overdueChecks") ValueState<Integer> overdueChecks,
      @StateId("committedNames") BagState<String> committedNames)
      throws Exception {
    TriggerState state = new TriggerState(due, threshold, timeError);
    if (pendingSince.read() == null) {
      if (announced.isEmpty().read()) {
        return;
      }
      // Only announced: its files are published after the final watermark (their elements never
      // arrive, see the class comment); commit it once they are visible.
      pendingSince.write(System.currentTimeMillis());
      PENDING.inc();
      trigger.atEndOfInput(path, state);
    }
    CommitAttempt attempt =
        new CommitAttempt(
            this,
            path,
            files,
            announced,
            pendingSince,
            commits,
            attempts,
            lastProblem,
            overdueChecks,
            committedNames);
    attempt.runAtEndOfInput(state.threshold(), out);
  }

  synchronized EndOfInputCommits endOfInputCommits() {
    if (endOfInput == null) {
      endOfInput = new EndOfInputCommits("end-of-input commits of `" + table.name() + "`");
    }
    return endOfInput;
  }

  /** Waits for the commits that had to wait after the end of the input. */
  @Teardown
  public void teardown() throws Exception {
    EndOfInputCommits commits;
    synchronized (this) {
      commits = endOfInput;
      endOfInput = null;
    }
    if (commits != null) {
      commits.awaitAll(endOfInputWait.plus(Duration.standardSeconds(10)));
    }
  }

  private static boolean contains(BagState<String> names, String name) {
    for (String n : names.read()) {
      if (n.equals(name)) {
        return true;
      }
    }
    return false;
  }

  static int orZero(@Nullable Integer value) {
    return value == null ? 0 : value;
  }
}
