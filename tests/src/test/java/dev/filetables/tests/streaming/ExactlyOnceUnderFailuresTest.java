package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.tests.stores.StoreViews;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.sink.compact.CompactionFailpoints;
import dev.filetables.transforms.sink.streaming.SinkFailpoints;
import dev.filetables.transforms.sink.streaming.SinkFailpoints.Point;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.io.aws2.options.AwsOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.regions.Region;

/**
 * Issue 3, point 4: a streaming write on the Flink runner (parallelism 2, EXACTLY_ONCE checkpoints
 * every 500 ms) survives six injected task failures at random records: in the end the visible rows
 * of a JSON and a Parquet table are exactly the input (no duplicate, no loss), every visible file
 * reads completely, and no hidden file is visible.
 *
 * <p>The failure points are drawn from a seed that is logged; rerun one with {@code
 * -Dfiletables.failure.seed=<seed>}.
 */
class ExactlyOnceUnderFailuresTest {
  private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceUnderFailuresTest.class);
  private static final long ROWS = 30_000;
  private static final double ROWS_PER_SECOND = 1_500;
  private static final int FAILURES = 6;
  private static final Orders ORDERS = Orders.withPartitions(6);

  @TempDir Path dir;

  private final Map<Point, AtomicInteger> reached = new ConcurrentHashMap<>();

  /**
   * Tables whose publish crashed once right after a rename (the file visible, its segments not
   * deleted).
   */
  private final Set<String> renameCrashes = ConcurrentHashMap.newKeySet();

  private final AtomicInteger renames = new AtomicInteger();

  @BeforeEach
  void combineSegmentFilesConstantly() {
    StreamingScenarios.combineSegmentFilesConstantly();
    SinkFailpoints.set(
        (point, file) ->
            reached.computeIfAbsent(point, p -> new AtomicInteger()).incrementAndGet());
    CompactionFailpoints.set(
        (point, file) -> {
          if (point != CompactionFailpoints.Point.AFTER_RENAME) {
            return;
          }
          if (!file.contains("orders_json") && !file.contains("orders_parquet")) {
            return; // the crash after a rename is planned for these two tables
          }
          EmitLog log = StreamingScenarios.runningLog;
          boolean emitting = log != null && log.emissions() < ROWS * 8 / 10;
          String table = file.contains("orders_json") ? "json" : "parquet";
          if (renames.incrementAndGet() >= 5 && emitting && renameCrashes.add(table)) {
            throw new IllegalStateException("Injected crash after the publish rename of " + file);
          }
        });
  }

  @AfterEach
  void defaultSegmentCombining() {
    StreamingScenarios.defaultSegmentCombining();
    SinkFailpoints.reset();
    CompactionFailpoints.reset();
  }

  @Test
  void visibleRowsAreExactlyTheInputDespiteInjectedFailures(TestInfo test) throws Exception {
    visibleRowsAreExactlyTheInput(FailureSeeds.seed(test));
  }

  /** CI's one new failure plan per run: its seed is in the failure message, to replay it. */
  @Test
  void visibleRowsAreExactlyTheInputDespiteARandomPlanOfFailures(TestInfo test) throws Exception {
    visibleRowsAreExactlyTheInput(FailureSeeds.random(test));
  }

  /**
   * The same with the JSON table on the real S3 server (files published by completing their
   * multipart upload, no rename) and the Parquet table on the real HDFS (the NameNode's rename), in
   * one job, and a third, auto-compacted JSON table on S3, whose rolled files are plain hidden
   * objects read by the merge and whose merged files are multipart uploads; the tables are checked
   * after the job from the files the stores hold, and no upload may be left open.
   */
  @Test
  void visibleRowsAreExactlyTheInputOnS3AndHdfs(TestInfo test) throws Exception {
    StorageServers servers = StorageServers.shared();
    String run = "/exactly-once-" + UUID.randomUUID();
    Path onS3 = TablePaths.of(servers.root("s3") + run);
    Path onHdfs = TablePaths.of(servers.root("hdfs") + run);
    StreamingScenarios.checkThrough(table -> localView(servers, table, dir));
    visibleRowsAreExactlyTheInput(
        FailureSeeds.random(test),
        onS3,
        onHdfs,
        List.of(StreamingTables.compacted(onS3, "orders_compacted", "json", Map.of())),
        options -> {
          options.as(AwsOptions.class).setEndpoint(servers.s3().endpoint());
          options.as(AwsOptions.class).setAwsRegion(Region.of(servers.s3().region()));
        });
    assertEquals(List.of(), servers.openUploads(onS3.toString()), "no upload is left open on S3");
  }

  /** The table as local files: the S3 server's own files, or a copy made by Hadoop's client. */
  static TableSpec localView(StorageServers servers, TableSpec table, Path scratch)
      throws IOException {
    Path local = StoreViews.localView(servers, table.options().rootPath().toString(), scratch);
    return table.toBuilder()
        .setOptions(table.options().with(TableOptions.PATH, local.toString()))
        .build();
  }

  private void visibleRowsAreExactlyTheInput(long seed) throws Exception {
    visibleRowsAreExactlyTheInput(seed, dir, dir, List.of(), options -> {});
  }

  private void visibleRowsAreExactlyTheInput(
      long seed,
      Path jsonDir,
      Path parquetDir,
      List<SinkUnderTest> moreTables,
      Consumer<FlinkPipelineOptions> tune)
      throws Exception {
    List<SinkUnderTest> tables =
        new ArrayList<>(StreamingTables.jsonAndParquet(jsonDir, parquetDir));
    tables.addAll(moreTables);
    StreamingScenarios.slowFrom72PercentUntil(() -> renameCrashes.size() == 2);
    FailureOutcome outcome =
        StreamingScenarios.runWithFailures(
            dir,
            tables,
            ORDERS,
            ROWS,
            ROWS_PER_SECOND,
            FAILURES,
            seed,
            Duration.ofSeconds(180),
            tune);

    LOG.info("Writer steps reached: {}", reached);
    if (jsonDir == dir) {
      // On the slower stores a file rarely gathers enough segments before it rolls: the combine
      // step is covered here, on the local disk.
      assertTrue(reached.containsKey(Point.COMBINE_WRITTEN), "segment files combined: " + reached);
    }
    assertEquals(
        Set.of("json", "parquet"),
        renameCrashes,
        "a crash right after a publish rename, per table");
    outcome.assertFailuresInjectedAndRestarted(renameCrashes.size(), seed);
    assertTrue(outcome.emitted > ROWS, "restores replay rows: " + outcome.emitted + " emitted");
    // the finite source ends the input: the sink publishes its last files and the job finishes
    assertTrue(outcome.run.finishedByItself, outcome.run.toString());
    outcome.assertEveryRowOnce(ROWS, seed);
  }
}
