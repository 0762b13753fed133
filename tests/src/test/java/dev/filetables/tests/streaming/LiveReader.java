package dev.filetables.tests.streaming;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A plain reader that watches tables while a job runs, fails and restores: every {@code interval}
 * it lists each table the way Hive-style readers do and reads the files it has not seen with the
 * {@link IndependentReader}, and it records a violation whenever what a reader sees is wrong at
 * that moment:
 *
 * <ul>
 *   <li>a visible file that does not read completely (a partial file), or that changed after it was
 *       seen (a visible file must be immutable);
 *   <li>a row visible twice (in two files, or twice in one);
 *   <li>a row that was visible and is not any more;
 *   <li>for partition-time commits: a partition's success file while rows of that partition are not
 *       visible yet (the success file is looked for before the listing, so the listing is at least
 *       as new as the commit it is judged against).
 * </ul>
 *
 * The run's harness calls {@link #stop} when the job is over and fails the test on any violation.
 */
final class LiveReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LiveReader.class);
  private static final int KEPT = 20;

  private final List<Watched> tables = new ArrayList<>();
  private final Duration interval;

  /** Violations per table name, in the order seen. */
  private final Map<String, List<String>> violations =
      Collections.synchronizedMap(new LinkedHashMap<>());

  private final Thread thread;
  private volatile boolean stopping;
  private volatile Throwable crashed;
  private int observations;
  private int observationsWithRows;

  private LiveReader(Duration interval) {
    this.interval = interval;
    this.thread = new Thread(this::run, "live-reader");
    this.thread.setDaemon(true);
  }

  /**
   * Starts watching {@code tables}, whose rows are ids {@code 0 .. totalRows-1} of {@code orders}.
   */
  static LiveReader start(List<TableSpec> tables, Orders orders, long totalRows) {
    LiveReader reader = new LiveReader(Duration.ofMillis(300));
    for (TableSpec table : tables) {
      reader.tables.add(
          reader
          .new Watched(
              table, IndependentReader::rowsOf, expectedPerPartition(table, orders, totalRows)));
    }
    reader.thread.start();
    return reader;
  }

  /**
   * Starts watching one table of any schema, whose visible files {@code rows} reads as whole-row
   * keys; without partition-time commits (no success file is judged).
   */
  static LiveReader start(TableSpec table, FileRows rows) {
    LiveReader reader = new LiveReader(Duration.ofMillis(300));
    reader.tables.add(reader.new Watched(table, rows, Map.of()));
    reader.thread.start();
    return reader;
  }

  /** How a watched table's data file reads, as whole-row keys. */
  interface FileRows {
    List<String> rowsOf(IndependentReader reader, Path root, Path file, String format)
        throws Exception;
  }

  /**
   * Rows each partition has once all is written (what a success file promises), for partition-time
   * commits.
   */
  private static Map<String, Long> expectedPerPartition(
      TableSpec table, Orders orders, long totalRows) {
    Map<String, Long> expected = new HashMap<>();
    if (partitionTimeCommit(table)) {
      for (long id = 0; id < totalRows; id++) {
        expected.merge(orders.partitionPath(id), 1L, Long::sum);
      }
    }
    return expected;
  }

  private static boolean partitionTimeCommit(TableSpec table) {
    return table.options().commitPolicyKinds().size() > 0
        && table.options().commitTrigger().equals("partition-time");
  }

  private void run() {
    try (IndependentReader reader = IndependentReader.open()) {
      while (!stopping) {
        observeAll(reader);
        Thread.sleep(interval.toMillis());
      }
      observeAll(reader); // once more, after the job ended
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      crashed = t;
    }
  }

  private void observeAll(IndependentReader reader) throws Exception {
    boolean rows = false;
    for (Watched table : tables) {
      table.observe(reader);
      rows |= !table.counts.isEmpty();
    }
    observations++;
    if (rows) {
      observationsWithRows++;
    }
  }

  /**
   * Stops watching after one last observation; returns the violations seen per table (no entry for
   * a table that looked right at every moment).
   */
  /** Stops watching and fails if the reader saw anything wrong, naming {@code context}. */
  void stopAndAssertNothingWrong(String context) throws InterruptedException {
    Map<String, List<String>> seen = stop();
    if (!seen.isEmpty()) {
      throw new AssertionError(
          "A plain reader saw tables wrong while the job ran (" + context + "): " + seen);
    }
  }

  Map<String, List<String>> stop() throws InterruptedException {
    stopping = true;
    thread.join(60_000);
    if (thread.isAlive()) {
      thread.interrupt();
      throw new AssertionError("the live reader did not stop within 60 s");
    }
    if (crashed != null) {
      throw new AssertionError("the live reader failed", crashed);
    }
    if (observationsWithRows == 0) {
      throw new AssertionError(
          "the live reader never saw a row: it proves nothing (" + observations + " observations)");
    }
    LOG.info(
        "Live reader: {} observations ({} with rows visible), violations: {}",
        observations,
        observationsWithRows,
        violations.isEmpty() ? "none" : violations);
    return Map.copyOf(violations);
  }

  int observations() {
    return observations;
  }

  @Override
  /**
   * Stops the reader's thread without judging anything: for a {@code finally} after a run that
   * failed on its own (judging here would hide that failure behind "never saw a row"). Runs that
   * get that far judge with {@link #stop} or {@link #stopAndAssertNothingWrong} first.
   */
  public void close() throws InterruptedException {
    if (!stopping) {
      stopping = true;
      thread.join(60_000);
      thread.interrupt();
      LOG.info("Live reader closed without a verdict after {} observations", observations);
    }
  }

  private void violation(String table, String text) {
    List<String> seen = violations.computeIfAbsent(table, t -> new ArrayList<>());
    if (seen.size() < KEPT) {
      seen.add(text);
      LOG.warn("Live reader: {}: {}", table, text);
    }
  }

  /**
   * One table: the visible files seen (with their size and rows) and how often each row is visible.
   */
  private final class Watched {
    final TableSpec table;
    final Path root;
    final String format;
    final FileRows fileRows;
    final boolean partitionTimeCommit;
    final String successFile;

    /** Rows each partition has once all is written: what a success file promises. */
    final Map<String, Long> expectedPerPartition;

    final Map<Path, Seen> files = new LinkedHashMap<>();
    final Map<String, Integer> counts = new HashMap<>();
    final Set<String> committed = new HashSet<>();

    Watched(TableSpec table, FileRows fileRows, Map<String, Long> expectedPerPartition) {
      this.table = table;
      this.root = CommitTables.root(table);
      this.format = table.options().format();
      this.fileRows = fileRows;
      this.partitionTimeCommit = !expectedPerPartition.isEmpty();
      this.successFile = table.options().successFileName();
      this.expectedPerPartition = expectedPerPartition;
    }

    void observe(IndependentReader reader) throws Exception {
      Set<String> newlyCommitted = partitionTimeCommit ? committedPartitions() : Set.of();
      List<Path> listed = IndependentReader.visibleFiles(root, "." + format);
      Set<Path> now = new HashSet<>(listed);
      for (Path file : listed) {
        long size;
        try {
          size = Files.size(file);
        } catch (NoSuchFileException e) {
          now.remove(file); // gone since the listing: judged as gone below
          continue;
        }
        Seen seen = files.get(file);
        if (seen != null) {
          if (seen.size != size) {
            violation(
                table.name(),
                "visible file "
                    + rel(file)
                    + " changed from "
                    + seen.size
                    + " to "
                    + size
                    + " bytes");
            seen.size = size;
          }
          continue;
        }
        List<String> rows;
        try {
          rows = fileRows.rowsOf(reader, root, file, format);
        } catch (Exception e) {
          if (!Files.exists(file)) {
            now.remove(file);
            continue;
          }
          violation(
              table.name(),
              "visible file " + rel(file) + " (" + size + " bytes) does not read: " + e);
          continue;
        }
        files.put(file, new Seen(size, rows));
        for (String row : rows) {
          if (counts.merge(row, 1, Integer::sum) == 2) {
            violation(table.name(), "row visible twice (again in " + rel(file) + "): " + row);
          }
        }
      }
      for (Path gone : new ArrayList<>(files.keySet())) {
        if (now.contains(gone)) {
          continue;
        }
        Seen seen = files.remove(gone);
        for (String row : seen.rows) {
          if (counts.merge(row, -1, Integer::sum) == 0) {
            counts.remove(row);
            violation(
                table.name(),
                "row no longer visible (its file " + rel(gone) + " went away): " + row);
          }
        }
      }
      for (String partition : newlyCommitted) {
        long visible =
            counts.keySet().stream().filter(row -> partitionOf(row).equals(partition)).count();
        long expected = expectedPerPartition.getOrDefault(partition, 0L);
        if (visible < expected) {
          violation(
              table.name(),
              partition
                  + " has its success file with "
                  + visible
                  + " of its "
                  + expected
                  + " rows visible");
        }
      }
    }

    /** Partitions whose success file appeared since the last observation. */
    private Set<String> committedPartitions() throws IOException {
      Set<String> fresh = new HashSet<>();
      if (!Files.isDirectory(root)) {
        return fresh;
      }
      try (Stream<Path> walk = Files.walk(root)) {
        walk.filter(p -> p.getFileName().toString().equals(successFile))
            .map(p -> root.relativize(p.getParent()).toString().replace('\\', '/'))
            .filter(committed::add)
            .forEach(fresh::add);
      } catch (java.io.UncheckedIOException e) {
        // a directory vanished while walking: look again next time
      }
      return fresh;
    }

    private String partitionOf(String row) {
      String[] parts = row.split("\\|");
      return "dt=" + parts[parts.length - 2] + "/hour=" + parts[parts.length - 1];
    }

    private String rel(Path file) {
      return root.relativize(file).toString();
    }
  }

  private static final class Seen {
    long size;
    final List<String> rows;

    Seen(long size, List<String> rows) {
      this.size = size;
      this.rows = rows;
    }
  }
}
