package dev.filetables.tests.streaming;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.FileTableIO;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures, for a finite stream on Flink {@code [local]} (parallelism 2, checkpoints every 500 ms,
 * JSON, partitions committed), the time from the source's last row to the job's {@code FINISHED}.
 * Prints figures, asserts nothing; runs only with {@code -Dfiletables.probe=true}.
 */
@EnabledIfSystemProperty(named = "filetables.probe", matches = "true")
class EndOfInputLatencyProbe {
  private static final Logger LOG = LoggerFactory.getLogger(EndOfInputLatencyProbe.class);
  private static final long ROWS = 8_000;
  private static final Orders ORDERS = Orders.withPartitions(4);

  @TempDir Path dir;

  @Test
  void endOfInputToFinished() throws Exception {
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      for (int run = 1; run <= 3; run++) {
        TableSpec table =
            CommitTables.table(
                dir, "orders_" + run, Map.of(TableOptions.COMMIT_POLICY_KIND, "success-file"));
        SinkUnderTest sink = new SinkUnderTest(table, t -> FileTableIO.write(t));
        String logId = UUID.randomUUID().toString();
        EmitLog log = EmitLog.create(logId, false);
        try {
          OrdersSource source =
              OrdersSource.of(ORDERS)
                  .withTotalRows(ROWS)
                  .withRowsPerSecond(4_000)
                  .withEmitLog(logId);
          FlinkPipelineOptions options = StreamingScenarios.options(cluster, "latency");
          JobID job =
              cluster.submit(
                  StreamingScenarios.pipeline(
                      options, source, FailureInjector.none(), List.of(sink)));
          long[] endOfInput = {-1};
          Thread watcher =
              new Thread(
                  () -> {
                    while (log.emissions() < ROWS) {
                      try {
                        Thread.sleep(2);
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                    endOfInput[0] = System.nanoTime();
                  });
          watcher.setDaemon(true);
          watcher.start();
          JobStatus status;
          while (!(status = cluster.status(job)).isGloballyTerminalState()) {
            Thread.sleep(10);
          }
          long finished = System.nanoTime();
          watcher.join(1000);
          LOG.info(
              "PROBE run {}: {} checkpoints; last row emitted -> job {} in {} ms; {} visible rows",
              run,
              cluster.completedCheckpoints(job),
              status,
              (finished - endOfInput[0]) / 1_000_000,
              TableContents.scan(table).rowCount());
        } finally {
          EmitLog.remove(logId);
        }
      }
    }
  }
}
