package dev.filetables.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.testfixtures.CliProcess;
import dev.filetables.tests.stores.StoreViews;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 16: a batch job started while the HDFS NameNode is down (killed with {@code kill -9}, as
 * {@code NameNodeLossTest} does), run by the command line as users run it. By default Hadoop's
 * client does not retry a refused connection to a NameNode: the job fails within seconds with one
 * line naming the NameNode. With {@code dfs.client.retry.policy.enabled} in the {@code
 * hdfs-site.xml} of {@code HADOOP_CONF_DIR}, as docs/storage.md tells users, the client waits
 * instead: the NameNode comes back while the job waits, and the job writes every row once, as
 * DuckDB reads the files Hadoop's client copies out.
 *
 * <p>{@code HADOOP_CONF_DIR} is read from the environment once per JVM, so each job runs in a child
 * JVM ({@link CliProcess}). Both tests share one outage: the first leaves HDFS down, the second
 * brings it back.
 */
@Tag("cluster")
@TestMethodOrder(OrderAnnotation.class)
class NameNodeDownAtStartTest {
  private static final Logger LOG = LoggerFactory.getLogger(NameNodeDownAtStartTest.class);

  /**
   * 20 retries about 2 s apart (Hadoop draws each sleep between 1 and 3 s): some 40 s of waiting.
   */
  private static final String RETRY_SPEC = "2000,20";

  /** What Hadoop's IPC client logs (at INFO) before each new attempt to connect. */
  private static final String RETRYING = "Retrying connect to server";

  /**
   * Hadoop's retries logged (a refused connection, a NameNode in safe mode): the proof that a job
   * waits, or does not.
   */
  private static final Map<String, String> LOG_RETRIES =
      Map.of(
          "org.slf4j.simpleLogger.log.org.apache.hadoop.ipc.Client", "info",
          "org.slf4j.simpleLogger.log.org.apache.hadoop.io.retry", "info");

  private static final int ROWS = 2_000;

  /**
   * Rows from this one on repeat the first ones (same id, same values): tables compare as
   * multisets.
   */
  private static final int DISTINCT_IDS = 1_900;

  private static final String[] DAYS = {"2024-01-01", "2024-01-02", "2024-01-03"};

  private static StorageServers servers;

  @TempDir Path dir;

  @BeforeAll
  static void startServers() throws Exception {
    servers = StorageServers.shared();
  }

  @AfterAll
  static void hdfsRunsAgain() throws IOException {
    servers.restartHdfs(); // the next tests find it running, whatever happened here
  }

  @Test
  @Order(1)
  void withoutTheRetryPolicyTheJobFailsWithinSecondsNamingTheNameNode() throws Exception {
    Job job = new Job(dir);
    killHdfs();
    Map<String, String> noConfDir = new HashMap<>();
    noConfDir.put("HADOOP_CONF_DIR", null);
    try (CliProcess cli = job.start(noConfDir)) {
      assertTrue(cli.awaitOutput(Job.STARTED, Duration.ofSeconds(120)), cli.output());
      Duration started = cli.elapsed();
      int exit = cli.awaitExit(Duration.ofSeconds(120));
      Duration failedAfter = cli.elapsed().minus(started);
      String output = cli.output();
      LOG.info(
          "Without the retry policy the job failed {} ms after it started:\n{}",
          failedAfter.toMillis(),
          output);

      assertEquals(1, exit, output);
      List<String> errors =
          output.lines().filter(l -> l.startsWith("filetables: error: ")).toList();
      assertEquals(1, errors.size(), output);
      assertTrue(
          errors.get(0).contains("Cannot reach the HDFS NameNode of " + nameNode()), errors.get(0));
      assertFalse(output.contains("\tat "), "no stack trace without --verbose:\n" + output);
      assertFalse(output.contains(RETRYING), "no retry by default:\n" + output);
      assertTrue(
          failedAfter.compareTo(Duration.ofSeconds(15)) < 0,
          "failed " + failedAfter.toMillis() + " ms after the job started:\n" + output);
    }
  }

