package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

/**
 * A watched landing directory that {@code filetables run} copies into a JSON table partitioned by
 * day, as the resume tests use it: the two table definitions, a lander that keeps landing files
 * (atomically: hidden name, then rename) until stopped, and what the table looks like to readers
 * that know nothing of FileTables (DuckDB; plain file names).
 *
 * <p>File {@code n} holds rows {@code n*R .. n*R+R-1} (as {@code {"id": i, "msg": "row i"}}); a new
 * day partition starts every {@link #FILES_PER_PARTITION} files. Partitions of the copy are
 * committed as soon as they have files (process time, no delay).
 */
final class WatchedCopy {
  static final int ROWS_PER_FILE = 40;
  static final int FILES_PER_PARTITION = 25;

  /** The most files that land: the lander is normally stopped earlier. */
  private static final int MAX_FILES = 1_000;

  private static final Pattern PART_FILE = Pattern.compile("part-([0-9a-f-]{36})-.*\\.json");

  final Path landing;
  final Path table;
  final Path sourceDdl;
  final Path sinkDdl;
  private final long pauseMillis;
  private final AtomicInteger landed = new AtomicInteger();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private CompletableFuture<Void> lander;

  private WatchedCopy(Path dir, long pauseMillis) throws IOException {
    this.landing = Files.createDirectories(dir.resolve("landing"));
    this.table = dir.resolve("copy");
    this.pauseMillis = pauseMillis;
    this.sourceDdl =
        Files.writeString(
            dir.resolve("landing.sql"),
            "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'filesystem', 'path' = '"
                + landing
                + "', 'format' = 'json', 'source.monitor-interval' = '200 ms')");
    this.sinkDdl =
        Files.writeString(
            dir.resolve("copy.sql"),
            "CREATE TABLE copy (id BIGINT NOT NULL, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'filesystem', 'path' = '"
                + table
                + "', 'format' = 'json',"
                + " 'sink.rolling-policy.rollover-interval' = '1 s',"
                + " 'sink.rolling-policy.inactivity-interval' = '1 s',"
                + " 'sink.rolling-policy.check-interval' = '500 ms',"
                + " 'sink.partition-commit.trigger' = 'process-time',"
                + " 'sink.partition-commit.delay' = '0 s',"
                + " 'sink.partition-commit.policy.kind' = 'success-file')");
  }

  /** The tables under {@code dir}; files land every {@code pauseMillis} once started. */
  static WatchedCopy in(Path dir, long pauseMillis) throws IOException {
    return new WatchedCopy(dir, pauseMillis);
  }

  /** Lands {@code files} files at once, then keeps landing in the background until stopped. */
  void startLanding(int files) throws IOException {
    for (int n = 0; n < files; n++) {
      land(n);
    }
    lander = CompletableFuture.runAsync(() -> landFrom(files));
  }

  /** Stops landing; returns how many files landed. */
  int stopLanding() throws Exception {
    stopped.set(true);
    lander.get(1, TimeUnit.MINUTES);
    return landed();
  }

  int landed() {
    return landed.get();
  }

  static String day(int n) {
    return LocalDate.of(2020, 5, 20).plusDays(n / FILES_PER_PARTITION).toString();
  }

  private void land(int n) throws IOException {
    landFile(landing.resolve("dt=" + day(n)), n, ROWS_PER_FILE);
    landed.incrementAndGet();
  }

  /**
   * Lands {@code dir/f<n>.json} atomically (written under a hidden name, then renamed) with rows
   * {@code n*R .. n*R+R-1} for {@code R = rowsPerFile}, each {@code {"id": i, "msg": "row i"}}.
   */
  static void landFile(Path dir, int n, int rowsPerFile) throws IOException {
    Path target = Files.createDirectories(dir).resolve("f" + n + ".json");
    StringBuilder lines = new StringBuilder();
    for (long id = (long) n * rowsPerFile; id < (long) (n + 1) * rowsPerFile; id++) {
      lines.append("{\"id\": ").append(id).append(", \"msg\": \"row ").append(id).append("\"}\n");
    }
    Path hidden = target.resolveSibling(".f" + n + ".json.inprogress");
    Files.writeString(hidden, lines);
    Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
  }

