package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A finite stream on the Flink runner whose files all close at the end of the input (large rolling
 * size, hour-long rollover and inactivity): every file is published by the end-of-input drain,
 * after the final watermark has reached the partition commit, so the commit never gets their
 * published elements. The writers' announcements of the closed files make every partition known to
 * it in time: the job ends with every partition committed (success file whose manifest lists
 * exactly the visible files, and {@link RecordingCommitPolicy}), every row visible exactly once; by
 * either trigger, and with {@code auto-compaction} (the commit waits for the merged files).
 */
class PartitionCommitAtEndOfInputTest {
  private static final long ROWS_PER_PARTITION = 1_000;
  private static final Orders ORDERS = Orders.hourByHour(3, ROWS_PER_PARTITION);
  private static final long ROWS = 3 * ROWS_PER_PARTITION;

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, auto-compaction {1}")
  @CsvSource({"partition-time, false", "process-time, false", "partition-time, true"})
  void everyPartitionIsCommittedWhenAllFilesCloseAtTheEnd(String trigger, boolean compaction)
      throws Exception {
    TableSpec table =
        CommitTables.table(
            dir,
            "orders_at_end",
            Map.of(
                TableOptions.ROLLING_FILE_SIZE, "128MB",
                TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 h",
                TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 h",
                TableOptions.ROLLING_CHECK_INTERVAL, "1 min",
                TableOptions.COMMIT_TRIGGER, trigger,
                TableOptions.COMMIT_DELAY, trigger.equals("partition-time") ? "1 h" : "0 s",
                TableOptions.AUTO_COMPACTION, Boolean.toString(compaction)));

    FailureOutcome outcome =
        StreamingScenarios.runWithFailures(
            dir,
            List.of(CommitTables.sink(table, ORDERS, null)),
            ORDERS,
            ROWS,
            3_000,
            0,
            1L,
            Duration.ofSeconds(90));

    assertTrue(outcome.run.finishedByItself, outcome.run.toString());
    ExactlyOnceCheck check = outcome.checks.get(table.name());
    assertEquals(List.of(), check.exactlyOnceProblems(), check.toString());
    assertEquals(ROWS, check.visibleRows, check.toString());
    Set<String> partitions = CommitTables.partitionsOf(ORDERS, ROWS);
    assertEquals(3, partitions.size(), partitions.toString());
    CommitTables.assertCommittedExactlyAsVisible(table, check.contents, partitions);
  }
}
