package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.FileTablesCli;
import dev.filetables.pipelines.storage.LocalS3Server;
import dev.filetables.testfixtures.SessionCluster;
import dev.filetables.testfixtures.TableContents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 16: a watched directory copied into a table on S3 by {@code filetables run}, submitted from
 * the job jar to the scripted session cluster with two TaskManagers, one of which is killed with
 * {@code kill -9} while files keep landing. The job must recover on the other TaskManager, and the
 * S3 table must end up with every landed row exactly once, as DuckDB reads it from the S3 server's
 * own files (each object is a plain file there), with no in-progress file left, and as FileTables'
 * own reader reads them. The same holds when the TaskManager is frozen ({@code SIGSTOP}) instead,
 * past the heartbeat timeout, and woken up once the job recovered and checkpointed twice on the
 * other: its tasks wake up as stale attempts (issue 17: a zombie must not delete or overwrite the
 * new attempt's files).
 *
 * <p>S3 is configured as an operator configures it: credentials in the environment of the cluster
 * (and of the client), {@code --endpoint} and {@code --awsRegion} as pipeline options. The landing
 * directory is local: every TaskManager runs on this host. The seed ({@link FailureSeeds}) picks
 * the victim and how many files have landed when it dies.
 */
@Tag("cluster")
class TaskManagerLossS3Test {
  private static final Logger LOG = LoggerFactory.getLogger(TaskManagerLossS3Test.class);
  private static final String JOB = "watched-to-s3-tm-loss";
  private static final String BUCKET = "tables";
  private static final String TABLE_KEY = "tm-loss/copy";
  private static final int FILES = 64;
  private static final int ROWS_PER_FILE = 50;
  private static final long ROWS = (long) FILES * ROWS_PER_FILE;

  /** One file lands every this often. */
  private static final long LANDING_PAUSE_MILLIS = 300;

  /** Files already there when the job starts. */
  private static final int LANDED_BEFORE_START = 5;

  /** Files that land only after the job recovered from the kill. */
  private static final int LANDED_AFTER_RECOVERY = 12;

  private static final Duration CHECKPOINTS = Duration.ofMinutes(1);
  private static final Duration ALL_VISIBLE_BOUND = Duration.ofSeconds(90);
  private static final Duration STABLE = Duration.ofSeconds(3);
  private static final Pattern PART_FILE = Pattern.compile("part-[^/]+\\.parquet");

  /** Kept when the test fails: the cluster's and the S3 server's logs are in it. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  /** How the TaskManager is lost. */
  enum Loss {
    /** {@code kill -9}: its tasks are gone at once. */
    KILLED,
    /**
     * {@code SIGSTOP} past the heartbeat timeout, then {@code SIGCONT} once the job recovered on
     * the other TaskManager and checkpointed twice: its tasks wake up as stale attempts beside the
     * ones that replaced them, and must not overwrite or delete their files.
     */
    FROZEN
  }

  @ParameterizedTest
  @EnumSource(Loss.class)
  void everyLandedRowOnceInTheS3TableDespiteALostTaskManager(Loss loss, TestInfo test)
      throws Exception {
    long seed = FailureSeeds.seed(test);
    Random random = new Random(seed);
    int killAfterFiles = FILES / 4 + random.nextInt(FILES / 4);
    assertJobJarCarriesTheStores(SessionCluster.jobJar());

    Phases phases = new Phases();
    Path landing = dir.resolve("landing");
    Lander lander = new Lander(landing);
    for (int n = 0; n < LANDED_BEFORE_START; n++) {
      lander.land(n);
    }
    String accessKey = "TMLOSSTEST";
    String secretKey = UUID.randomUUID().toString();
    // the S3 server starts while the cluster does: it needs only the credentials chosen here
    CompletableFuture<LocalS3Server> s3Starting =
        CompletableFuture.supplyAsync(() -> startS3(dir.resolve("s3"), accessKey, secretKey));
    Map<String, String> credentials =
        Map.of("AWS_ACCESS_KEY_ID", accessKey, "AWS_SECRET_ACCESS_KEY", secretKey);
    try (ScriptedFlinkCluster cluster =
            ScriptedFlinkCluster.start(dir.resolve("cluster"), 2, credentials);
        LocalS3Server s3 = s3Starting.get(2, TimeUnit.MINUTES)) {
      phases.done("cluster and S3 server up");
      SessionCluster started = cluster.session();
      assertEquals(List.of("taskmanager-1", "taskmanager-2"), started.registeredTaskManagers());
      List<Long> clusterPids = new ArrayList<>(started.taskManagerPids());
      assertEquals(2, clusterPids.stream().distinct().count(), "TaskManager pids " + clusterPids);
      TaskManagerKills.assertOwnPorts(started);
      TaskManagerKills.assertDashboardServed(started);
      clusterPids.add(started.jobManagerPid());
      for (long pid : clusterPids) {
        TaskManagerKills.assertInherited(pid, credentials);
      }
      Path table = s3.createBucket(BUCKET).resolve(TABLE_KEY);
      Path sourceDdl = Files.writeString(dir.resolve("landing.sql"), landingDdl(landing));
      Path sinkDdl = Files.writeString(dir.resolve("copy.sql"), sinkDdl());
      List<String> args =
          List.of(
              "run",
              "--from",
              sourceDdl.toString(),
              "--to",
              sinkDdl.toString(),
              "--checkpointingInterval=1000",
              "--state-dir",
              dir.resolve("run-state").toString(),
              "--endpoint=" + s3.endpoint(),
              "--awsRegion=" + s3.region());
      VisibleRows visible = new VisibleRows(table);
      try (ScriptedFlinkCluster.Client client =
          cluster.startClient(FileTablesCli.class.getName(), args, JOB)) {
        phases.done("job submitted");
        SessionCluster session = cluster.session();
        String job = client.jobId();
        cluster.awaitCheckpoints(job, 1, Duration.ofMinutes(3));
        phases.done("first checkpoint");
        CountDownLatch recovered = new CountDownLatch(1);
        CompletableFuture<Void> landingDone =
            CompletableFuture.runAsync(() -> lander.landAll(LANDED_BEFORE_START, recovered));

        awaitKillPoint(lander, visible, killAfterFiles, landingDone);
        List<String> running = TaskManagerKills.taskManagersOf(session, job);
        String victim = running.get(random.nextInt(running.size()));
        int landedAtKill = lander.landed();
        long visibleAtKill = visible.count();
        int hiddenAtKill = hiddenFiles(table).size();
        phases.done("kill point");
        TaskManagerKills.Kill kill =
            loss == Loss.KILLED
                ? TaskManagerKills.killAndAwaitRecovery(session, job, victim)
                : TaskManagerKills.freezeAndAwaitRecovery(session, job, victim);
        int landedAtRecovery = lander.landed();
        phases.done("recovered");
        if (loss == Loss.FROZEN) {
          try {
            // the new attempts publish files that the frozen ones still hold open
            cluster.awaitCheckpoints(job, cluster.completedCheckpoints(job) + 2, CHECKPOINTS);
          } finally {
            TaskManagerKills.thaw(kill.pid);
          }
          phases.done("two checkpoints, then " + victim + " thawed");
        }
        recovered.countDown();

        landingDone.get(2, TimeUnit.MINUTES);
        phases.done("landing done");
        Duration allVisible = awaitAllRows(visible, cluster, job, kill.killedNanos);
        phases.done("all rows visible");
        List<String> hidden = awaitNoHiddenFiles(table, Duration.ofSeconds(30));
        phases.done("no hidden files");
        String restarts = TaskManagerKills.awaitRestarts(session, job, Duration.ofSeconds(20));
        long checkpoints = cluster.completedCheckpoints(job);
        session.cancel(job);

        LOG.info(
            "Seed {}: {} {} (pid {}) of {} after {} of {} files had landed, {} rows visible,"
                + " {} hidden files in the table; dropped after {} ms, job running and checkpointing again after {} ms ({} files"
                + " landed by then), numRestarts {}; all {} rows visible {} ms after the kill, in"
                + " {} part files; {} checkpoints. Phases: {}",
            seed,
            loss,
            victim,
            kill.pid,
            running,
            landedAtKill,
            FILES,
            visibleAtKill,
            hiddenAtKill,
            kill.detected.toMillis(),
            kill.recovered.toMillis(),
            landedAtRecovery,
            restarts,
            ROWS,
            allVisible.toMillis(),
            visibleFiles(table).size(),
            checkpoints,
            phases);
        assertTrue(
            visibleAtKill > 0 && visibleAtKill < ROWS && landedAtRecovery < FILES,
            "the kill landed mid-stream: "
                + visibleAtKill
                + " rows visible at the kill, "
                + landedAtRecovery
                + " files landed at the recovery");
        assertNotEquals("0", restarts, "the job restarted after the kill");
        assertEquals(
            List.of(), hidden, "in-progress files left in the S3 table (seed " + seed + ")");
      }
      assertEveryLandedRowOnce(table, seed);
      assertEquals(List.of(), strangeVisibleFiles(table), "visible files that are no part files");
    }
    TaskManagerKills.assertSecretNotPrinted(dir.resolve("cluster"), secretKey);
  }

  private static LocalS3Server startS3(Path directory, String accessKey, String secretKey) {
    try {
      return LocalS3Server.start(directory, accessKey, secretKey);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How long each phase of the test took, for the figures. */
  private static final class Phases {
    private final StringBuilder done = new StringBuilder();
    private long since = System.nanoTime();

    void done(String phase) {
      long now = System.nanoTime();
      done.append(done.length() == 0 ? "" : ", ")
          .append(phase)
          .append(" +")
          .append(TimeUnit.NANOSECONDS.toMillis(now - since))
          .append(" ms");
      since = now;
    }

    @Override
    public String toString() {
      return done.toString();
    }
  }

  /**
   * The job jar holds the stores, their clients (AWS SDK, HDFS), and the registrar that hands them
   * the options.
   */
  private static void assertJobJarCarriesTheStores(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (String entry :
          List.of(
              "dev/filetables/io/files/store/Stores.class",
              "dev/filetables/io/files/store/S3Store.class",
              "software/amazon/awssdk/services/s3/S3Client.class",
              "software/amazon/awssdk/http/apache/ApacheHttpClient.class",
              "org/apache/beam/sdk/io/aws2/options/S3Options.class",
              "org/apache/hadoop/hdfs/DistributedFileSystem.class")) {
        assertTrue(zip.getEntry(entry) != null, jar + " has no " + entry);
      }
      String registrars =
          new String(
              zip.getInputStream(
                      zip.getEntry("META-INF/services/org.apache.beam.sdk.io.FileSystemRegistrar"))
                  .readAllBytes(),
              StandardCharsets.UTF_8);
      assertTrue(
          registrars
              .lines()
              .anyMatch("dev.filetables.io.files.store.StoreOptionsRegistrar"::equals),
          jar
              + ": the merged FileSystemRegistrar services do not list StoreOptionsRegistrar:\n"
              + registrars);
    }
  }

  private static String landingDdl(Path landing) {
    return "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING, dt STRING, `hour` STRING)"
        + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
        + landing
        + "', 'format' = 'json', 'source.monitor-interval' = '200 ms')";
  }

  private static String sinkDdl() {
    return "CREATE TABLE copy (id BIGINT NOT NULL, msg STRING, dt STRING, `hour` STRING)"
        + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = 's3://"
        + BUCKET
        + "/"
        + TABLE_KEY
        + "', 'format' = 'parquet',"
        + " 'sink.rolling-policy.rollover-interval' = '1 s',"
        + " 'sink.rolling-policy.inactivity-interval' = '1 s',"
        + " 'sink.rolling-policy.check-interval' = '1 s')";
  }

  /**
   * Lands JSON files atomically (hidden name, then rename) into the watched directory: file {@code
   * n} holds rows {@code n*R .. n*R+R-1}, a new hour partition every 5 files.
   */
  private static final class Lander {
    private final Path root;
    private final AtomicInteger landed = new AtomicInteger();

    Lander(Path root) {
      this.root = root;
    }

    int landed() {
      return landed.get();
    }

    void land(int n) throws IOException {
      WatchedCopy.landFile(root.resolve(partition(n)), n, ROWS_PER_FILE);
      landed.incrementAndGet();
    }

    /**
     * Lands files {@code from ..} one every {@link #LANDING_PAUSE_MILLIS}; the last {@link
     * #LANDED_AFTER_RECOVERY} only once {@code recovered} opens, so some land while the job is down
     * and some after it recovered, however long recovery takes.
     */
    void landAll(int from, CountDownLatch recovered) {
      try {
        for (int n = from; n < FILES; n++) {
          if (n == FILES - LANDED_AFTER_RECOVERY
              && !recovered.await(
                  TaskManagerKills.RECOVERY_BOUND.toSeconds() + 120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no recovery to land the last files after");
          }
          land(n);
          Thread.sleep(LANDING_PAUSE_MILLIS);
        }
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException("landing file " + landed() + " failed", e);
      }
    }

    static String partition(int n) {
      return "dt=2020-05-" + (20 + n / 20) + "/hour=" + String.format("%02d", n / 5 % 4);
    }
  }

  /** Every landed row as {@code id|msg|dt|hour}, once. */
  private static Map<String, Integer> landedRows() {
    Map<String, Integer> rows = new TreeMap<>();
    for (int n = 0; n < FILES; n++) {
      String[] partition = Lander.partition(n).split("/");
      for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
        rows.merge(
            String.join(
                "|",
                Long.toString(id),
                "row " + id,
                partition[0].substring("dt=".length()),
                partition[1].substring("hour=".length())),
            1,
            Integer::sum);
      }
    }
    return rows;
  }

  /**
   * The rows of the visible part files under the table's directory of the S3 server, read by
   * DuckDB; a visible file never changes (no compaction here), so each is read once.
   */
  private static final class VisibleRows {
    private final Path table;
    private final Map<Path, Integer> countByFile = new HashMap<>();

    VisibleRows(Path table) {
      this.table = table;
    }

    long count() throws Exception {
      List<Path> files = visibleFiles(table);
      try (IndependentReader reader = IndependentReader.open()) {
        for (Path file : files) {
          if (!countByFile.containsKey(file)) {
            countByFile.put(file, rowsOf(reader, file).size());
          }
        }
      }
      return countByFile.values().stream().mapToLong(Integer::longValue).sum();
    }
  }

  private static List<String> rowsOf(IndependentReader reader, Path file) throws Exception {
    return reader.query(
        "SELECT id, msg, dt, hour FROM read_parquet("
            + IndependentReader.literal(file)
            + ", hive_partitioning = true, hive_types_autocast = false)");
  }

  private static List<Path> visibleFiles(Path table) throws IOException {
    return IndependentReader.visibleFiles(table, ".parquet");
  }

  /** Waits until {@code killAfterFiles} files have landed and the table shows rows. */
  private static void awaitKillPoint(
      Lander lander, VisibleRows visible, int killAfterFiles, CompletableFuture<Void> landing)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (lander.landed() < killAfterFiles || visible.count() == 0) {
      if (landing.isDone() || System.nanoTime() > deadline) {
        throw new AssertionError(
            "no kill point: "
                + lander.landed()
                + " files landed (kill after "
                + killAfterFiles
                + "), "
                + visible.count()
                + " rows visible");
      }
      Thread.sleep(100);
    }
  }

  /**
   * Waits until the table shows at least every landed row and no more arrive for {@link #STABLE};
   * returns the time since the kill.
   */
  private static Duration awaitAllRows(
      VisibleRows visible, ScriptedFlinkCluster cluster, String job, long killedNanos)
      throws Exception {
    long deadline = System.nanoTime() + ALL_VISIBLE_BOUND.toNanos();
    long count = visible.count();
    long completeAt = -1;
    long completeSince = -1;
    while (System.nanoTime() < deadline) {
      if (count >= ROWS) {
        if (completeSince < 0) {
          completeSince = System.nanoTime();
          completeAt = completeSince - killedNanos;
        } else if (System.nanoTime() - completeSince > STABLE.toNanos()) {
          return Duration.ofNanos(completeAt);
        }
      }
      Thread.sleep(500);
      long now = visible.count();
      if (now != count) {
        completeSince = -1;
      }
      count = now;
    }
    throw new AssertionError(
        count
            + " of "
            + ROWS
            + " landed rows visible in the S3 table "
            + ALL_VISIBLE_BOUND
            + " after the landing ended; job "
            + cluster.state(job)
            + cluster.failure(job));
  }

  /**
   * Waits until the table's directory holds no hidden file (segments, in-progress part files): once
   * nothing lands, every open file rolls and is published at the next checkpoint. Returns those
   * left after {@code timeout}, relative to the table.
   */
  private static List<String> awaitNoHiddenFiles(Path table, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> hidden = hiddenFiles(table);
    while (!hidden.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(500);
      hidden = hiddenFiles(table);
    }
    return hidden;
  }

  /** Files a Hive-style reader skips, relative to the table. */
  private static List<String> hiddenFiles(Path table) throws IOException {
    return filesUnder(table).stream()
        .filter(TaskManagerLossS3Test::isHidden)
        .map(Path::toString)
        .sorted()
        .collect(Collectors.toList());
  }

  /** Visible files whose name is no finished part file of the table's format. */
  private static List<Path> strangeVisibleFiles(Path table) throws IOException {
    return filesUnder(table).stream()
        .filter(file -> !isHidden(file))
        .filter(file -> !PART_FILE.matcher(file.getFileName().toString()).matches())
        .sorted()
        .collect(Collectors.toList());
  }

  /** A path component starts with '.' or '_'. */
  private static boolean isHidden(Path relative) {
    for (Path name : relative) {
      if (name.toString().startsWith(".") || name.toString().startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The files under {@code table}, relative to it. The S3 server writes each object to a temporary
   * file beside it and renames that into place, so an entry can vanish while the walk runs: it is
   * skipped, not an error.
   */
  private static List<Path> filesUnder(Path table) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(
        table,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (attributes.isRegularFile()) {
              files.add(table.relativize(file));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    return files;
  }

  /** DuckDB, reading every visible file afresh, sees each landed row exactly once. */
  private static void assertEveryLandedRowOnce(Path table, long seed) throws Exception {
    Map<String, Integer> read = new TreeMap<>();
    try (IndependentReader reader = IndependentReader.open()) {
      for (Path file : visibleFiles(table)) {
        for (String row : rowsOf(reader, file)) {
          read.merge(row, 1, Integer::sum);
        }
      }
    }
    IndependentReader.Verdict verdict = IndependentReader.compare(landedRows(), read);
    List<String> problems = new ArrayList<>(verdict.extraProblems("DuckDB"));
    problems.addAll(verdict.missingProblems("DuckDB"));
    // FileTables' own reader too, of the same objects (the S3 server keeps each as a plain file)
    Map<String, Integer> readByFileTables = new TreeMap<>();
    TableSpec local =
        DdlParser.parse(sinkDdl().replace("s3://" + BUCKET + "/" + TABLE_KEY, table.toString()));
    TableContents.scan(
        local,
        (row, file) ->
            readByFileTables.merge(
                String.join(
                    "|",
                    Long.toString(row.getInt64("id")),
                    row.getString("msg"),
                    row.getString("dt"),
                    row.getString("hour")),
                1,
                Integer::sum));
    IndependentReader.Verdict own = IndependentReader.compare(landedRows(), readByFileTables);
    problems.addAll(own.extraProblems("FileTables' reader"));
    problems.addAll(own.missingProblems("FileTables' reader"));
    assertEquals(List.of(), problems, "seed " + seed);
  }
}