  @Test
  @Order(2)
  void withTheRetryPolicyTheJobWaitsForTheNameNodeAndWritesEveryRowOnce() throws Exception {
    Job job = new Job(dir);
    killHdfs();
    Path confDir = Files.createDirectories(dir.resolve("hadoop-conf"));
    Files.writeString(
        confDir.resolve("hdfs-site.xml"),
        "<?xml version=\"1.0\"?>\n<configuration>\n"
            + property("dfs.client.retry.policy.enabled", "true")
            + property("dfs.client.retry.policy.spec", RETRY_SPEC)
            + "</configuration>\n",
        StandardCharsets.UTF_8);
    try (CliProcess cli = job.start(Map.of("HADOOP_CONF_DIR", confDir.toString()))) {
      assertTrue(cli.awaitOutput(RETRYING, Duration.ofSeconds(120)), cli.output());
      Duration firstRetry = cli.elapsed();
      // HDFS's own start adds some seconds of NameNode downtime to these
      Thread.sleep(5_000);
      assertTrue(cli.isAlive(), "the job gave up while the NameNode was down:\n" + cli.output());
      servers.restartHdfs();
      Duration back = cli.elapsed();
      assertTrue(cli.isAlive(), "the job gave up while the NameNode was down:\n" + cli.output());
      int exit = cli.awaitExit(Duration.ofSeconds(180));
      Duration done = cli.elapsed();
      String output = cli.output();
      long retries = output.lines().filter(l -> l.contains(RETRYING)).count();
      LOG.info(
          "With the retry policy the job waited {} ms for the NameNode ({} retries logged) and"
              + " ended {} ms after it was back",
          back.minus(firstRetry).toMillis(),
          retries,
          done.minus(back).toMillis());

      assertEquals(0, exit, output);
      assertTrue(
          output.contains("MultipleLinearRandomRetry[20x2000ms]"),
          "the policy of hdfs-site.xml:\n" + output);
      assertTrue(output.contains("wrote " + String.format("%,d", ROWS) + " rows"), output);
    }
    Path local = StoreViews.localView(servers, job.sinkRoot, dir);
    assertEquals(List.of(), hiddenFiles(local), "in-progress files left on HDFS");
    assertEquals(job.rows, duckDb(local), "DuckDB reads every row once");
  }

  private static void killHdfs() {
    if (servers.hdfs().isRunning()) {
      servers.killHdfs();
    }
  }

  /** {@code hdfs://127.0.0.1:<port>}: the NameNode the error must name. */
  private static String nameNode() {
    URI uri = servers.hdfs().uri();
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  /**
   * {@code filetables run} on the Direct runner from a local CSV table into a new Parquet table on
   * HDFS, both partitioned by day.
   */
  private static final class Job {
    /** What the command prints when it starts the job. */
    static final String STARTED = "copying source";

    final String sinkRoot = servers.root("hdfs") + "/namenode-down-at-start/" + UUID.randomUUID();
    final List<String> rows = new ArrayList<>();
    private final Path sourceDdl;
    private final Path sinkDdl;
    private final Path log;

    Job(Path dir) throws IOException {
      Path source = dir.resolve("source");
      Map<String, StringBuilder> files = new HashMap<>();
      for (int i = 0; i < ROWS; i++) {
        long id = i % DISTINCT_IDS;
        String day = DAYS[(int) (id % DAYS.length)];
        files.computeIfAbsent(day, d -> new StringBuilder()).append(id + ",name-" + id + "\n");
        rows.add(row(id, "name-" + id, day));
      }
      rows.sort(null);
      for (Map.Entry<String, StringBuilder> file : files.entrySet()) {
        Path partition = Files.createDirectories(source.resolve("dt=" + file.getKey()));
        Files.writeString(partition.resolve("part-0.csv"), file.getValue());
      }
      sourceDdl = dir.resolve("source.sql");
      Files.writeString(sourceDdl, ddl("source", source.toString(), "csv"));
      sinkDdl = dir.resolve("sink.sql");
      Files.writeString(sinkDdl, ddl("sink", sinkRoot, "parquet"));
      log = dir.resolve("cli-" + UUID.randomUUID() + ".log");
    }

    CliProcess start(Map<String, String> environment) throws IOException {
      return CliProcess.start(
          List.of(
              "run",
              "--from",
              sourceDdl.toString(),
              "--to",
              sinkDdl.toString(),
              "--runner=DirectRunner"),
          environment,
          LOG_RETRIES,
          log);
    }

    private static String ddl(String name, String path, String format) {
      return "CREATE TABLE "
          + name
          + " (id BIGINT NOT NULL, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
          + "'connector' = 'filesystem', 'path' = '"
          + path
          + "', 'format' = '"
          + format
          + "');\n";
    }
  }

  private static String row(Object id, Object name, Object day) {
    return id + "|" + name + "|" + day;
  }

  /** The table's rows as DuckDB reads its Parquet files, sorted: a multiset. */
  private static List<String> duckDb(Path local) throws Exception {
    return DuckDbParquet.sortedRows(
        local,
        "id, name, dt",
        rs -> row(rs.getLong("id"), rs.getString("name"), rs.getString("dt")));
  }

  private static List<String> hiddenFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("."))
          .map(p -> root.relativize(p).toString())
          .collect(Collectors.toList());
    }
  }
}
