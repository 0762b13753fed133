package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.OrdersStreamJob;
import dev.filetables.pipelines.bench.Orders;
import dev.filetables.pipelines.bench.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 7, points 4 and 5: the job jar on a real Flink session cluster. The scripted cluster
 * (JobManager and TaskManager in their own JVMs) is started, a client JVM started from the job jar
 * submits a streaming job into an orders table with partition commit, the job is stopped with a
 * savepoint through the REST API once data is visible, the same job is submitted again from the
 * savepoint, and the table must end up holding every row exactly once, every partition committed.
 * The cluster is stopped whatever happens.
 */
class FlinkSessionClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkSessionClusterTest.class);
  private static final long ROWS = 10_000;
  /** Slow enough that the first job is still running (about 50 s of rows) when it is stopped. */
  private static final int ROWS_PER_SECOND = 200;
  private static final int PARTITIONS = 6;
  private static final Orders ORDERS = Orders.withPartitions(PARTITIONS);

  @TempDir Path dir;

  /**
   * The job the cluster runs: main class and its arguments; the table it writes is {@link #table}.
   * To submit another job (Kafka → table), change these two methods.
   */
  private static String jobMainClass() {
    return OrdersStreamJob.class.getName();
  }

  private static List<String> jobArgs(Path table) {
    return List.of(
        "--output=" + table,
        "--rows=" + ROWS,
        "--rowsPerSecond=" + ROWS_PER_SECOND,
        "--partitions=" + PARTITIONS,
        "--tableFormat=parquet",
        "--rollInterval=1 s",
        // commits while the job runs; see OrdersStreamJob for partition-time with this source
        "--commitTrigger=process-time",
        "--checkpointingInterval=1000");
  }

  private static TableSpec table(Path table) {
    return Orders.table("orders", table.toString(), "parquet", Map.of());
  }

  @Test
  void stopWithSavepointAndRestoreOnSessionCluster() throws Exception {
    Path tableDir = dir.resolve("orders");
    TableSpec table = table(tableDir);
    long start = System.nanoTime();
    try (ScriptedFlinkCluster cluster = ScriptedFlinkCluster.start(dir.resolve("cluster"))) {
      LOG.info("Cluster up in {} s (REST port {})", seconds(start), cluster.restPort());

      String first = cluster.submit(jobMainClass(), jobArgs(tableDir), "orders-first");
      cluster.awaitCheckpoints(first, 2, Duration.ofMinutes(3));
      awaitVisibleRows(cluster, first, table, ROWS / 20, Duration.ofMinutes(3));
      String savepoint =
          cluster.stopWithSavepoint(first, cluster.workDir().resolve("savepoints"), Duration.ofMinutes(2));
      assertEquals("FINISHED", cluster.awaitTermination(first, Duration.ofMinutes(1)), cluster.failure(first));
      ExactlyOnceCheck afterStop = ExactlyOnceCheck.of(table, ORDERS, ROWS);
      LOG.info("First job stopped with savepoint {}: {}", savepoint, afterStop);
      assertEquals(List.of(), afterStop.consistencyProblems(), "after stop: " + afterStop);
      assertTrue(afterStop.visibleRows < ROWS, "the first job was stopped before the end: " + afterStop);

      List<String> restoreArgs = new ArrayList<>(jobArgs(tableDir));
      restoreArgs.add("--savepointPath=" + savepoint);
      String second = cluster.submit(jobMainClass(), restoreArgs, "orders-restored");
      String end = cluster.awaitTermination(second, Duration.ofMinutes(5));
      assertEquals("FINISHED", end, "restored job " + second + cluster.failure(second));

      ExactlyOnceCheck afterRestore = ExactlyOnceCheck.of(table, ORDERS, ROWS);
      LOG.info("Restored job finished: {} ({} s in all)", afterRestore, seconds(start));
      assertEquals(List.of(), afterRestore.exactlyOnceProblems(), "after restore: " + afterRestore);
      assertEquals(ROWS, afterRestore.visibleRows, afterRestore.toString());
      assertEquals(List.of(), StreamingTables.strangeVisibleFiles(afterRestore.contents));
      assertEquals(List.of(), uncommittedPartitions(tableDir), "partitions without _SUCCESS");
    }
  }

  /** Waits until readers see at least {@code rows} rows of the table while the job runs. */
  private static void awaitVisibleRows(
      ScriptedFlinkCluster cluster, String job, TableSpec table, long rows, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long visible = 0;
    while (System.nanoTime() < deadline) {
      String state = cluster.state(job);
      if (ScriptedFlinkCluster.isTerminal(state)) {
        throw new AssertionError("job " + job + " ended " + state + " with " + visible + " visible rows" + cluster.failure(job));
      }
      visible = TableContents.scan(table).rowCount();
      if (visible >= rows) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("only " + visible + " < " + rows + " visible rows after " + timeout);
  }

  /** Partition directories (dt=…/hour=…) without a success file. */
  private static List<Path> uncommittedPartitions(Path tableDir) throws Exception {
    List<Path> missing = new ArrayList<>();
    try (Stream<Path> days = Files.list(tableDir)) {
      for (Path day : (Iterable<Path>) days.filter(p -> p.getFileName().toString().startsWith("dt="))::iterator) {
        try (Stream<Path> hours = Files.list(day)) {
          hours
              .filter(p -> p.getFileName().toString().startsWith("hour="))
              .filter(p -> !Files.exists(p.resolve("_SUCCESS")))
              .forEach(missing::add);
        }
      }
    }
    return missing;
  }

  private static long seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000_000;
  }
}
