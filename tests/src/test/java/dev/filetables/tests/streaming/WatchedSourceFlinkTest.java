package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.Stores;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.transforms.FileTableIO;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 5, point 2: the watched source on the Flink runner (parallelism 2, EXACTLY_ONCE checkpoints
 * every 500 ms) while files keep arriving in new partitions, copied into a streaming JSON table.
 * With injected task failures, and across a stop-with-savepoint and a new job restored from it
 * (files arriving while no job runs), the sink ends with every row of every landed file exactly
 * once: no file read twice, none skipped. Also with the files landing on HDFS.
 */
class WatchedSourceFlinkTest {
  private static final Logger LOG = LoggerFactory.getLogger(WatchedSourceFlinkTest.class);
  private static final int FILES = 40;
  private static final int ROWS_PER_FILE = 60;
  private static final long ROWS = (long) FILES * ROWS_PER_FILE;
  private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

  @TempDir Path dir;

  /** Where files land: a local directory, or one on HDFS. */
  private Path landingRoot;

  @BeforeEach
  void landLocally() {
    landingRoot = dir.resolve("landing");
  }

  private TableSpec landing() {
    return DdlParser.parse(
        "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING, dt STRING, `hour` STRING)"
            + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
            + landingRoot
            + "', 'format' = 'json', 'source.monitor-interval' = '200 ms')");
  }

  private TableSpec sink() {
    return DdlParser.parse(
        "CREATE TABLE copy (id BIGINT NOT NULL, msg STRING, dt STRING, `hour` STRING)"
            + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("copy")
            + "', 'format' = 'json',"
            + " 'sink.rolling-policy.rollover-interval' = '1 s',"
            + " 'sink.rolling-policy.inactivity-interval' = '1 s',"
            + " 'sink.rolling-policy.check-interval' = '1 s')");
  }

  /** Lands file {@code n} (rows n*R .. n*R+R-1) atomically; a new hour partition every 5 files. */
  private void land(int n) throws IOException {
    String partition = "dt=2020-05-" + (20 + n / 20) + "/hour=" + String.format("%02d", n / 5 % 4);
    WatchedCopy.landFile(landingRoot.resolve(partition), n, ROWS_PER_FILE);
  }

