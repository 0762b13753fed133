package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.orders.Orders;
import dev.filetables.tests.streaming.StreamingScenarios.RestoreOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.StopMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 3, point 4: a streaming write on the Flink runner is stopped part-way and a new job of the
 * same pipeline continues it from the snapshot: from a savepoint taken by stop-with-savepoint, and
 * from the last retained checkpoint of a job that was cancelled without one (as if it had died).
 * While stopped, the visible rows are a consistent part of the input; in the end they are exactly
 * the input, every visible file reads completely and no hidden file is visible.
 */
class StopWithSavepointRestoreTest {
  private static final Logger LOG = LoggerFactory.getLogger(StopWithSavepointRestoreTest.class);
  private static final long ROWS = 20_000;
  private static final double ROWS_PER_SECOND = 2_000;
  private static final Orders ORDERS = Orders.withPartitions(6);

  @TempDir Path dir;

  @BeforeEach
  void combineSegmentFilesConstantly() {
    StreamingScenarios.combineSegmentFilesConstantly();
  }

  @AfterEach
  void defaultSegmentCombining() {
    StreamingScenarios.defaultSegmentCombining();
  }

  @Test
  void newJobContinuesFromStopWithSavepoint() throws Exception {
    RestoreOutcome outcome = run(StopMode.SAVEPOINT);
    // a savepoint holds the source position exactly: the second job emits only the rest
    assertEquals(ROWS, outcome.emittedInTotal, "rows emitted by both jobs");
  }

  @Test
  void newJobContinuesFromRetainedCheckpointOfCancelledJob() throws Exception {
    RestoreOutcome outcome = run(StopMode.CANCEL_KEEP_CHECKPOINT);
    assertTrue(
        outcome.emittedInTotal >= ROWS, "rows emitted by both jobs: " + outcome.emittedInTotal);
  }

  private RestoreOutcome run(StopMode mode) throws Exception {
    RestoreOutcome outcome =
        StreamingScenarios.stopAndRestore(
            dir,
            StreamingTables.jsonAndParquet(dir),
            ORDERS,
            ROWS,
            ROWS_PER_SECOND,
            0.4,
            mode,
            Duration.ofSeconds(120));
    assertTrue(outcome.secondJob.finishedByItself, outcome.secondJob.toString());
    outcome.afterStop.forEach(
        (table, check) -> {
          assertEquals(List.of(), check.consistencyProblems(), "after stop: " + check);
          // the first job published while it ran: the restore continues a table readers already use
          assertTrue(check.visibleRows > 0, "rows visible at the stop: " + check);
          if (outcome.emittedByFirstJob < ROWS) {
            assertTrue(check.visibleRows < ROWS, "rows visible at the stop: " + check);
          } else {
            // a host so loaded that the first checkpoints came after the source's last row: the
            // stop found a finished input, the restore still has to add nothing and lose nothing
            LOG.warn("{}: the first job emitted every row before its stop ({})", table, mode);
          }
          assertEquals(List.of(), StreamingTables.strangeVisibleFiles(check.contents), table);
          LOG.info("{} after stop ({}): {}", table, mode, check);
        });
    outcome.afterRestore.forEach(
        (table, check) -> {
          assertEquals(List.of(), check.exactlyOnceProblems(), "after restore: " + check);
          assertEquals(ROWS, check.visibleRows, check.toString());
          assertEquals(List.of(), StreamingTables.strangeVisibleFiles(check.contents), table);
          assertEquals(
              List.of(),
              check.contents.inProgressFiles(),
              table + ": hidden files left after the restored job");
          LOG.info(
              "{} after restore from {}: {} hidden leftovers ({} in progress); {}",
              table,
              outcome.restoredFrom,
              check.contents.hiddenFiles().size(),
              check.contents.inProgressFiles().size(),
              outcome.secondJob);
        });
    return outcome;
  }
}
