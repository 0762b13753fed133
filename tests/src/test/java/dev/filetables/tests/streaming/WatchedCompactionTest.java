package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.testfixtures.CliProcess;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.FileTableMaintenance;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.aws2.options.AwsOptions;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.regions.Region;

/**
 * Issue 17, point 4: the watched source on Flink {@code [local]} copies a table while {@code
 * bin/filetables compact} (the CLI in its own JVM) compacts the partitions it watches — one it has
 * read in full, one it has read in part, one it has not read yet — while its job is stopped with a
 * savepoint, then once more with {@code --grace 0}, so that the replaced files are gone when the
 * job restored from the savepoint polls again; and a partition compacted while the job runs and
 * files keep landing in it. DuckDB must read every landed row in the copy exactly once, and the
 * source must have emitted each row once. On the local disk and on the S3 server.
 */
class WatchedCompactionTest {
  private static final Logger LOG = LoggerFactory.getLogger(WatchedCompactionTest.class);
  private static final int ROWS_PER_FILE = 20;

  /** The write id in the landed files' names, as if FileTables had written them. */
  private static final String LANDING_UUID = "11111111-2222-3333-4444-555555555555";

  /** Files landing at most in the day compacted while the job runs. */
  private static final int LIVE_FILES = 8;

  /** One mini cluster for both stores: starting one costs seconds. */
  @TempDir static Path clusterDir;

  private static LocalFlinkCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = LocalFlinkCluster.start(clusterDir.resolve("flink"), StreamingScenarios.PARALLELISM);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private final String sinkWriteUuid = UUID.randomUUID().toString();
  private String landingRoot;
  private StorageServers servers;
  private int landed;

  private String landingDdl() {
    return "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING, dt STRING) PARTITIONED BY (dt)"
        + " WITH ('connector' = 'filesystem', 'path' = '"
        + landingRoot
        + "', 'format' = 'json', 'source.monitor-interval' = '200 ms')";
  }

  private TableSpec sink() {
    return DdlParser.parse(
        "CREATE TABLE copy (id BIGINT NOT NULL, msg STRING, dt STRING) PARTITIONED BY (dt)"
            + " WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("copy")
            + "', 'format' = 'json',"
            + " 'sink.rolling-policy.rollover-interval' = '1 s',"
            + " 'sink.rolling-policy.inactivity-interval' = '1 s',"
            + " 'sink.rolling-policy.check-interval' = '500 ms')");
  }

