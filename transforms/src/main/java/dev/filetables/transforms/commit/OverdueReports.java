package dev.filetables.transforms.commit;

import java.time.Instant;
import java.util.Optional;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.joda.time.Duration;

/**
 * Reports a partition still pending after its expected commit time, with what holds it back, on the
 * {@code overdue} timer of {@link PartitionCommitFn}: first a grace after the round began, then
 * with backoff up to one report an hour. The timer holds no watermark.
 */
final class OverdueReports {
  static final Duration MAX_INTERVAL = Duration.standardHours(1);

  private static final Counter OVERDUE = CommitMetrics.counter(CommitMetrics.OVERDUE);

  private final String table;
  private final CommitTrigger trigger;
  private final Duration grace;

  OverdueReports(String table, CommitTrigger trigger, Duration grace) {
    this.table = table;
    this.trigger = trigger;
    this.grace = grace;
  }

  /** A pending round began: the first check is due after the grace. */
  void start(ValueState<Integer> checks, Timer overdue) {
    checks.clear();
    overdue.withNoOutputTimestamp().offset(grace).setRelative(); // no hold (see TimerHolds)
  }

  /** The {@code overdue} timer fired for a partition pending since {@code sinceMillis}. */
  void check(
      String path,
      long sinceMillis,
      TriggerState state,
      ValueState<String> lastProblem,
      ValueState<Integer> checks,
      Timer overdue) {
    Instant now = Instant.now();
    Instant pendingSince = Instant.ofEpochMilli(sinceMillis);
    Optional<Instant> expected = trigger.expectedCommit(pendingSince, state);
    if (expected.isEmpty() || now.isAfter(expected.get())) {
      OVERDUE.inc();
      PartitionCommitFn.LOG.warn(
          "Partition {} of table `{}` is still pending (first file published at {}, expected commit at {}): {}",
          path,
          table,
          pendingSince,
          expected.map(String::valueOf).orElse("unknown"),
          reason(state, lastProblem));
    }
    int n = PartitionCommitFn.orZero(checks.read()) + 1;
    checks.write(n);
    overdue.withNoOutputTimestamp().offset(Backoff.delay(grace, n, MAX_INTERVAL)).setRelative();
  }

  private String reason(TriggerState state, ValueState<String> lastProblem) {
    String error = state.timeError();
    if (error != null) {
      return "its time cannot be extracted ("
          + error
          + "); it is committed at the end of the input";
    }
    String problem = lastProblem.read();
    if (problem != null) {
      return problem;
    }
    return trigger.waitingFor(state).orElse("its commit is scheduled");
  }
}
