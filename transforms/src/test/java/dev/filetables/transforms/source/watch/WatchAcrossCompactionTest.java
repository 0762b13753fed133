package dev.filetables.transforms.source.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableMaintenance;
import dev.filetables.transforms.source.FileRange;
import dev.filetables.transforms.source.FileRangeReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The watched source's shards across offline compactions of the table they watch, without a runner:
 * partitions compacted when the shards had read all of their files, some, none, or had taken files
 * in without reading them yet; the grace names deleted before the shards polled again; their state
 * encoded and decoded in between (a checkpoint and a restore); a merged file merged again; a file
 * that landed too late to be read. Every landed row is read once, and a fresh watcher reads every
 * row once too.
 */
class WatchAcrossCompactionTest {
  private static final int SHARDS = 3;
  private static final int ROWS_PER_FILE = 5;

  @TempDir Path dir;

  private TableSpec table;
  private FileFormat format;
  private int landed;
  private final List<Long> late = new ArrayList<>();

  private void setUp(String formatName) {
    table =
        DdlParser.parse(
            "CREATE TABLE landing (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ("
                + " 'connector' = 'filesystem', 'path' = '"
                + dir.resolve("t")
                + "', 'format' = '"
                + formatName
                + "', 'source.monitor-interval' = '1 s', 'source.monitor.lateness' = '1 min')");
    format = FileFormats.of(table.options());
  }

  /** Lands the next {@code files} part files into partition {@code dt}; their ids. */
  private List<Long> land(String dt, int files) throws IOException {
    return land(dt, files, -1);
  }

