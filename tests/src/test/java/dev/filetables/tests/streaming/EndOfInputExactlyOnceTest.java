package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.files.IntentFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.FileTableMaintenance;
import dev.filetables.transforms.sink.compact.CompactionFailpoints;
import dev.filetables.transforms.sink.compact.CompactionFailpoints.Point;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a finite stream on the Flink runner (parallelism 2, checkpoints every 500 ms), JSON,
 * uncompacted and with auto-compaction, partitions committed with a manifest: the groups whose
 * files are not durable at the end of the input are prepared under an intent and published when the
 * job's final checkpoint completes.
 *
 * <ul>
 *   <li>A failure after the end of the input, before the final checkpoint (an end timer fails right
 *       after writing its first intent): the job restores the last checkpoint, replays, and ends
 *       {@code FINISHED} with every row visible exactly once, no intent and no hidden file left,
 *       every partition committed as visible.
 *   <li>A failure inside the final checkpoint's callback (after its first published group): the
 *       runner does not retry it and the job still ends {@code FINISHED}, with intents left; the
 *       post-job publish ({@link FileTableMaintenance#publishLeftovers}) then leaves every row
 *       visible exactly once, nothing hidden, every partition committed with a manifest of exactly
 *       its visible files.
 *   <li>An endless stream stopped with {@code --drain}: the callbacks run at the synchronous
 *       savepoint; every emitted row visible once, nothing hidden.
 * </ul>
 */
class EndOfInputExactlyOnceTest {
  private static final Logger LOG = LoggerFactory.getLogger(EndOfInputExactlyOnceTest.class);
  private static final long ROWS = 6_000;
  private static final double ROWS_PER_SECOND = 2_000;
  private static final Orders ORDERS = Orders.withPartitions(4);

  @TempDir Path dir;

  private final Map<String, AtomicInteger> reached = new ConcurrentHashMap<>();
  private final Set<String> crashed = ConcurrentHashMap.newKeySet();

  @AfterEach
  void reset() {
    CompactionFailpoints.reset();
  }

  /**
   * A JSON table (compacted or not) committed with a success file and manifest, written under
   * {@code uuid}.
   */
  private SinkUnderTest sink(String name, boolean compaction, String uuid) {
    return sink(dir, name, compaction, uuid);
  }

  private SinkUnderTest sink(Path base, String name, boolean compaction, String uuid) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(TableOptions.COMMIT_POLICY_KIND, "success-file");
    options.put(TableOptions.COMMIT_DELAY, "1 h");
    if (compaction) {
      options.put(TableOptions.AUTO_COMPACTION, "true");
      options.put(TableOptions.COMPACTION_FILE_SIZE, "256kb");
      options.put(TableOptions.COMPACTION_MAX_DELAY, "2 s");
    }
    TableSpec table = CommitTables.table(base, name, options);
    return new SinkUnderTest(table, t -> FileTableIO.write(t).withWriteUuid(uuid))
        .doneWhen(t -> CommitTables.committedPartitions(t).size() == ORDERS.partitions());
  }

  private static String tableOf(String path) {
    return path.contains("orders_compacted") ? "compacted" : "plain";
  }

  /**
   * Counts every point reached per table; throws once at {@code crashAt} (per table if {@code
   * perTable}).
   */
  private void crashOnceAt(Point crashAt, boolean perTable) {
    CompactionFailpoints.set(
        (point, file) -> {
          String key = tableOf(file) + " " + point;
          reached.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
          if (point == crashAt && crashed.add(perTable ? tableOf(file) : "once")) {
            throw new IllegalStateException(
                "Injected end-of-input crash at " + key + " (" + file + ")");
          }
        });
  }

  private static List<Path> intents(TableSpec table) throws IOException {
    try (Stream<Path> files = Files.walk(CommitTables.root(table))) {
      return files
          .filter(p -> IntentFileName.isIntent(p.getFileName().toString()))
          .collect(Collectors.toList());
    }
  }

  private static void assertCompleteAndCommitted(TableSpec table, ExactlyOnceCheck check)
      throws Exception {
    assertEquals(List.of(), check.exactlyOnceProblems(), check.toString());
    assertEquals(ROWS, check.visibleRows, check.toString());
    assertEquals(List.of(), check.contents.inProgressFiles(), table.name() + ": hidden files left");
    assertEquals(List.of(), intents(table), table.name() + ": intents left");
    Map<String, Set<String>> visible = CommitTables.filesPerPartition(check.contents);
    Map<String, Long> rows = CommitTables.rowsPerPartition(check.contents);
    assertEquals(
        ORDERS.partitions(), visible.size(), table.name() + ": partitions " + visible.keySet());
    assertEquals(
        visible.keySet(),
        CommitTables.committedPartitions(table),
        table.name() + ": partitions with a success file");
    for (String partition : visible.keySet()) {
      Path partitionDir = CommitTables.root(table).resolve(partition);
      CommitManifest manifest = CommitManifest.read(partitionDir.resolve(CommitTables.SUCCESS));
      assertEquals(List.of(), manifest.verify(partitionDir), table.name() + " " + partition);
      assertEquals(
          visible.get(partition),
          new TreeSet<>(manifest.files().keySet()),
          table.name() + " " + partition);
      if (!manifest.json().path("rowCount").isNull()) {
        assertEquals(
            (long) rows.get(partition),
            manifest.json().path("rowCount").asLong(),
            table.name() + " " + partition);
      }
    }
  }

  /**
   * Under load the final checkpoint after the replay may fail altogether
   * (FinalCheckpointDeclinedTest); then its callback never runs and the post-job publish does the
   * work. Every run must still leave each row visible exactly once, but a run whose final
   * checkpoint failed does not test the replay's publish, so it is repeated (at most three runs).
   */
  @Test
  void aFailureAfterTheEndOfInputBeforeTheFinalCheckpointReplaysExactlyOnce() throws Exception {
    boolean publishedAtTheFinalCheckpoint = false;
    for (int attempt = 1; attempt <= 3 && !publishedAtTheFinalCheckpoint; attempt++) {
      Path base = dir.resolve("run-" + attempt);
      List<SinkUnderTest> sinks =
          List.of(
              sink(base, "orders_plain", false, UUID.randomUUID().toString()),
              sink(base, "orders_compacted", true, UUID.randomUUID().toString()));
      reached.clear();
      crashed.clear();
      crashOnceAt(Point.END_OF_INPUT_PREPARED, false);
      long start = System.nanoTime();
      FailureOutcome outcome =
          StreamingScenarios.runWithFailures(
              base, sinks, ORDERS, ROWS, ROWS_PER_SECOND, 0, 1L, Duration.ofSeconds(90));
      LOG.info(
          "Run {}: crashed: {}; reached: {}; {} in {} ms",
          attempt,
          crashed,
          reached,
          outcome.run,
          (System.nanoTime() - start) / 1_000_000);

      assertTrue(crashed.contains("once"), "the end timer never prepared anything: " + reached);
      assertTrue(outcome.run.finishedByItself, outcome.run.toString());
      for (SinkUnderTest sink : sinks) {
        assertCompleteAndCommitted(sink.table, outcome.checks.get(sink.table.name()));
      }
      publishedAtTheFinalCheckpoint =
          Stream.of("plain", "compacted")
              .allMatch(
                  table ->
                      reached
                              .getOrDefault(
                                  table + " " + Point.END_OF_INPUT_PUBLISHED, new AtomicInteger())
                              .get()
                          > 0);
    }
    assertTrue(
        publishedAtTheFinalCheckpoint,
        "in three runs, nothing was published at the final checkpoint after the replay: "
            + reached);
  }

  /**
   * A crash inside the final checkpoint's callback. Under load that checkpoint may fail altogether
   * (FinalCheckpointDeclinedTest), and then the callback never runs and cannot crash: such a run is
   * repeated (at most three runs), since this test is about the crash inside the callback.
   */
  @Test
  void aFailureInTheFinalCheckpointCallbackIsFinishedByThePostJobPublish() throws Exception {
    FailureOutcome outcome = null;
    List<SinkUnderTest> sinks = null;
    Map<String, String> uuids = new LinkedHashMap<>();
    for (int attempt = 1; attempt <= 3 && crashed.isEmpty(); attempt++) {
      Path base = dir.resolve("run-" + attempt);
      uuids.put("orders_plain", UUID.randomUUID().toString());
      uuids.put("orders_compacted", UUID.randomUUID().toString());
      sinks =
          List.of(
              sink(base, "orders_plain", false, uuids.get("orders_plain")),
              sink(base, "orders_compacted", true, uuids.get("orders_compacted")));
      // each table's callback fails once: the one that fails first restarts the job from the final
      // checkpoint, which also drops the callbacks that had not run yet
      reached.clear();
      crashOnceAt(Point.END_OF_INPUT_PUBLISHED, true);
      outcome =
          StreamingScenarios.runWithFailures(
              base, sinks, ORDERS, ROWS, ROWS_PER_SECOND, 0, 1L, Duration.ofSeconds(90));
      LOG.info("Run {}: crashed: {}; reached: {}; {}", attempt, crashed, reached, outcome.run);
    }

    assertFalse(crashed.isEmpty(), "the callback never ran in three runs: " + reached);
    assertTrue(outcome.run.finishedByItself, outcome.run.toString());
    // the crash left work undone, which finishing the write (the harness, as the CLI) published
    assertTrue(
        outcome.run.leftWorkForThePostJobPublish(),
        "the job ended with nothing left: " + outcome.run);
    LOG.info("Post-job publish: {}", outcome.run.leftovers);

    for (SinkUnderTest sink : sinks) {
      ExactlyOnceCheck check = ExactlyOnceCheck.of(sink.table, ORDERS, ROWS);
      assertCompleteAndCommitted(sink.table, check);
      assertTrue(
          FileTableMaintenance.finishWrite(sink.table, uuids.get(sink.table.name())).isEmpty(),
          "a second run has nothing to do");
    }
  }

  /**
   * An endless stream stopped with {@code --drain} (stop with a savepoint; the input "ends" and the
   * synchronous savepoint is the final checkpoint): the files prepared at the drain are published
   * by the callback at that savepoint, without any post-job publish.
   */
  @Test
  void aDrainedStopPublishesTheLastFilesAtItsSavepoint() throws Exception {
    List<SinkUnderTest> sinks =
        List.of(
            sink("orders_plain", false, UUID.randomUUID().toString()),
            sink("orders_compacted", true, UUID.randomUUID().toString()));
    crashed.add("once"); // counts the points reached, never crashes
    crashOnceAt(Point.END_OF_INPUT_PREPARED, false);
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    FailureInjector.Plan none = FailureInjector.none();
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      OrdersSource endless =
          OrdersSource.of(ORDERS).withRowsPerSecond(ROWS_PER_SECOND).withEmitLog(logId);
      JobID job =
          cluster.submit(
              StreamingScenarios.pipeline(
                  StreamingScenarios.options(cluster, "drain"), endless, none, sinks));
      cluster.awaitAllTasksRunning(job, Duration.ofSeconds(60));
      cluster.awaitCompletedCheckpoints(job, 2, Duration.ofSeconds(60));
      StreamingScenarios.awaitEmitted(log, 3_000, Duration.ofSeconds(60));
      cluster.drainWithSavepoint(job);
      cluster.awaitTermination(job, Duration.ofSeconds(60));
      long emitted = log.emissions();
      LOG.info("Drained after {} rows; reached: {}", emitted, reached);
      for (String table : List.of("plain", "compacted")) {
        assertTrue(
            reached
                    .getOrDefault(table + " " + Point.END_OF_INPUT_PUBLISHED, new AtomicInteger())
                    .get()
                > 0,
            table + ": nothing prepared at the drain and published at its savepoint: " + reached);
      }
      for (SinkUnderTest sink : sinks) {
        // an endless source's splits emit interleaved ids: every emitted row once, not ids 0..n-1
        ExactlyOnceCheck check = ExactlyOnceCheck.of(sink.table, ORDERS, 2 * emitted);
        assertEquals(0, check.duplicateRows, check.toString());
        assertEquals(emitted, check.visibleRows, check.toString());
        assertEquals(
            List.of(), intents(sink.table), sink.table.name() + ": intents left after the drain");
        assertEquals(
            List.of(), check.contents.inProgressFiles(), sink.table.name() + ": hidden files left");
      }
    } finally {
      EmitLog.remove(logId);
      FailureInjector.forget(none);
    }
  }
}