  /** Lands files {@code from .. to-1} in the background, one every {@code pauseMillis}. */
  private Thread landInBackground(int from, int to, long pauseMillis) {
    Thread thread =
        new Thread(
            () -> {
              try {
                for (int n = from; n < to; n++) {
                  land(n);
                  Thread.sleep(pauseMillis);
                }
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            },
            "lander");
    thread.start();
    return thread;
  }

  private Pipeline pipeline(
      FlinkPipelineOptions options, FailureInjector.Plan plan, String writeUuid) {
    TableSpec landing = landing();
    Pipeline pipeline = Pipeline.create(options);
    PCollection<Row> rows =
        pipeline
            .apply("Watch", FileTableIO.read(landing).withWatchShards(2))
            .apply("InjectFailures", ParDo.of(new FailureInjector(plan)))
            .setRowSchema(landing.schema());
    rows.apply("Write copy", FileTableIO.write(sink()).withWriteUuid(writeUuid));
    return pipeline;
  }

  /** A visible file of the copy as DuckDB reads it: {@code id|msg|dt|hour} per row. */
  private static List<String> copyRows(
      IndependentReader reader, Path root, Path file, String format) throws Exception {
    return reader.query(
        "SELECT id, msg, dt, hour FROM read_json("
            + IndependentReader.literal(file)
            + ", format = 'newline_delimited',"
            + " hive_partitioning = true, hive_types_autocast = false, columns = {'id': 'BIGINT', 'msg': 'VARCHAR'})");
  }

  /** Every landed row as {@code id|msg|dt|hour}, once. */
  private static Map<String, Integer> landedRows() {
    Map<String, Integer> rows = new TreeMap<>();
    for (long id = 0; id < ROWS; id++) {
      int n = (int) (id / ROWS_PER_FILE);
      rows.merge(
          id + "|row " + id + "|2020-05-" + (20 + n / 20) + "|" + String.format("%02d", n / 5 % 4),
          1,
          Integer::sum);
    }
    return rows;
  }

  /** The copy, read by DuckDB (own listing), equals the landed rows as a multiset. */
  private void assertDuckDbReadsEveryLandedRowOnce() throws Exception {
    Path root = dir.resolve("copy");
    Map<String, Integer> read = new TreeMap<>();
    try (IndependentReader reader = IndependentReader.open()) {
      for (Path file : IndependentReader.visibleFiles(root, ".json")) {
        for (String row : copyRows(reader, root, file, "json")) {
          read.merge(row, 1, Integer::sum);
        }
      }
    }
    IndependentReader.Verdict verdict = IndependentReader.compare(landedRows(), read);
    List<String> problems = new java.util.ArrayList<>(verdict.extraProblems("DuckDB"));
    problems.addAll(verdict.missingProblems("DuckDB"));
    assertEquals(List.of(), problems);
  }

  /** id → how often it is visible in the sink. */
  private Map<Long, Integer> sinkIds() throws IOException {
    Map<Long, Integer> counts = new TreeMap<>();
    Path root = dir.resolve("copy");
    if (!Files.exists(root)) {
      return counts;
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(Files::isRegularFile)
              .filter(
                  p ->
                      !p.getFileName().toString().startsWith(".")
                          && !p.getFileName().toString().startsWith("_"))
              .collect(Collectors.toList());
    }
    for (Path file : files) {
      for (String line : Files.readAllLines(file)) {
        Matcher m = ID.matcher(line);
        if (m.find()) {
          counts.merge(Long.parseLong(m.group(1)), 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  /**
   * Numbers of the landed files with no row in the sink (a file is landed whole, so rows go by
   * file).
   */
  private static java.util.List<Long> missingFiles(Map<Long, Integer> ids) {
    java.util.TreeSet<Long> files = new java.util.TreeSet<>();
    for (long id = 0; id < ROWS; id++) {
      if (!ids.containsKey(id)) {
        files.add(id / ROWS_PER_FILE);
      }
    }
    return new java.util.ArrayList<>(files);
  }

  /** The sink's hidden files (in progress, segments, intents), relative to its root. */
  private java.util.List<String> hiddenFiles() throws IOException {
    Path root = dir.resolve("copy");
    if (!Files.exists(root)) {
      return java.util.List.of();
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().startsWith("."))
          .map(p -> root.relativize(p).toString())
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** Waits until the sink shows {@code rows} rows for 3 s in a row. */
  private Map<Long, Integer> awaitSink(long rows, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long completeSince = -1;
    Map<Long, Integer> ids = Map.of();
    while (System.nanoTime() < deadline) {
      ids = sinkIds();
      long visible = ids.values().stream().mapToLong(Integer::longValue).sum();
      if (visible >= rows) {
        if (completeSince < 0) {
          completeSince = System.nanoTime();
        } else if (System.nanoTime() - completeSince > 3_000_000_000L) {
          return sinkIds();
        }
      } else {
        completeSince = -1;
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        "Sink has "
            + ids.size()
            + " distinct of "
            + rows
            + " rows after "
            + timeout
            + "; missing files (of "
            + ROWS_PER_FILE
            + " rows each): "
            + missingFiles(ids)
            + "; hidden files in the sink: "
            + hiddenFiles());
  }

  private static void assertExactlyOnce(Map<Long, Integer> ids) {
    List<Long> missing = new java.util.ArrayList<>();
    List<Long> doubled = new java.util.ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      int count = ids.getOrDefault(id, 0);
      if (count == 0) {
        missing.add(id);
      } else if (count > 1) {
        doubled.add(id);
      }
    }
    assertEquals(
        List.of(),
        missing.subList(0, Math.min(20, missing.size())),
        missing.size() + " rows missing");
    assertEquals(
        List.of(),
        doubled.subList(0, Math.min(20, doubled.size())),
        doubled.size() + " rows doubled");
    assertEquals(ROWS, ids.size());
  }

  @Test
  void everyLandedRowOnceDespiteInjectedFailures(TestInfo test) throws Exception {
    long seed = FailureSeeds.seed(test);
    FailureInjector.Plan plan = FailureInjector.random(seed, 4, ROWS / 10, ROWS * 8 / 10);
    for (int n = 0; n < 5; n++) {
      land(n); // some files are there before the job starts
    }
    LiveReader live = LiveReader.start(sink(), WatchedSourceFlinkTest::copyRows);
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      JobID job =
          cluster.submit(
              pipeline(
                  StreamingScenarios.options(cluster, "watch-failures"),
                  plan,
                  UUID.randomUUID().toString()));
      cluster.awaitAllTasksRunning(job, Duration.ofSeconds(60));
      Thread lander = landInBackground(5, FILES, 150);
      lander.join();
      Map<Long, Integer> ids = awaitSink(ROWS, Duration.ofSeconds(150));
      LOG.info("{}; {} completed checkpoints", plan, cluster.completedCheckpoints(job));
      cluster.cancel(job);
      live.stopAndAssertNothingWrong("watched source, failure seed " + seed);
      assertEquals(plan.planned(), plan.injected(), "every planned failure injected once: " + plan);
      assertExactlyOnce(ids);
      assertDuckDbReadsEveryLandedRowOnce();
    } finally {
      live.close();
      FailureInjector.forget(plan);
    }
  }

  /**
   * The watched source on HDFS (S3: WatchedStoreRunTest): files and new partitions landing there
   * (written under a hidden name, renamed into place) while the job runs, every row once.
   */
  @Test
  void watchesHdfsEveryLandedRowOnce() throws Exception {
    landingRoot =
        TablePaths.of(
            StorageServers.shared().root("hdfs") + "/watched-" + UUID.randomUUID() + "/landing");
    assertTrue(Stores.isStore(landingRoot), "lands on HDFS: " + landingRoot);
    FailureInjector.Plan none = FailureInjector.none();
    for (int n = 0; n < 5; n++) {
      land(n); // some files are there before the job starts
    }
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      JobID job =
          cluster.submit(
              pipeline(
                  StreamingScenarios.options(cluster, "watch-hdfs"),
                  none,
                  UUID.randomUUID().toString()));
      cluster.awaitAllTasksRunning(job, Duration.ofSeconds(60));
      landInBackground(5, FILES, 100).join();
      Map<Long, Integer> ids = awaitSink(ROWS, Duration.ofSeconds(150));
      cluster.cancel(job);
      assertExactlyOnce(ids);
      assertDuckDbReadsEveryLandedRowOnce();
      assertEquals(ROWS, none.recordsSeen(), "the source emitted each row once");
    } finally {
      FailureInjector.forget(none);
    }
  }

  /**
   * The restored job also runs at another parallelism (issue 17: 2 → 4 and 4 → 2): the shards'
   * restrictions and the writers' keyed state are redistributed over the new subtasks.
   */
  @ParameterizedTest(name = "parallelism {0} -> {1}")
  @CsvSource({"2, 4", "4, 2"})
  void newJobFromSavepointReadsWhatLandedMeanwhileAndNothingTwice(
      int firstParallelism, int secondParallelism) throws Exception {
    FailureInjector.Plan none = FailureInjector.none();
    String writeUuid = UUID.randomUUID().toString();
    LiveReader live = LiveReader.start(sink(), WatchedSourceFlinkTest::copyRows);
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), 2 * StreamingScenarios.PARALLELISM)) {
      FlinkPipelineOptions firstOptions = StreamingScenarios.options(cluster, "watch-first");
      firstOptions.setParallelism(firstParallelism);
      JobID first = cluster.submit(pipeline(firstOptions, none, writeUuid));
      cluster.awaitAllTasksRunning(first, Duration.ofSeconds(60));
      landInBackground(0, FILES / 2, 100).join();
      cluster.awaitCompletedCheckpoints(
          first, cluster.completedCheckpoints(first) + 2, Duration.ofSeconds(60));
      String savepoint = cluster.stopWithSavepoint(first);
      cluster.awaitTermination(first, Duration.ofSeconds(60));
      long seenByFirst = none.recordsSeen();
      LOG.info("First job stopped after {} rows; savepoint {}", seenByFirst, savepoint);
      for (int n = FILES / 2; n < FILES * 3 / 4; n++) {
        land(n); // while no job runs
      }
      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "watch-second");
      options.setParallelism(secondParallelism);
      options.setSavepointPath(savepoint);
      options.setAllowNonRestoredState(false);
      JobID second = cluster.submit(pipeline(options, none, writeUuid));
      cluster.awaitAllTasksRunning(second, Duration.ofSeconds(60));
      landInBackground(FILES * 3 / 4, FILES, 100).join();
      Map<Long, Integer> ids = awaitSink(ROWS, Duration.ofSeconds(150));
      cluster.cancel(second);
      live.stopAndAssertNothingWrong("watched source across stop-with-savepoint and restore");
      LOG.info(
          "Rows through the source: {} by the first job, {} in total",
          seenByFirst,
          none.recordsSeen());
      assertExactlyOnce(ids);
      assertDuckDbReadsEveryLandedRowOnce();
      assertEquals(
          ROWS,
          none.recordsSeen(),
          "the source emitted each row once over both jobs (no failures)");
    } finally {
      live.close();
      FailureInjector.forget(none);
    }
  }
}