  /** Lands {@code files} part files (rows n*R .. n*R+R-1 each) in partition {@code dt}. */
  private void land(String dt, int files) throws IOException {
    Path partition = TablePaths.of(landingRoot + "/dt=" + dt);
    Files.createDirectories(partition);
    for (int f = 0; f < files; f++) {
      int n = landed++;
      StringBuilder lines = new StringBuilder();
      for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
        lines.append("{\"id\": ").append(id).append(", \"msg\": \"row ").append(id).append("\"}\n");
      }
      String name = PartFileName.visible(LANDING_UUID, "0", n, ".json");
      Path hidden = partition.resolve("." + name + ".tmp");
      Files.write(hidden, lines.toString().getBytes(StandardCharsets.UTF_8));
      FileOps.moveIntoPlace(hidden, partition.resolve(name), false);
    }
  }

  private long landedRows() {
    return (long) landed * ROWS_PER_FILE;
  }

  /** Runs {@code bin/filetables compact} on the landing table in a CLI process. */
  private void compact(String grace) throws Exception {
    Path ddl = Files.writeString(dir.resolve("landing.sql"), landingDdl());
    List<String> args =
        new ArrayList<>(
            List.of("compact", ddl.toString(), "--target-size", "64MB", "--grace", grace));
    Map<String, String> properties = Map.of();
    if (servers != null) {
      args.addAll(servers.pipelineArgs());
      properties =
          Map.of(
              "aws.accessKeyId", servers.s3().accessKey(),
              "aws.secretAccessKey", servers.s3().secretKey());
    }
    long started = System.nanoTime();
    Path log = dir.resolve("compact-" + UUID.randomUUID() + ".log");
    try (CliProcess cli = CliProcess.start(args, Map.of(), properties, log)) {
      assertEquals(0, cli.awaitExit(Duration.ofSeconds(120)), "compact:\n" + cli.output());
      LOG.info(
          "compact --grace {} took {} ms: {}",
          grace,
          (System.nanoTime() - started) / 1_000_000,
          cli.output().lines().filter(l -> l.contains("files")).findFirst().orElse(""));
    }
  }

  /** The landing table's files as a FileTables reader lists them now. */
  private List<String> listedLanding() throws IOException {
    TableSpec landing = DdlParser.parse(landingDdl());
    return TableListing.list(
            landing.options().rootPath(),
            landing.partitionKeys(),
            landing.options().partitionDefaultName(),
            PartitionFilter.all(),
            Optional.empty())
        .stream()
        .map(f -> f.path().substring(f.path().lastIndexOf('/') + 1))
        .toList();
  }

  private Pipeline pipeline(FlinkPipelineOptions options, FailureInjector.Plan plan) {
    if (servers != null) { // the job sets the stores' options of this JVM: they must reach S3
      options.as(AwsOptions.class).setEndpoint(servers.s3().endpoint());
      options.as(AwsOptions.class).setAwsRegion(Region.of(servers.s3().region()));
    }
    TableSpec landing = DdlParser.parse(landingDdl());
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Watch", FileTableIO.read(landing).withWatchShards(2))
        .apply("InjectFailures", ParDo.of(new FailureInjector(plan)))
        .setRowSchema(landing.schema())
        .apply("Write copy", FileTableIO.write(sink()).withWriteUuid(sinkWriteUuid));
    return pipeline;
  }

  /** Every visible row of the copy as DuckDB reads it ({@code id|msg|dt}), with its count. */
  private Map<String, Integer> copyRows() throws Exception {
    Map<String, Integer> rows = new TreeMap<>();
    try (IndependentReader reader = IndependentReader.open()) {
      for (Path file : IndependentReader.visibleFiles(dir.resolve("copy"), ".json")) {
        for (String row :
            reader.query(
                "SELECT id, msg, dt FROM read_json("
                    + IndependentReader.literal(file)
                    + ", format = 'newline_delimited', hive_partitioning = true,"
                    + " hive_types_autocast = false, columns = {'id': 'BIGINT', 'msg': 'VARCHAR'})")) {
          rows.merge(row, 1, Integer::sum);
        }
      }
    }
    return rows;
  }

  private long copyRowCount() throws Exception {
    return copyRows().values().stream().mapToLong(Integer::longValue).sum();
  }

  /** Waits until the copy shows at least {@code rows} rows, for 2 s in a row. */
  private void awaitCopy(long rows, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long since = -1;
    long seen = 0;
    while (System.nanoTime() < deadline) {
      seen = copyRowCount();
      if (seen >= rows) {
        if (since < 0) {
          since = System.nanoTime();
        } else if (System.nanoTime() - since > 2_000_000_000L) {
          return;
        }
      } else {
        since = -1;
      }
      Thread.sleep(300);
    }
    throw new AssertionError("the copy shows " + seen + " of " + rows + " rows after " + timeout);
  }

  private Map<String, Integer> expectedRows(Map<Integer, String> dayOfFile) {
    Map<String, Integer> rows = new TreeMap<>();
    dayOfFile.forEach(
        (n, dt) -> {
          for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
            rows.put(id + "|row " + id + "|" + dt, 1);
          }
        });
    return rows;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"local", "s3"})
  void everyRowOnceAcrossCompactionsOfPartitionsReadFullyPartlyAndNotYet(String store)
      throws Exception {
    servers = store.equals("local") ? null : StorageServers.shared();
    landingRoot =
        servers == null
            ? dir.resolve("landing").toString()
            : servers.root(store) + "/watched-compact-" + UUID.randomUUID() + "/landing";
    Map<Integer, String> dayOfFile = new TreeMap<>();
    FailureInjector.Plan none = FailureInjector.none();
    long started = System.nanoTime();
    try {
      landDays(dayOfFile, "a", 6); // read in full before the compaction
      landDays(dayOfFile, "b", 4); // read before the compaction, 4 more landing after
      JobID first =
          cluster.submit(pipeline(StreamingScenarios.options(cluster, "watch-compact-1"), none));
      cluster.awaitAllTasksRunning(first, Duration.ofSeconds(60));
      awaitCopy(landedRows(), Duration.ofSeconds(60));
      String savepoint = cluster.stopWithSavepoint(first);
      cluster.awaitTermination(first, Duration.ofSeconds(60));
      long firstJob = (System.nanoTime() - started) / 1_000_000;

      // while no job runs: more files, and a compaction that deletes the files it replaces (the
      // restored job finds them gone, as after the grace period)
      landDays(dayOfFile, "b", 4);
      landDays(dayOfFile, "c", 6); // not read before the compaction
      compact("0 s");
      assertEquals(3, listedLanding().size(), "one merged file per day: " + listedLanding());

      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "watch-compact-2");
      options.setSavepointPath(savepoint);
      options.setAllowNonRestoredState(false);
      JobID second = cluster.submit(pipeline(options, none));
      cluster.awaitAllTasksRunning(second, Duration.ofSeconds(60));
      // a day compacted while the job runs and files keep landing in it
      landDays(dayOfFile, "d", 3);
      AtomicBoolean compacting = new AtomicBoolean(true);
      Thread lander =
          new Thread(
              () -> {
                try {
                  for (int n = 0; n < LIVE_FILES && compacting.get(); n++) {
                    landDays(dayOfFile, "d", 1);
                    Thread.sleep(250);
                  }
                } catch (IOException | InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              "lander");
      lander.start();
      try {
        // in this JVM (as CompactVisibilityTest runs it): the merged file is committed within
        // moments of the files it merges landing, often before the job has listed them
        FileTableMaintenance.compact(
            DdlParser.parse(landingDdl()),
            PartitionFilter.all(),
            64 << 20,
            Duration.ofMinutes(5),
            false);
      } finally {
        compacting.set(false);
        lander.join();
      }
      awaitCopy(landedRows(), Duration.ofSeconds(90));
      cluster.cancel(second);
      LOG.info(
          "{}: {} files landed ({} rows); first job stopped after {} ms, all in {} ms",
          store,
          landed,
          landedRows(),
          firstJob,
          (System.nanoTime() - started) / 1_000_000);

      IndependentReader.Verdict verdict =
          IndependentReader.compare(expectedRows(dayOfFile), copyRows());
      List<String> problems = new ArrayList<>(verdict.extraProblems("DuckDB"));
      problems.addAll(verdict.missingProblems("DuckDB"));
      assertEquals(List.of(), problems, "the copy, as DuckDB reads it");
      assertEquals(landedRows(), none.recordsSeen(), "the source emitted each row once");
    } finally {
      FailureInjector.forget(none);
    }
  }

  private void landDays(Map<Integer, String> dayOfFile, String day, int files) throws IOException {
    String dt = "2020-05-2" + (day.charAt(0) - 'a');
    synchronized (dayOfFile) {
      for (int f = 0; f < files; f++) {
        dayOfFile.put(landed + f, dt);
      }
      land(dt, files);
    }
  }
}
