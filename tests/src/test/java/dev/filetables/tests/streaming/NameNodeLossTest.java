package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 16, point 6: HDFS goes away while a streaming job writes a committed table there.
 * Mid-stream the HDFS process (NameNode and DataNode) is killed with {@code kill -9}, stays down
 * for some seconds more than the checkpoint interval, and comes back on the same storage and port.
 * The job fails (its open files lose their DataNode, and calls to the NameNode fail at once:
 * Hadoop's client does not retry a refused connection to it) and restarts by its restart strategy
 * until HDFS answers again; it then finishes by itself. Afterwards DuckDB, over a copy made by
 * Hadoop's client, sees every input row exactly once; no in-progress file is left; every partition
 * has its success file, whose manifest (read with FileTables' {@link CommitManifest}) lists exactly
 * the files the store lists.
 */
@Tag("cluster")
class NameNodeLossTest {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeLossTest.class);
  private static final Orders ORDERS = Orders.hourByHour(4, 3_000);
  private static final long ROWS = 4 * 3_000;
  private static final double ROWS_PER_SECOND = 600;

  /** How long HDFS stays down before it is started again (its start takes more seconds). */
  private static final Duration DOWN =
      Duration.ofMillis(StreamingScenarios.CHECKPOINT_INTERVAL_MILLIS).plusSeconds(5);

  /**
   * The delay between restarts, as in the shipped session cluster's restart strategy: a call to a
   * NameNode that is down fails at once (Hadoop's client does not retry a refused connection to a
   * NameNode unless {@code dfs.client.retry.policy.enabled}), so an attempt fails within a second,
   * and the harness's 30 attempts 200 ms apart would be spent before HDFS is back.
   */
  private static final Duration RESTART_DELAY = Duration.ofSeconds(2);

  @TempDir Path dir;

  /** The suite's shared servers: killing and restarting HDFS costs one start, not two. */
  private StorageServers servers;

  private Outage outage;

  @Test
  void everyRowOnceAfterHdfsWentDownMidJob() throws Exception {
    servers = StorageServers.shared();
    try {
      Path root = TablePaths.of(servers.root("hdfs") + "/namenode-loss-" + UUID.randomUUID());
      SinkUnderTest sink =
          StreamingTables.fileTable(
              root,
              "orders_committed",
              "json",
              Map.of(
                  TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 s",
                  TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
                  TableOptions.ROLLING_CHECK_INTERVAL, "500 ms",
                  TableOptions.COMMIT_TRIGGER, "partition-time",
                  TableOptions.TIME_EXTRACTOR_PATTERN, "$dt $hour:00:00",
                  TableOptions.COMMIT_DELAY, "1 h",
                  TableOptions.COMMIT_POLICY_KIND, "success-file",
                  TableOptions.COMMIT_SUCCESS_FILE_MANIFEST, "true"));
      TableSpec table = sink.table;
      outage = new Outage();
      StreamingScenarios.meanwhile(outage::killAndRestartHdfs);
      StreamingScenarios.checkThrough(t -> ExactlyOnceUnderFailuresTest.localView(servers, t, dir));
      // no injected failure: the seed draws nothing
      long seed = 0;
      FailureOutcome outcome =
          StreamingScenarios.runWithFailures(
              dir,
              List.of(sink),
              ORDERS,
              ROWS,
              ROWS_PER_SECOND,
              0,
              seed,
              Duration.ofMinutes(4),
              options -> options.setExecutionRetryDelay(RESTART_DELAY.toMillis()));
      LOG.info("HDFS outage: {}; {}", outage, outcome.run);

      assertTrue(outcome.run.finishedByItself, outcome.run.toString());
      assertTrue(outage.rowsAtKill < ROWS, "killed mid-stream: " + outage);
      // the job failed (it did not wait for HDFS) and restarted until HDFS answered again
      assertTrue(outcome.run.restarts >= 1, outcome.run.toString());
      outcome.assertEveryRowOnce(ROWS, seed);
      Path tableRoot = table.options().rootPath();
      assertEquals(List.of(), inProgressFiles(tableRoot), "hidden files left on HDFS");
      Set<String> partitions = CommitTables.partitionsOf(ORDERS, ROWS);
      for (String partition : partitions) {
        assertManifestListsExactlyTheVisibleFiles(tableRoot.resolve(partition));
      }
    } finally {
      if (outage != null) {
        outage.abandoned = true; // a run that failed early must not kill HDFS afterwards
      }
      servers.restartHdfs(); // the next tests find it running, whatever happened here
    }
  }

  /** Kills HDFS mid-stream, brings it back after {@link #DOWN}, and times the job's answer. */
  private final class Outage {
    long rowsAtKill = -1;
    Duration failedAfter;
    Duration downFor;
    Duration recoveredAfter;
    int restartsBefore;
    volatile boolean abandoned;

    void killAndRestartHdfs(LocalFlinkCluster cluster, JobID job, EmitLog log) throws Exception {
      // mid-stream, with files already published
      StreamingScenarios.awaitEmitted(log, ROWS * 30 / 100, Duration.ofMinutes(2));
      cluster.awaitCompletedCheckpoints(job, 1, Duration.ofMinutes(2));
      if (abandoned) {
        return;
      }
      restartsBefore = cluster.restarts(job);
      rowsAtKill = log.emissions();
      long killed = System.nanoTime();
      servers.killHdfs();
      long upAgain = killed + DOWN.toNanos();
      while (System.nanoTime() < upAgain) {
        if (failedAfter == null && cluster.restarts(job) > restartsBefore) {
          failedAfter = Duration.ofNanos(System.nanoTime() - killed);
        }
        Thread.sleep(100);
      }
      servers.restartHdfs();
      long back = System.nanoTime();
      downFor = Duration.ofNanos(back - killed);
      long checkpointsAtBack = cluster.completedCheckpoints(job);
      long deadline = back + Duration.ofMinutes(3).toNanos();
      while (System.nanoTime() < deadline) {
        JobStatus status = cluster.status(job);
        if (failedAfter == null && cluster.restarts(job) > restartsBefore) {
          failedAfter = Duration.ofNanos(System.nanoTime() - killed);
        }
        if (status.isGloballyTerminalState()
            || (status == JobStatus.RUNNING
                && cluster.completedCheckpoints(job) > checkpointsAtBack)) {
          recoveredAfter = Duration.ofNanos(System.nanoTime() - back);
          return;
        }
        Thread.sleep(100);
      }
      throw new AssertionError("the job did not checkpoint again within 3 min after HDFS was back");
    }

    @Override
    public String toString() {
      return "killed after "
          + rowsAtKill
          + " of "
          + ROWS
          + " rows emitted; the job restarted "
          + (failedAfter == null ? "(not seen)" : failedAfter.toMillis() + " ms")
          + " after the kill (its restart delay included); HDFS answered again "
          + (downFor == null ? "(not seen)" : downFor.toMillis() + " ms")
          + " after the kill; the job checkpointed again "
          + (recoveredAfter == null ? "(not seen)" : recoveredAfter.toMillis() + " ms")
          + " after that";
    }
  }

  /** Files of the table under a name starting with '.': in-progress files, segments, intents. */
  private static List<String> inProgressFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("."))
          .map(p -> root.relativize(p).toString())
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /**
   * The partition's success file holds a manifest of exactly the data files the store lists there,
   * with their sizes.
   */
  private static void assertManifestListsExactlyTheVisibleFiles(Path partition) throws IOException {
    CommitManifest manifest = CommitManifest.read(partition.resolve(CommitTables.SUCCESS));
    assertEquals(List.of(), manifest.verify(partition), partition.toString());
    Set<String> listed;
    try (Stream<Path> files = Files.list(partition)) {
      listed =
          files
              .map(p -> p.getFileName().toString())
              .filter(name -> !PartFileName.isHidden(name))
              .collect(Collectors.toCollection(TreeSet::new));
    }
    assertEquals(listed, new TreeSet<>(manifest.files().keySet()), partition.toString());
  }
}