  private List<Long> land(String dt, int files, long mtime) throws IOException {
    List<Long> ids = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      ids.addAll(landFile(dt, landed++, mtime));
    }
    return ids;
  }

  /**
   * Lands the next part files into partition {@code dt} so that each shard gets {@code perShard} of
   * them (a file belongs to the shard its path hashes to; the path holds the random temporary
   * directory); their ids.
   */
  private List<Long> landOnEveryShard(String dt, int perShard) throws IOException {
    int[] files = new int[SHARDS];
    List<Long> ids = new ArrayList<>();
    while (Arrays.stream(files).anyMatch(count -> count < perShard)) {
      int n = landed++;
      int shard = (int) Math.floorMod(SeenFiles.hash(fileOf(dt, n).toString()), (long) SHARDS);
      if (files[shard] < perShard) {
        files[shard]++;
        ids.addAll(landFile(dt, n, -1));
      }
    }
    return ids;
  }

  private Path fileOf(String dt, int n) {
    return dir.resolve("t")
        .resolve("dt=" + dt)
        .resolve(PartFileName.visible("land", "0", n, format.extension()));
  }

  /** Lands file {@code n} (rows n*R .. n*R+R-1) into partition {@code dt}; its ids. */
  private List<Long> landFile(String dt, int n, long mtime) throws IOException {
    Path file = fileOf(dt, n);
    Files.createDirectories(file.getParent());
    List<Long> ids = new ArrayList<>();
    try (OutputStream out = Files.newOutputStream(file);
        RowWriter writer = format.createWriter(out, table.fileSchema())) {
      for (long id = (long) n * ROWS_PER_FILE; id < (long) (n + 1) * ROWS_PER_FILE; id++) {
        writer.write(Row.withSchema(table.fileSchema()).addValue(id).build());
        ids.add(id);
      }
    }
    if (mtime >= 0) {
      Files.setLastModifiedTime(file, FileTime.fromMillis(mtime));
    }
    return ids;
  }

  private void compact(Duration grace) throws Exception {
    FileTableMaintenance.compact(table, PartitionFilter.all(), 1L << 30, grace, false);
  }

  /** The watcher's shards, each with its own tracker (its restriction) and poller. */
  private final class Watcher {
    final List<WatchTracker> shards = new ArrayList<>();
    final DirectoryPoller poller =
        new DirectoryPoller(
            WatchSettings.of(table, PartitionFilter.all(), SHARDS, 1 << 20, 1000), null);
    final FileRangeReader reader = new FileRangeReader(table);
    final List<Long> read = new ArrayList<>();

    Watcher() {
      for (int shard = 0; shard < SHARDS; shard++) {
        shards.add(new WatchTracker(WatchRestriction.initial(shard, SHARDS)));
      }
    }

    /** Every shard polls (takes new files in) at processing time {@code now}. */
    void poll(long now) throws IOException {
      for (WatchTracker shard : shards) {
        assertTrue(shard.tryClaim(WatchClaim.poll(poller.poll(shard.currentRestriction(), now))));
      }
    }

    /** Every shard reads all it has taken in. */
    void read() throws IOException {
      for (int shard = 0; shard < shards.size(); shard++) {
        read(shard, Long.MAX_VALUE);
      }
    }

    /**
     * Shard {@code shard} reads up to {@code steps} steps of what it has taken in, each claimed as
     * the watched source claims them; a range it starts resumes after the steps claimed before.
     */
    void read(int shard, long steps) throws IOException {
      WatchTracker tracker = shards.get(shard);
      long left = steps;
      for (PendingRange head = tracker.currentRestriction().pending.peekFirst();
          head != null && left > 0;
          head = tracker.currentRestriction().pending.peekFirst()) {
        try (FileRangeReader.Cursor cursor = reader.open(FileRange.of(head.file, head.range))) {
          assertEquals(head.rowsDone, cursor.skip(head.rowsDone), "resumed in " + head);
          FileRangeReader.Step step = null;
          while (left > 0 && (step = cursor.next()) != null) {
            assertTrue(tracker.tryClaim(WatchClaim.row(WatchRestriction.UNSET)));
            read.add(step.row().getInt64("id"));
            left--;
          }
          assertFalse(
              cursor.result().vanished() || cursor.result().badFile(),
              head + ": " + cursor.result());
          if (step == null) {
            assertTrue(tracker.tryClaim(WatchClaim.rangeDone()));
          }
        }
      }
    }

    /** A checkpoint and a restore: the shards continue from their encoded restrictions. */
    void restore() throws IOException {
      for (int i = 0; i < shards.size(); i++) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WatchRestrictionCoder.of().encode(shards.get(i).currentRestriction(), bytes);
        shards.set(
            i,
            new WatchTracker(
                WatchRestrictionCoder.of().decode(new ByteArrayInputStream(bytes.toByteArray()))));
      }
    }

    List<PendingRange> pending(int shard) {
      return shards.get(shard).currentRestriction().pendingList();
    }

    int pendingFiles() {
      return (int)
          shards.stream()
              .flatMap(s -> s.currentRestriction().pending.stream())
              .map(p -> p.file.path())
              .distinct()
              .count();
    }
  }

  /** The ids read a number of times other than expected (id → times read), at most 20. */
  private static Map<Long, Long> wrong(List<Long> expected, List<Long> read) {
    Map<Long, Long> counts = new TreeMap<>();
    read.forEach(id -> counts.merge(id, 1L, Long::sum));
    Map<Long, Long> wrong = new TreeMap<>();
    for (long id : expected) {
      long times = counts.getOrDefault(id, 0L);
      if (times != 1) {
        wrong.put(id, times);
      }
    }
    counts.keySet().stream().filter(id -> !expected.contains(id)).forEach(id -> wrong.put(id, -1L));
    return wrong.entrySet().stream()
        .limit(20)
        .collect(
            Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }

  private static void assertOnce(List<Long> expected, List<Long> read, String what) {
    assertEquals(
        Map.of(), wrong(expected, read), what + ": ids read other than once (-1: never landed)");
    assertEquals(expected.size(), read.size(), what + ": rows read");
  }

  private List<String> visibleNames() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .filter(name -> !name.startsWith("."))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "parquet", "orc"})
  void everyRowOnceWhateverTheShardsHadReadWhenPartitionsWereCompacted(String formatName)
      throws Exception {
    setUp(formatName);
    List<Long> expected = new ArrayList<>();
    Watcher watcher = new Watcher();
    long now = System.currentTimeMillis();

    expected.addAll(land("a", 6)); // read in full before the compaction
    expected.addAll(land("b", 6)); // b: these read, the next ones not yet
    watcher.poll(now);
    watcher.read();
    // landed after the first poll with a modification time before the window: never read
    late.addAll(land("a", 1, now - 10 * 60_000));
    expected.addAll(landOnEveryShard("d", 3)); // taken in, not read yet (one of them in part)
    watcher.poll(now + 1000);
    assertEquals(9, watcher.pendingFiles());
    for (int shard = 0; shard < SHARDS; shard++) {
      assertFalse(watcher.pending(shard).isEmpty(), "shard " + shard + " took some of d in");
    }
    watcher.read(0, 2);
    expected.addAll(land("b", 4));
    expected.addAll(land("c", 6)); // none read

    compact(Duration.ofMinutes(5));
    watcher.read(1, Long.MAX_VALUE); // some of d's files, under their grace names
    compact(Duration.ZERO); // and now the grace names are gone
    assertEquals(4, visibleNames().size(), "one merged file per partition: " + visibleNames());

    watcher.restore();
    assertEquals(2, watcher.pending(0).get(0).rowsDone, "a file read in part");
    watcher.read(); // the rest of d's files (one resumed), from the merged file
    watcher.poll(now + 2000);
    watcher.read();
    watcher.poll(now + 3000);
    assertEquals(0, watcher.pendingFiles(), "nothing more");
    assertOnce(expected, watcher.read, "every landed row");

    // a merged file merged again with files landed since: only those are new
    expected.addAll(land("a", 3));
    compact(Duration.ZERO);
    assertEquals(4, visibleNames().size(), "merged again: " + visibleNames());
    watcher.restore();
    watcher.poll(now + 4000);
    watcher.read();
    assertOnce(expected, watcher.read, "the new rows once, nothing again");

    // a watcher without state reads every row there once, the late file's too
    Watcher fresh = new Watcher();
    fresh.poll(now + 5000);
    fresh.read();
    List<Long> everything = new ArrayList<>(expected);
    everything.addAll(late);
    assertOnce(everything, fresh.read, "a fresh watcher");
  }
}
