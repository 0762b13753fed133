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
 * Combining the segment files of open part files under failures: at most 2 segment files per open
 * file (so nearly every bundle combines), files open for 3 s (about 6 checkpoints of 500 ms), task
 * failures at random records, and a crash at each step of a combine: after the combined file is
 * written but before the state names it, after the state names it but before any checkpoint holds
 * it, and in the bundle finalizer that deletes the replaced files once the checkpoint holding that
 * state completed. Every row must stay visible exactly once, in JSON and Parquet (spill segments).
 */
class SegmentCombineExactlyOnceTest {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentCombineExactlyOnceTest.class);
  private static final long ROWS = 20_000;
  private static final double ROWS_PER_SECOND = 1_500;
  private static final Orders ORDERS = Orders.withPartitions(4);
  private static final List<Point> COMBINE =
      List.of(Point.COMBINE_WRITTEN, Point.COMBINE_RECORDED, Point.COMBINE_DELETING);

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

  private static SinkUnderTest openForSeconds(Path dir, String name, String format) {
    return StreamingTables.fileTable(
        dir,
        name,
        format,
        Map.of(
            TableOptions.ROLLING_ROLLOVER_INTERVAL, "3 s",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "3 s",
            TableOptions.ROLLING_CHECK_INTERVAL, "500 ms"));
  }

  @Test
  void everyRowIsVisibleOnceDespiteCrashesWhileCombiningSegmentFiles(TestInfo test)
      throws Exception {
    List<SinkUnderTest> sinks =
        List.of(
            openForSeconds(dir, "orders_json", "json"),
            openForSeconds(dir, "orders_parquet", "parquet"));
    SinkFailpoints.set(
        (point, file) -> {
          if (!COMBINE.contains(point)) {
            return;
          }
          String table = file.contains("orders_json") ? "json" : "parquet";
          String key = table + " " + point;
          // only while the source emits (see RollAtCommitExactlyOnceTest)
          EmitLog log = StreamingScenarios.runningLog;
          boolean emitting = log != null && log.emissions() < ROWS * 8 / 10;
          if (reached.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() >= 5
              && emitting
              && crashed.add(key)) {
            throw new IllegalStateException("Injected combine crash: " + key + " (" + file + ")");
          }
        });
    long seed = FailureSeeds.seed(test);
    StreamingScenarios.slowFrom72PercentUntil(() -> crashed.size() == 2 * COMBINE.size());
    FailureOutcome outcome =
        StreamingScenarios.runWithFailures(
            dir,
            sinks,
            ORDERS,
            ROWS,
            ROWS_PER_SECOND,
            2,
            seed,
            Duration.ofSeconds(240),
            StreamingScenarios::bundlesEndAtCheckpoints);

    LOG.info("Combine crashes injected: {}; reached: {}", crashed, reached);
    for (String table : List.of("json", "parquet")) {
      for (Point point : COMBINE) {
        assertTrue(
            crashed.contains(table + " " + point),
            "crash injected at " + table + " " + point + ": " + crashed);
      }
    }
    assertTrue(outcome.run.finishedByItself, outcome.run.toString());
    outcome.assertFailuresInjectedAndRestarted(crashed.size(), seed);
    outcome.assertEveryRowOnce(ROWS, seed);
  }
}
