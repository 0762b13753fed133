package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableOptions;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.sink.streaming.SinkFailpoints;
import dev.filetables.transforms.sink.streaming.SinkFailpoints.Point;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Roll at the commit point under failures: with rollover and inactivity at the checkpoint interval
 * (500 ms) every part file is closed and emitted by the writer's {@code @FinishBundle}, which the
 * Flink runner calls just before it snapshots the writer's state. Task failures at random records
 * (so also between such a snapshot and the checkpoint's completion) and a crash inside that
 * {@code @FinishBundle}, once after a file is merged but not emitted and once after all files are
 * emitted but before the state is snapshotted, must still leave every row visible exactly once, in
 * JSON and Parquet.
 */
class RollAtCommitExactlyOnceTest {
  private static final Logger LOG = LoggerFactory.getLogger(RollAtCommitExactlyOnceTest.class);
  private static final long ROWS = 20_000;
  private static final double ROWS_PER_SECOND = 1_500;
  private static final Orders ORDERS = Orders.withPartitions(4);
  private static final List<Point> BUNDLE_END =
      List.of(Point.BUNDLE_END_MERGED, Point.BUNDLE_END_EMITTED);

  @TempDir Path dir;

  /** (table, point) pairs that already crashed: each crashes once, at its fifth occurrence. */
  private final Set<String> crashed = ConcurrentHashMap.newKeySet();

  private final Map<String, AtomicInteger> reached = new ConcurrentHashMap<>();

  @BeforeEach
  void combineSegmentFilesConstantly() {
    StreamingScenarios.combineSegmentFilesConstantly();
  }

  @AfterEach
  void reset() {
    SinkFailpoints.reset();
    StreamingScenarios.defaultSegmentCombining();
  }

  private static SinkUnderTest rollingAtCommit(Path dir, String name, String format) {
    String interval = StreamingScenarios.CHECKPOINT_INTERVAL_MILLIS + " ms";
    return StreamingTables.fileTable(
        dir,
        name,
        format,
        Map.of(
            TableOptions.ROLLING_ROLLOVER_INTERVAL, interval,
            TableOptions.ROLLING_INACTIVITY_INTERVAL, interval,
            TableOptions.ROLLING_CHECK_INTERVAL, interval));
  }

  @Test
  void everyRowIsVisibleOnceDespiteFailuresAroundBundleEndCloses(TestInfo test) throws Exception {
    List<SinkUnderTest> sinks =
        List.of(
            rollingAtCommit(dir, "orders_json", "json"),
            rollingAtCommit(dir, "orders_parquet", "parquet"));
    SinkFailpoints.set(
        (point, file) -> {
          if (!BUNDLE_END.contains(point)) {
            // crashes while combining segment files: SegmentCombineExactlyOnceTest
            reached.computeIfAbsent(point.toString(), k -> new AtomicInteger()).incrementAndGet();
            return;
          }
          String table = file.contains("orders_json") ? "json" : "parquet";
          String key = table + " " + point;
          // only while the source emits: after the input ends the runner processes stable input
          // before the final checkpoint (--enableStableInputDrain), a stretch no sink can make
          // exactly-once (see docs/compaction.md)
          EmitLog log = StreamingScenarios.runningLog;
          boolean emitting = log != null && log.emissions() < ROWS * 8 / 10;
          if (reached.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() >= 5
              && emitting
              && crashed.add(key)) {
            throw new IllegalStateException(
                "Injected bundle-end crash: " + key + " (" + file + ")");
          }
        });
    long seed = FailureSeeds.seed(test);
    StreamingScenarios.slowFrom72PercentUntil(() -> crashed.size() == 2 * BUNDLE_END.size());
    FailureOutcome outcome =
        StreamingScenarios.runWithFailures(
            dir,
            sinks,
            ORDERS,
            ROWS,
            ROWS_PER_SECOND,
            3,
            seed,
            Duration.ofSeconds(240),
            StreamingScenarios::bundlesEndAtCheckpoints);

    LOG.info("Bundle-end crashes injected: {}; reached: {}", crashed, reached);
    for (String table : List.of("json", "parquet")) {
      for (Point point : BUNDLE_END) {
        assertTrue(
            crashed.contains(table + " " + point),
            "crash injected at " + table + " " + point + ": " + crashed);
      }
    }
    outcome.assertFailuresInjectedAndRestarted(crashed.size(), seed);
    assertTrue(outcome.run.finishedByItself, outcome.run.toString());
    outcome.assertEveryRowOnce(ROWS, seed);
  }
}
