package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.orders.Orders;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.RestoreOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.tests.streaming.StreamingScenarios.StopMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the exactly-once harness with sinks whose behaviour is known ({@link StandInSinks}): under
 * injected failures and across a stop/restore it passes a sink that is exactly once and catches the
 * duplicates of one that is only at least once. Small runs (one file per row).
 *
 * <p>Each run here shows the oracle failing a sink, so it proves the oracle can fail. A stop with a
 * savepoint replays nothing, so a naive sink passes it too; that path of the harness runs in the
 * product's own tests (StopWithSavepointRestoreTest, PartitionCommitAcrossRestoreTest), which check
 * that a savepoint holds the source position exactly.
 */
class HarnessSelfTest {
  private static final Orders ORDERS = Orders.withPartitions(4);

  @TempDir Path dir;

  private SinkUnderTest exactlyOnce(String name) {
    return new SinkUnderTest(
        Orders.table(name, StreamingScenarios.tablePath(dir, name).toString(), "json", Map.of()),
        StandInSinks::exactlyOnce);
  }

  private SinkUnderTest atLeastOnce(String name) {
    return new SinkUnderTest(
            Orders.table(
                name, StreamingScenarios.tablePath(dir, name).toString(), "json", Map.of()),
            StandInSinks::atLeastOnce)
        .onlyAtLeastOnce();
  }

  @Test
  void passesAnExactlyOnceSinkAndCatchesAnAtLeastOnceSinkUnderFailures(TestInfo test)
      throws Exception {
    long rows = 3000;
    FailureOutcome outcome =
        StreamingScenarios.runWithFailures(
            dir,
            List.of(exactlyOnce("stable"), atLeastOnce("naive")),
            ORDERS,
            rows,
            500,
            5,
            FailureSeeds.seed(test),
            Duration.ofSeconds(90));

    assertEquals(5, outcome.plan.injected().size(), outcome.plan.toString());
    ExactlyOnceCheck stable = outcome.checks.get("stable");
    assertEquals(List.of(), stable.exactlyOnceProblems(), stable.toString());
    assertEquals(rows, stable.visibleRows);
    ExactlyOnceCheck naive = outcome.checks.get("naive");
    assertTrue(naive.duplicateRows > 0, "replays must duplicate rows of the naive sink: " + naive);
    assertTrue(
        naive.consistencyProblems().get(0).contains("duplicate"),
        naive.consistencyProblems().toString());
    // the live reader saw the exactly-once sink right at every moment, and the naive one's doubles
    assertEquals(List.of(), outcome.liveViolations.getOrDefault("stable", List.of()));
    assertTrue(
        outcome.liveViolations.getOrDefault("naive", List.of()).stream()
            .anyMatch(v -> v.contains("visible twice")),
        "the live reader missed the naive sink's doubled rows: " + outcome.liveViolations);
  }

  @Test
  void passesAnExactlyOnceSinkAcrossCancelAndRestoreFromRetainedCheckpoint() throws Exception {
    long rows = 2000;
    RestoreOutcome outcome =
        StreamingScenarios.stopAndRestore(
            dir,
            List.of(exactlyOnce("stable"), atLeastOnce("naive")),
            ORDERS,
            rows,
            400,
            0.5,
            StopMode.CANCEL_KEEP_CHECKPOINT,
            Duration.ofSeconds(90));

    assertEquals(List.of(), outcome.afterStop.get("stable").consistencyProblems());
    ExactlyOnceCheck afterRestore = outcome.afterRestore.get("stable");
    assertEquals(List.of(), afterRestore.exactlyOnceProblems(), afterRestore.toString());
    // rows after the retained checkpoint were emitted twice; the naive sink shows them twice
    assertTrue(outcome.emittedInTotal > rows, "replayed rows: " + outcome.emittedInTotal);
    assertTrue(
        outcome.afterRestore.get("naive").duplicateRows > 0,
        outcome.afterRestore.get("naive").toString());
  }
}
