package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.filetables.pipelines.FileTablesCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 17: {@code filetables run} of a watched directory on the embedded default, used as a user
 * uses it from the shell: the CLI runs in its own JVM while files keep landing, is killed with
 * {@code kill -9} twice (once its job checkpointed, once at any moment) and stopped once with
 * SIGTERM (Ctrl-C sends SIGINT; both run the same shutdown hook), at random moments, and is started
 * again with the same command each time; the last start runs until every landed row is visible.
 * Then the table must hold every landed row exactly once as DuckDB reads it, no hidden file of any
 * attempt, a success file in every partition, and files of one write only (the write's id survives
 * the restarts).
 */
@Tag("cluster")
class ResumeAfterKillTest {
  private static final Logger LOG = LoggerFactory.getLogger(ResumeAfterKillTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The most files that land: the lander stops earlier once the last start runs. */
  private static final int MAX_FILES = 1_000;

  private static final int ROWS_PER_FILE = 40;
  private static final int FILES_PER_PARTITION = 25;
  private static final long LANDING_PAUSE_MILLIS = 400;

  /** Files land this long into the last start too. */
  private static final long LANDING_INTO_LAST_START_MILLIS = 3_000;

  private static final long STARTUP_TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(3);
  private static final Pattern PART_FILE = Pattern.compile("part-([0-9a-f-]{36})-.*\\.json");

  /** Kept when the test fails: the CLI's logs are in it. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void everyLandedRowOnceAfterKillsAndRestartsOfTheCli(TestInfo test) throws Exception {
    Random random = new Random(FailureSeeds.seed(test));
    Path landing = Files.createDirectories(dir.resolve("landing"));
    Path table = dir.resolve("copy");
    Path sourceDdl = Files.writeString(dir.resolve("landing.sql"), sourceDdl(landing));
    Path sinkDdl = Files.writeString(dir.resolve("copy.sql"), sinkDdl(table));
    Path state = dir.resolve("state");
    List<String> command =
        List.of(
            "run",
            "--from",
            sourceDdl.toString(),
            "--to",
            sinkDdl.toString(),
            "--state-dir",
            state.toString(),
            "--checkpointingInterval=1000",
            "--parallelism=2");
    Lander lander = new Lander(landing);
    for (int n = 0; n < 10; n++) {
      lander.land(n);
    }
    // files land all along, whatever the speed of the machine, until the last start runs
    CompletableFuture<Void> landingDone = CompletableFuture.runAsync(() -> lander.landFrom(10));

    List<String> rounds = new ArrayList<>();
    int resumed = 0;
    // kill -9 once the job checkpointed and once at any moment (during the start too), then a
    // SIGTERM once the job checkpointed (the CLI cancels its job only once it is submitted)
    String[] stops = {"checkpointed kill -9", "any-moment kill -9", "checkpointed SIGTERM"};
    for (int round = 0; round < stops.length; round++) {
      List<String> earlierJobs = newestJob(state).map(List::of).orElse(List.of());
      Cli cli = Cli.start(command, dir.resolve("cli-" + round + ".log"));
      try {
        String up = cli.awaitLine("filetables: (a new run|resuming the run)");
        long upMillis = cli.ageMillis();
        resumed += up.contains("resuming the run") ? 1 : 0;
        if (stops[round].startsWith("checkpointed")) {
          awaitCheckpointOfThisStart(state, cli, earlierJobs);
        }
        Thread.sleep(500 + random.nextInt(stops[round].startsWith("any") ? 8_000 : 3_000));
        int landed = lander.landed();
        long visible = visibleRows(table).size();
        if (stops[round].endsWith("SIGTERM")) {
          cli.process.destroy();
          assertTrue(cli.process.waitFor(60, TimeUnit.SECONDS), "the CLI ends after SIGTERM");
          assertTrue(
              cli.log().contains("filetables: stopping: cancelling job"),
              "SIGTERM cancels the job:\n" + cli.log());
        } else {
          cli.process.destroyForcibly();
          cli.process.waitFor(30, TimeUnit.SECONDS);
        }
        rounds.add(
            stops[round]
                + " after "
                + cli.ageMillis()
                + " ms (state read after "
                + upMillis
                + " ms: "
                + up.replaceFirst("^filetables: ", "").replaceFirst(" \\(write .*", "")
                + "; "
                + landed
                + " files landed, "
                + visible
                + " rows visible)");
      } finally {
        cli.process.destroyForcibly();
      }
    }

    Cli last = Cli.start(command, dir.resolve("cli-last.log"));
    long caughtUp;
    int landedAtLastStart = lander.landed();
    try {
      String up = last.awaitLine("filetables: (a new run|resuming the run)");
      resumed += up.contains("resuming the run") ? 1 : 0;
      caughtUp = awaitVisible(table, (long) landedAtLastStart * ROWS_PER_FILE, last);
      Thread.sleep(LANDING_INTO_LAST_START_MILLIS);
      lander.stop();
      landingDone.get(1, TimeUnit.MINUTES);
      awaitComplete(table, lander.landed(), last);
      last.process.destroy();
      assertTrue(last.process.waitFor(60, TimeUnit.SECONDS), "the last start ends after SIGTERM");
    } finally {
      last.process.destroyForcibly();
    }
    LOG.info(
        "Rounds: {}; last start: caught up with the {} files landed before it {} ms after its"
            + " start",
        rounds,
        landedAtLastStart,
        caughtUp);

    assertTrue(resumed >= 2, resumed + " of 4 starts resumed from a checkpoint: " + rounds);
    Map<String, Integer> seen = visibleRows(table);
    Map<String, Integer> wrong = new TreeMap<>();
    Map<String, Integer> landed = landedRows(lander.landed());
    for (Map.Entry<String, Integer> row : landed.entrySet()) {
      int count = seen.getOrDefault(row.getKey(), 0);
      if (count != 1) {
        wrong.put(row.getKey(), count);
      }
    }
    seen.keySet().stream().filter(k -> !landed.containsKey(k)).forEach(k -> wrong.put(k, -1));
    assertEquals(
        Map.of(),
        wrong.entrySet().stream()
            .limit(10)
            .collect(Collectors.toMap(e -> e.getKey(), e -> e.getValue())),
        wrong.size()
            + " rows not seen exactly once by DuckDB (count; -1: never landed): "
            + rounds);
    assertEquals(
        (long) lander.landed() * ROWS_PER_FILE,
        seen.values().stream().mapToLong(Integer::longValue).sum());
    assertEquals(List.of(), hiddenFiles(table), "hidden files left: " + rounds);
    assertEquals(List.of(), uncommittedPartitions(table), "partitions without _SUCCESS");
    assertEquals(1, writeIds(table).size(), "files of one write: " + writeIds(table));
  }

  private static String sourceDdl(Path landing) {
    return "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING, dt STRING) PARTITIONED BY (dt)"
        + " WITH ('connector' = 'filesystem', 'path' = '"
        + landing
        + "', 'format' = 'json', 'source.monitor-interval' = '200 ms')";
  }

  /** Partitions are committed as soon as they have files (process time, no delay). */
  private static String sinkDdl(Path table) {
    return "CREATE TABLE copy (id BIGINT NOT NULL, msg STRING, dt STRING) PARTITIONED BY (dt)"
        + " WITH ('connector' = 'filesystem', 'path' = '"
        + table
        + "', 'format' = 'json',"
        + " 'sink.rolling-policy.rollover-interval' = '1 s',"
        + " 'sink.rolling-policy.inactivity-interval' = '1 s',"
        + " 'sink.rolling-policy.check-interval' = '500 ms',"
        + " 'sink.partition-commit.trigger' = 'process-time',"
        + " 'sink.partition-commit.delay' = '0 s',"
        + " 'sink.partition-commit.policy.kind' = 'success-file')";
  }

  /** The CLI in its own JVM, as {@code bin/filetables} starts it. */
  private static final class Cli {
    final Process process;
    final Path log;
    final long startedNanos = System.nanoTime();
    final long startedMillis = System.currentTimeMillis();

    private Cli(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    static Cli start(List<String> args, Path log) throws IOException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(
          List.of(
              "--add-opens=java.base/java.util=ALL-UNNAMED",
              "--add-opens=java.base/java.lang=ALL-UNNAMED",
              "--add-opens=java.base/java.nio=ALL-UNNAMED",
              "-Xmx1g",
              "-cp",
              System.getProperty("java.class.path"),
              FileTablesCli.class.getName()));
      command.addAll(args);
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      return new Cli(process, log);
    }

    String log() throws IOException {
      return Files.readString(log, StandardCharsets.UTF_8);
    }

    long ageMillis() {
      return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /** The first log line matching {@code regex}; fails if the CLI ends or takes too long. */
    String awaitLine(String regex) throws Exception {
      Pattern pattern = Pattern.compile(regex);
      while (true) {
        for (String line : log().split("\\R")) {
          if (pattern.matcher(line).find()) {
            return line;
          }
        }
        check();
        Thread.sleep(100);
      }
    }

    /** Fails if the CLI ended or its start took too long. */
    void check() throws IOException {
      if (!process.isAlive()) {
        throw new AssertionError("the CLI ended (exit " + process.exitValue() + "):\n" + log());
      }
      if (ageMillis() > STARTUP_TIMEOUT_MILLIS + TimeUnit.MINUTES.toMillis(3)) {
        throw new AssertionError("the CLI took too long:\n" + log());
      }
    }
  }

  /**
   * Waits until the job of this start (the newest job in {@code run.json}, which the CLI writes
   * before it submits the job) has completed a checkpoint.
   */
  private static void awaitCheckpointOfThisStart(Path state, Cli cli, List<String> earlierJobs)
      throws Exception {
    while (true) {
      Optional<String> job = newestJob(state).filter(id -> !earlierJobs.contains(id));
      if (job.isPresent()) {
        Path jobDir = state.resolve("checkpoints").resolve(job.get());
        if (Files.isDirectory(jobDir)) {
          try (Stream<Path> checkpoints = Files.list(jobDir)) {
            if (checkpoints.anyMatch(c -> Files.exists(c.resolve("_metadata")))) {
              return;
            }
          }
        }
      }
      cli.check();
      Thread.sleep(100);
    }
  }

  /** The id of the run's newest job, from its {@code run.json}. */
  private static Optional<String> newestJob(Path state) throws IOException {
    Path record = state.resolve("run.json");
    if (!Files.exists(record)) {
      return Optional.empty();
    }
    JsonNode jobs = JSON.readTree(record.toFile()).path("jobs");
    return jobs.size() == 0
        ? Optional.empty()
        : Optional.of(jobs.get(jobs.size() - 1).path("id").asText());
  }

  /** Waits until {@code rows} rows are visible; returns the time since the CLI started. */
  private static long awaitVisible(Path table, long rows, Cli cli) throws Exception {
    while (countVisible(table) < rows) {
      cli.check();
      Thread.sleep(200);
    }
    return cli.ageMillis();
  }

  /** Waits until every row is visible, no hidden file is left and every partition committed. */
  private static void awaitComplete(Path table, int files, Cli cli) throws Exception {
    while (countVisible(table) < (long) files * ROWS_PER_FILE
        || !hiddenFiles(table).isEmpty()
        || !uncommittedPartitions(table).isEmpty()
        || partitions(table).size() < (files + FILES_PER_PARTITION - 1) / FILES_PER_PARTITION) {
      cli.check();
      Thread.sleep(200);
    }
  }

  /** Lines of the visible JSON files: a cheap count while the job runs. */
  private static long countVisible(Path table) throws IOException {
    long lines = 0;
    for (Path file : IndependentReader.visibleFiles(table, ".json")) {
      try (Stream<String> content = Files.lines(file)) {
        lines += content.count();
      }
    }
    return lines;
  }

  /** Every visible row as {@code id|msg|dt}, with how often DuckDB reads it. */
  private static Map<String, Integer> visibleRows(Path table) throws Exception {
    Map<String, Integer> rows = new HashMap<>();
    try (IndependentReader reader = IndependentReader.open()) {
      for (Path file : IndependentReader.visibleFiles(table, ".json")) {
        for (String row :
            reader.query(
                "SELECT id, msg, dt FROM read_json("
                    + IndependentReader.literal(file)
                    + ", format = 'newline_delimited', hive_partitioning = true,"
                    + " hive_types_autocast = false,"
                    + " columns = {'id': 'BIGINT', 'msg': 'VARCHAR'})")) {
          rows.merge(row, 1, Integer::sum);
        }
      }
    }
    return rows;
  }

  private static Map<String, Integer> landedRows(int files) {
    Map<String, Integer> rows = new HashMap<>();
    for (int n = 0; n < files; n++) {
      for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
        rows.put(id + "|row " + id + "|" + Lander.day(n), 1);
      }
    }
    return rows;
  }

  /** Files and directories of the table whose name starts with '.' (in-progress, segments). */
  private static List<String> hiddenFiles(Path table) throws IOException {
    if (!Files.isDirectory(table)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("."))
          .map(p -> table.relativize(p).toString())
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static List<Path> partitions(Path table) throws IOException {
    if (!Files.isDirectory(table)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(table)) {
      return dirs.filter(p -> p.getFileName().toString().startsWith("dt="))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static List<String> uncommittedPartitions(Path table) throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path partition : partitions(table)) {
      if (!Files.exists(partition.resolve("_SUCCESS"))) {
        missing.add(partition.getFileName().toString());
      }
    }
    return missing;
  }

  /** The write ids in the names of the visible part files. */
  private static TreeSet<String> writeIds(Path table) throws IOException {
    TreeSet<String> ids = new TreeSet<>();
    for (Path file : IndependentReader.visibleFiles(table, ".json")) {
      Matcher name = PART_FILE.matcher(file.getFileName().toString());
      ids.add(name.matches() ? name.group(1) : "not a part file: " + file.getFileName());
    }
    return ids;
  }

  /**
   * Lands JSON files atomically (hidden name, then rename) until stopped: file {@code n} holds rows
   * {@code n*R .. n*R+R-1}, a new day partition every {@link #FILES_PER_PARTITION} files.
   */
  private static final class Lander {
    private final Path root;
    private final AtomicInteger landed = new AtomicInteger();
    private final AtomicBoolean stopped = new AtomicBoolean();

    Lander(Path root) {
      this.root = root;
    }

    int landed() {
      return landed.get();
    }

    static String day(int n) {
      return LocalDate.of(2020, 5, 20).plusDays(n / FILES_PER_PARTITION).toString();
    }

    void land(int n) throws IOException {
      Path target =
          Files.createDirectories(root.resolve("dt=" + day(n))).resolve("f" + n + ".json");
      StringBuilder lines = new StringBuilder();
      for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
        lines.append("{\"id\": ").append(id).append(", \"msg\": \"row ").append(id).append("\"}\n");
      }
      Path hidden = target.resolveSibling(".f" + n + ".json.inprogress");
      Files.writeString(hidden, lines);
      Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
      landed.incrementAndGet();
    }

    void stop() {
      stopped.set(true);
    }

    void landFrom(int first) {
      try {
        for (int n = first; n < MAX_FILES && !stopped.get(); n++) {
          land(n);
          Thread.sleep(LANDING_PAUSE_MILLIS);
        }
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException("landing file " + landed() + " failed", e);
      }
    }
  }
}
