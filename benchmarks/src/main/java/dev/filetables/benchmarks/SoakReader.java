package dev.filetables.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The soak's independent reader: the table's files as the store's own client lists them ({@link
 * StoreFiles}), the visible ones (no path component starting with '.' or '_', as Hive-style readers
 * list) copied to the local disk and read by DuckDB, partition values from the paths. Nothing of
 * FileTables reads or lists here.
 *
 * <p>While the soak runs it polls: published files are never changed (no compaction), so each is
 * read once and its ids added to the ids seen; after each poll it notes the smallest id not seen
 * yet, which tells when the table held every row landed before a moment. {@link #judge} reads the
 * whole table afresh at the end.
 */
final class SoakReader implements AutoCloseable {
  private static final long POLL_MILLIS = 300;

  private final StoreFiles store;
  private final String format;
  private final Path scratch;
  private final Connection duckdb;
  private final Set<String> read = new HashSet<>();
  private final BitSet seen = new BitSet();

  /** Per poll: when it listed, and every id below which it had seen. */
  private final List<long[]> samples = new ArrayList<>();

  private volatile List<String> lastListing = List.of();
  private final Thread poller;
  private volatile boolean stopped;
  private volatile String lastError;

  SoakReader(StoreFiles store, String format, Path scratch) throws IOException, SQLException {
    this.store = store;
    this.format = format;
    this.scratch = Files.createDirectories(scratch);
    this.duckdb = DriverManager.getConnection("jdbc:duckdb:");
    this.poller = new Thread(this::pollUntilStopped, "soak-reader");
    poller.setDaemon(true);
  }

  void start() {
    poller.start();
  }

  /** Every id below this was visible at the last poll. */
  synchronized long visiblePrefix() {
    return seen.nextClearBit(0);
  }

  /**
   * Milliseconds from {@code fromNanos} ({@link System#nanoTime}) to the first poll after it that
   * saw every id below {@code rows}; empty if none has yet.
   */
  synchronized Optional<Long> caughtUp(long fromNanos, long rows) {
    for (long[] sample : samples) {
      if (sample[0] >= fromNanos && sample[1] >= rows) {
        return Optional.of((sample[0] - fromNanos) / 1_000_000);
      }
    }
    return Optional.empty();
  }

  /**
   * True once the last poll saw every id below {@code rows}, no hidden file, and a success file in
   * each of {@code partitions}.
   */
  boolean complete(long rows, Set<String> partitions) {
    List<String> files = lastListing;
    return visiblePrefix() >= rows
        && hidden(files).isEmpty()
        && committed(files).containsAll(partitions)
        && store.openUploads().isEmpty();
  }

  /**
   * What keeps the table from being {@link #complete}, as one line (empty once it is): the rows not
   * yet visible, hidden files left, partitions without a success file, open uploads.
   */
  String whyIncomplete(long rows, Set<String> partitions) {
    List<String> files = lastListing;
    List<String> reasons = new ArrayList<>();
    long prefix = visiblePrefix();
    if (prefix < rows) {
      reasons.add("ids from " + prefix + " not visible");
    }
    List<String> hiddenFiles = hidden(files);
    if (!hiddenFiles.isEmpty()) {
      reasons.add(
          hiddenFiles.size()
              + " hidden file(s) such as "
              + hiddenFiles.subList(0, Math.min(3, hiddenFiles.size())));
    }
    Set<String> uncommitted = new TreeSet<>(partitions);
    uncommitted.removeAll(committed(files));
    if (!uncommitted.isEmpty()) {
      reasons.add("partitions without a success file: " + uncommitted);
    }
    List<String> uploads = store.openUploads();
    if (!uploads.isEmpty()) {
      reasons.add(uploads.size() + " open upload(s)");
    }
    return String.join("; ", reasons);
  }

  /** The last poll's error, if it failed. */
  Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  private void pollUntilStopped() {
    while (!stopped) {
      long start = System.nanoTime();
      try {
        poll(start);
        lastError = null;
      } catch (IOException | SQLException | RuntimeException e) {
        lastError = e.toString();
      }
      try {
        Thread.sleep(Math.max(0, POLL_MILLIS - (System.nanoTime() - start) / 1_000_000));
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void poll(long nanos) throws IOException, SQLException {
    List<String> files = store.list();
    List<String> fresh = new ArrayList<>();
    for (String file : visible(files)) {
      if (!read.contains(file)) {
        fresh.add(file);
      }
    }
    List<Row> rows = read(fresh, scratch.resolve("polled"));
    synchronized (this) {
      rows.forEach(row -> seen.set(Math.toIntExact(row.id)));
      read.addAll(fresh);
      samples.add(new long[] {nanos, seen.nextClearBit(0)});
    }
    lastListing = files;
  }

  /** What the table holds at the end, read afresh; stops polling first. */
  Verdict judge(SoakLanding landing) throws IOException, SQLException, InterruptedException {
    stopPolling();
    List<String> files = store.list();
    List<String> data = visible(files);
    long landed = landing.landedRows();
    long[] counts = new long[Math.toIntExact(landed)];
    long never = 0;
    long misplaced = 0;
    for (Row row : read(data, scratch.resolve("judged"))) {
      if (row.id < 0 || row.id >= landed) {
        never++;
        continue;
      }
      counts[(int) row.id]++;
      if (!row.dt.equals(landing.dayOf(row.id))
          || !row.bucket.equals(Long.toString(row.id % SoakLanding.BUCKETS))) {
        misplaced++;
      }
    }
    long lost = 0;
    long duplicated = 0;
    List<Long> lostIds = new ArrayList<>();
    List<Long> duplicatedIds = new ArrayList<>();
    for (int id = 0; id < landed; id++) {
      if (counts[id] == 0) {
        lost++;
        addExample(lostIds, id);
      } else if (counts[id] > 1) {
        duplicated += counts[id] - 1;
        addExample(duplicatedIds, id);
      }
    }
    Set<String> expected = landing.partitions();
    Set<String> committed = committed(files);
    List<String> leftovers = new ArrayList<>(hidden(files));
    store.openUploads().forEach(key -> leftovers.add("open multipart upload " + key));
    return new Verdict(
        landed,
        data.size(),
        lost,
        lostIds,
        duplicated,
        duplicatedIds,
        never,
        misplaced,
        expected.size(),
        (int) expected.stream().filter(committed::contains).count(),
        leftovers);
  }

  private static void addExample(List<Long> examples, long id) {
    if (examples.size() < 10) {
      examples.add(id);
    }
  }

  /** Copies {@code files} to {@code dir} and reads them with DuckDB. */
  private List<Row> read(List<String> files, Path dir) throws IOException, SQLException {
    if (files.isEmpty()) {
      return List.of();
    }
    List<String> copies = new ArrayList<>();
    for (String file : files) {
      Path copy = dir.resolve(file);
      Files.createDirectories(copy.getParent());
      try (InputStream in = store.open(file)) {
        Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
      }
      copies.add("'" + copy.toString().replace("'", "''") + "'");
    }
    String list = "[" + String.join(", ", copies) + "]";
    String scan =
        format.equals("parquet")
            ? "read_parquet(" + list + ", hive_partitioning = true, hive_types_autocast = false)"
            : "read_json("
                + list
                + ", format = 'newline_delimited', hive_partitioning = true,"
                + " hive_types_autocast = false, columns = {'id': 'BIGINT', 'msg': 'VARCHAR'})";
    List<Row> rows = new ArrayList<>();
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery("SELECT id, dt, bucket FROM " + scan)) {
      while (result.next()) {
        rows.add(new Row(result.getLong(1), result.getString(2), result.getString(3)));
      }
    }
    return rows;
  }

  /** Data files a Hive-style reader lists. */
  private List<String> visible(List<String> files) {
    return files.stream()
        .filter(f -> f.endsWith("." + format))
        .filter(
            f -> Arrays.stream(f.split("/")).noneMatch(p -> p.startsWith(".") || p.startsWith("_")))
        .sorted()
        .toList();
  }

  /** Files with a path component starting with '.': in progress, segments, markers. */
  private static List<String> hidden(List<String> files) {
    return files.stream()
        .filter(f -> Arrays.stream(f.split("/")).anyMatch(p -> p.startsWith(".")))
        .sorted()
        .toList();
  }

  /** Partition directories with a success file. */
  private static Set<String> committed(List<String> files) {
    return files.stream()
        .filter(f -> f.endsWith("/_SUCCESS"))
        .map(f -> f.substring(0, f.length() - "/_SUCCESS".length()))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private void stopPolling() throws InterruptedException {
    stopped = true; // no interrupt: it would break a read of the store's client midway
    poller.join();
  }

  @Override
  public void close() throws Exception {
    stopPolling();
    duckdb.close();
  }

  private record Row(long id, String dt, String bucket) {}

  /** What the independent reader found at the end. */
  record Verdict(
      long landed,
      int files,
      long lost,
      List<Long> lostExamples,
      long duplicated,
      List<Long> duplicatedExamples,
      long neverLanded,
      long misplaced,
      int partitionsExpected,
      int partitionsCommitted,
      List<String> leftovers) {
    boolean exactlyOnce() {
      return lost == 0 && duplicated == 0 && neverLanded == 0 && misplaced == 0;
    }
  }
}