  /** {@code run} from the landing directory to the copy, its state in {@code stateDir}. */
  List<String> runCommand(Path stateDir, String... more) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "run",
                "--from",
                sourceDdl.toString(),
                "--to",
                sinkDdl.toString(),
                "--state-dir",
                stateDir.toString(),
                "--checkpointingInterval=1000"));
    command.addAll(List.of(more));
    return command;
  }

  private void landFrom(int first) {
    try {
      for (int n = first; n < MAX_FILES && !stopped.get(); n++) {
        land(n);
        Thread.sleep(pauseMillis);
      }
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("landing file " + landed() + " failed", e);
    }
  }

  /** Lines of the visible files: a cheap count while a job runs. */
  long countVisible() throws IOException {
    long lines = 0;
    for (Path file : IndependentReader.visibleFiles(table, ".json")) {
      try (Stream<String> content = Files.lines(file)) {
        lines += content.count();
      }
    }
    return lines;
  }

  /**
   * True once every landed row is visible, no hidden file is left and every partition has its
   * success file.
   */
  boolean complete() throws IOException {
    int files = landed();
    return countVisible() >= (long) files * ROWS_PER_FILE
        && hiddenFiles().isEmpty()
        && uncommittedPartitions().isEmpty()
        && partitions().size() >= (files + FILES_PER_PARTITION - 1) / FILES_PER_PARTITION;
  }

  /**
   * Every landed row is in the table once as DuckDB reads it, no hidden file is left, every
   * partition is committed, and all part files belong to one write.
   */
  void assertEveryLandedRowOnce(String context) throws Exception {
    Map<String, Integer> seen = visibleRows();
    Map<String, Integer> expected = new HashMap<>();
    for (int n = 0; n < landed(); n++) {
      for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
        expected.put(id + "|row " + id + "|" + day(n), 1);
      }
    }
    Map<String, Integer> wrong = new TreeMap<>();
    for (String row : expected.keySet()) {
      int count = seen.getOrDefault(row, 0);
      if (count != 1) {
        wrong.put(row, count);
      }
    }
    seen.keySet().stream().filter(k -> !expected.containsKey(k)).forEach(k -> wrong.put(k, -1));
    assertEquals(
        Map.of(),
        wrong.entrySet().stream()
            .limit(10)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
        wrong.size()
            + " rows not seen exactly once by DuckDB (count; -1: never landed): "
            + context);
    assertEquals(
        (long) landed() * ROWS_PER_FILE,
        seen.values().stream().mapToLong(Integer::longValue).sum(),
        "rows read by DuckDB: " + context);
    assertEquals(List.of(), hiddenFiles(), "hidden files left: " + context);
    assertEquals(List.of(), uncommittedPartitions(), "partitions without _SUCCESS: " + context);
    assertEquals(1, writeIds().size(), "files of one write: " + writeIds());
  }

  /** Every visible row as {@code id|msg|dt}, with how often DuckDB reads it. */
  private Map<String, Integer> visibleRows() throws Exception {
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

  /** Files and directories of the table whose name starts with '.' (in progress, segments). */
  List<String> hiddenFiles() throws IOException {
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

  private List<Path> partitions() throws IOException {
    if (!Files.isDirectory(table)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(table)) {
      return dirs.filter(p -> p.getFileName().toString().startsWith("dt="))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private List<String> uncommittedPartitions() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path partition : partitions()) {
      if (!Files.exists(partition.resolve("_SUCCESS"))) {
        missing.add(partition.getFileName().toString());
      }
    }
    return missing;
  }

  /** The write ids in the names of the visible part files. */
  private TreeSet<String> writeIds() throws IOException {
    TreeSet<String> ids = new TreeSet<>();
    for (Path file : IndependentReader.visibleFiles(table, ".json")) {
      Matcher name = PART_FILE.matcher(file.getFileName().toString());
      ids.add(name.matches() ? name.group(1) : "not a part file: " + file.getFileName());
    }
    return ids;
  }
}
