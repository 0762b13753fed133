package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.tests.streaming.RecordingCommitPolicy.Commit;
import dev.filetables.tests.streaming.StreamingScenarios.RestoreOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.StopMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 4, point 8: a restart between file visibility and partition commit, at job level on the
 * Flink runner. The input moves hour by hour through six hourly partitions with {@code
 * sink.partition-commit.delay} = 2 h, so when the first job is stopped (at ~58% of the rows) the
 * partition two hours behind the source has visible files but is not due yet (earlier ones may
 * already be committed: the sink's watermark follows the input's, see {@link
 * SinkWatermarkProgressTest}). A new job restored from the snapshot commits it, and the rest,
 * exactly as their visible files are: from a savepoint every commit runs once (the policy ran once
 * per partition and commit number over both jobs, and not again for what the first job committed);
 * from the retained checkpoint of a cancelled job (taken before some files became visible and some
 * partitions were committed) commits after the checkpoint may run again, and each still sees the
 * whole partition. Either way the visible rows are the input exactly once and each manifest lists
 * exactly the visible files.
 */
class PartitionCommitAcrossRestoreTest {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionCommitAcrossRestoreTest.class);
  private static final long ROWS_PER_PARTITION = 3_000;
  private static final Orders ORDERS = Orders.hourByHour(6, ROWS_PER_PARTITION);
  private static final long ROWS = 6 * ROWS_PER_PARTITION;
  private static final double ROWS_PER_SECOND = 1_500;
  private static final double STOP_AT = 0.58;

  @TempDir Path dir;

  /** What the tables looked like while no job ran. */
  private static final class AtStop {
    Set<String> committed = Set.of();
    Set<String> visible = Set.of();
    int commitsRecorded;
  }

  @Test
  void newJobFromSavepointCommitsVisibleButUncommittedPartitionsOnce() throws Exception {
    TableSpec table = CommitTables.table(dir, "orders_committed", "2 h");
    AtStop atStop = new AtStop();
    RestoreOutcome outcome = run(table, StopMode.SAVEPOINT, atStop);

    assertEquals(ROWS, outcome.emittedInTotal, "a savepoint holds the source position exactly");
    List<Commit> commits = RecordingCommitPolicy.commits(CommitTables.root(table));
    Map<String, Long> runsPerCommit =
        commits.stream()
            .collect(
                Collectors.groupingBy(
                    c -> c.partition + " #" + c.commitNumber, Collectors.counting()));
    assertEquals(
        List.of(),
        runsPerCommit.entrySet().stream()
            .filter(e -> e.getValue() != 1)
            .map(Object::toString)
            .toList(),
        "commits whose policy ran more than once: " + commits);
    List<Commit> bySecondJob = commits.subList(atStop.commitsRecorded, commits.size());
    Set<String> recommitted = new TreeSet<>();
    bySecondJob.stream()
        .filter(c -> atStop.committed.contains(c.partition))
        .forEach(c -> recommitted.add(c.toString()));
    assertEquals(
        Set.of(),
        recommitted,
        "partitions the first job had committed, committed again by the second");
  }

  @Test
  void newJobFromRetainedCheckpointCommitsEveryPartitionAsVisible() throws Exception {
    TableSpec table = CommitTables.table(dir, "orders_committed", "2 h");
    AtStop atStop = new AtStop();
    RestoreOutcome outcome = run(table, StopMode.CANCEL_KEEP_CHECKPOINT, atStop);
    assertTrue(
        outcome.emittedInTotal >= ROWS, "rows emitted by both jobs: " + outcome.emittedInTotal);
  }

  private RestoreOutcome run(TableSpec table, StopMode mode, AtStop atStop) throws Exception {
    Path root = CommitTables.root(table);
    RestoreOutcome outcome =
        StreamingScenarios.stopAndRestore(
            dir,
            List.of(CommitTables.sink(table, ORDERS, null)),
            ORDERS,
            ROWS,
            ROWS_PER_SECOND,
            STOP_AT,
            mode,
            Duration.ofSeconds(120),
            () -> {
              atStop.committed = CommitTables.committedPartitions(table);
              atStop.visible = CommitTables.rowsPerPartition(TableContents.scan(table)).keySet();
              atStop.commitsRecorded = RecordingCommitPolicy.commits(root).size();
            });
    Set<String> visibleNotCommitted = new TreeSet<>(atStop.visible);
    visibleNotCommitted.removeAll(atStop.committed);
    LOG.info(
        "While stopped ({}): committed {}, visible but not committed {}; commits: {}",
        mode,
        atStop.committed,
        visibleNotCommitted,
        RecordingCommitPolicy.commits(root));
    assertFalse(
        visibleNotCommitted.isEmpty(), "no partition was visible but not committed at the stop");

    assertTrue(outcome.secondJob.finishedByItself, outcome.secondJob.toString());
    ExactlyOnceCheck check = outcome.afterRestore.get(table.name());
    assertEquals(List.of(), check.exactlyOnceProblems(), check.toString());
    assertEquals(ROWS, check.visibleRows, check.toString());
    Set<String> partitions = CommitTables.partitionsOf(ORDERS, ROWS);
    CommitTables.assertCommittedExactlyAsVisible(table, check.contents, partitions);
    // the partitions that were visible but not committed at the stop were committed by the new job
    Set<String> bySecondJob = new HashSet<>();
    List<Commit> commits = RecordingCommitPolicy.commits(root);
    new ArrayList<>(commits.subList(atStop.commitsRecorded, commits.size()))
        .forEach(c -> bySecondJob.add(c.partition));
    assertTrue(
        bySecondJob.containsAll(visibleNotCommitted), bySecondJob + " vs " + visibleNotCommitted);
    return outcome;
  }
}
