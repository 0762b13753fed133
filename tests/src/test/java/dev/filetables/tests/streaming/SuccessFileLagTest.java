package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.FileTableIO;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's success file follows the visibility of its last file within the commit delay plus
 * one checkpoint interval. A finite stream on Flink {@code [local]} moves through three hourly
 * partitions, 20 s each, with the {@code process-time} trigger and no delay: each partition is due
 * at its first published file and then waits, checking with a growing backoff, while its open files
 * are hidden. A watcher lists the table every 25 ms and records when each data file and each
 * manifest first appeared. For the partitions the job leaves while it runs, the manifest that lists
 * all their files must appear at most the checkpoint interval plus a slack for a loaded machine
 * after their last file; the backoff's next check used to come up to a minute later (about 10 s
 * here). {@code PartitionCommitTest} checks the order of events without a clock.
 */
class SuccessFileLagTest {
  private static final Logger LOG = LoggerFactory.getLogger(SuccessFileLagTest.class);
  private static final int PARTITIONS = 3;
  private static final long ROWS_PER_PARTITION = 2_000;
  private static final double ROWS_PER_SECOND = 100;
  private static final Orders ORDERS = Orders.hourByHour(PARTITIONS, ROWS_PER_PARTITION);

  /** Scheduling, a slow listing or a late checkpoint on a loaded machine; not a backoff step. */
  private static final long SLACK_MILLIS = 4_500;

  @TempDir Path dir;

  @Test
  void successFileFollowsTheLastFileWithinOneCheckpointInterval() throws Exception {
    TableSpec table =
        CommitTables.table(
            dir,
            "orders_lag",
            Map.of(
                TableOptions.COMMIT_TRIGGER, "process-time",
                TableOptions.COMMIT_DELAY, "0 s",
                TableOptions.COMMIT_POLICY_KIND, "success-file"));
    Path root = CommitTables.root(table);
    Appearances seen = new Appearances();
    Thread watcher = new Thread(() -> seen.watch(root), "success-file-lag-watcher");
    watcher.setDaemon(true);
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "success-file-lag");
      OrdersSource source =
          OrdersSource.of(ORDERS)
              .withTotalRows(PARTITIONS * ROWS_PER_PARTITION)
              .withRowsPerSecond(ROWS_PER_SECOND);
      SinkUnderTest sink = new SinkUnderTest(table, t -> FileTableIO.write(t));
      watcher.start();
      JobID job =
          cluster.submit(
              StreamingScenarios.pipeline(options, source, FailureInjector.none(), List.of(sink)));
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
      JobStatus status;
      while (!(status = cluster.status(job)).isGloballyTerminalState()
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertEquals(JobStatus.FINISHED, status);
    } finally {
      watcher.interrupt();
      watcher.join(5_000);
    }

    long bound = StreamingScenarios.CHECKPOINT_INTERVAL_MILLIS + SLACK_MILLIS;
    Map<String, Long> lags = new TreeMap<>();
    // the last partition is left at the end of the input, committed by the end-of-input path
    for (long p = 0; p < PARTITIONS - 1; p++) {
      String partition = ORDERS.partitionPath(p * ROWS_PER_PARTITION);
      Path directory = root.resolve(partition);
      CommitManifest manifest = CommitManifest.read(directory.resolve(CommitTables.SUCCESS));
      assertEquals(List.of(), manifest.verify(directory), partition);
      long lastVisible = seen.lastDataFile(partition, manifest.files().keySet());
      long committed = seen.manifestWith(partition, manifest.files().size());
      lags.put(partition, committed - lastVisible);
    }
    LOG.info("last file visible -> its manifest, by partition (ms): {}", lags);
    for (Map.Entry<String, Long> lag : lags.entrySet()) {
      assertTrue(
          lag.getValue() <= bound,
          lag.getKey()
              + ": its success file came "
              + lag.getValue()
              + " ms after its last file, more than the checkpoint interval + "
              + SLACK_MILLIS
              + " ms; all: "
              + lags);
    }
  }

  /** When each data file and each manifest (by its file count) of a partition first appeared. */
  private static final class Appearances {
    private final Map<String, Long> dataFiles = new ConcurrentHashMap<>();
    private final Map<String, Long> manifests = new ConcurrentHashMap<>();

    void watch(Path root) {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          look(root);
          Thread.sleep(25);
        } catch (InterruptedException e) {
          return;
        } catch (IOException e) {
          // a directory changed while it was listed: look again
        }
      }
    }

    private void look(Path root) throws IOException {
      for (Path partition : partitions(root)) {
        String key = root.relativize(partition).toString();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(partition)) {
          for (Path file : files) {
            String name = file.getFileName().toString();
            long now = System.currentTimeMillis();
            if (name.equals(CommitTables.SUCCESS)) {
              manifests.putIfAbsent(key + "#" + fileCount(file), now);
            } else if (!PartFileName.isHidden(name)) {
              dataFiles.putIfAbsent(key + "/" + name, now);
            }
          }
        } catch (NoSuchFileException e) {
          // not created yet
        }
      }
    }

    private static int fileCount(Path successFile) throws IOException {
      try {
        return CommitManifest.read(successFile).files().size();
      } catch (NoSuchFileException e) {
        return -1;
      }
    }

    private static List<Path> partitions(Path root) throws IOException {
      List<Path> partitions = new ArrayList<>();
      if (!Files.isDirectory(root)) {
        return partitions;
      }
      try (DirectoryStream<Path> days = Files.newDirectoryStream(root, "dt=*")) {
        for (Path day : days) {
          try (DirectoryStream<Path> hours = Files.newDirectoryStream(day, "hour=*")) {
            hours.forEach(partitions::add);
          }
        }
      }
      return partitions;
    }

    long lastDataFile(String partition, Iterable<String> names) {
      long last = Long.MIN_VALUE;
      for (String name : names) {
        Long at = dataFiles.get(partition + "/" + name);
        assertTrue(at != null, partition + "/" + name + " was never seen visible");
        last = Math.max(last, at);
      }
      return last;
    }

    long manifestWith(String partition, int fileCount) {
      Long at = manifests.get(partition + "#" + fileCount);
      assertTrue(at != null, partition + ": no manifest of " + fileCount + " files was seen");
      return at;
    }
  }
}
