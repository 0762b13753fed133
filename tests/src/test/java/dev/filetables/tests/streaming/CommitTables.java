package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.tests.streaming.RecordingCommitPolicy.Commit;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.Row;

/**
 * The committed orders table of the streaming commit tests: JSON (rows are lines, so a policy can
 * count them), hourly partitions ({@code dt}/{@code hour}), files rolled within about a second,
 * partition-time commits with {@code success-file} (with a manifest) and {@link
 * RecordingCommitPolicy}; and the checks of its commits.
 */
final class CommitTables {
  static final String SUCCESS = "_SUCCESS";

  private CommitTables() {}

  /**
   * The table, committed {@code delay} (a Flink duration, e.g. {@code 1 h}) after partition time.
   */
  static TableSpec table(Path dir, String name, String delay) {
    return table(dir, name, Map.of(TableOptions.COMMIT_DELAY, delay));
  }

  /** The table with some of its options replaced or added ({@code overrides}). */
  static TableSpec table(Path dir, String name, Map<String, String> overrides) {
    Map<String, String> options =
        new java.util.LinkedHashMap<>(
            Map.of(
                TableOptions.ROLLING_FILE_SIZE, "64kb",
                TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 s",
                TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
                TableOptions.ROLLING_CHECK_INTERVAL, "500 ms",
                TableOptions.COMMIT_TRIGGER, "partition-time",
                TableOptions.TIME_EXTRACTOR_PATTERN, "$dt $hour:00:00",
                TableOptions.COMMIT_POLICY_KIND, "success-file, custom",
                TableOptions.COMMIT_POLICY_CLASS, RecordingCommitPolicy.class.getName(),
                TableOptions.COMMIT_SUCCESS_FILE_MANIFEST, "true"));
    options.putAll(overrides);
    return Orders.table(name, StreamingScenarios.tablePath(dir, name).toString(), "json", options);
  }

  /**
   * The table written by {@link FileTableIO#write}, its published files also watched by {@code
   * witness} (if not null); the harness stops the job only once every partition of {@code orders}
   * has its success file.
   */
  static SinkUnderTest sink(TableSpec table, Orders orders, WatermarkRaceWitness witness) {
    return new SinkUnderTest(table, t -> new WriteAndWatch(t, witness))
        .doneWhen(t -> committedPartitions(t).size() == orders.partitions());
  }

  /**
   * {@link FileTableIO#write}, its published files also going to a {@link WatermarkRaceWitness}.
   */
  static final class WriteAndWatch extends PTransform<PCollection<Row>, PDone> {
    private static final long serialVersionUID = 1L;
    private final TableSpec table;
    private final WatermarkRaceWitness witness;

    WriteAndWatch(TableSpec table, WatermarkRaceWitness witness) {
      this.table = table;
      this.witness = witness;
    }

    @Override
    public PDone expand(PCollection<Row> rows) {
      PCollection<WrittenFile> published = rows.apply("Write", StreamingTables.write(table));
      if (witness != null) {
        published.apply("WatchWatermark", witness);
      }
      return PDone.in(rows.getPipeline());
    }
  }

  static Path root(TableSpec table) {
    return Path.of(table.options().path());
  }

  /** Relative partition paths that have a success file now. */
  static Set<String> committedPartitions(TableSpec table) {
    Path root = root(table);
    Set<String> committed = new TreeSet<>();
    if (!Files.isDirectory(root)) {
      return committed;
    }
    // the job may delete files (compaction inputs, segments) while this walks: walk again then
    for (int attempt = 1; ; attempt++) {
      try (var files = Files.walk(root)) {
        files
            .filter(p -> p.getFileName().toString().equals(SUCCESS))
            .forEach(
                p -> committed.add(root.relativize(p.getParent()).toString().replace('\\', '/')));
        return committed;
      } catch (IOException | UncheckedIOException e) {
        boolean vanished =
            e instanceof java.nio.file.NoSuchFileException
                || e.getCause() instanceof java.nio.file.NoSuchFileException;
        if (!vanished || attempt >= 10) {
          throw e instanceof UncheckedIOException
              ? (UncheckedIOException) e
              : new UncheckedIOException((IOException) e);
        }
        committed.clear();
      }
    }
  }

  /** Visible rows per partition path, now. */
  static Map<String, Long> rowsPerPartition(TableContents contents) {
    Map<String, Long> rows = new TreeMap<>();
    contents.files().forEach(f -> rows.merge(f.partitionPath(), f.rows(), Long::sum));
    return rows;
  }

  /** Visible file names per partition path, now. */
  static Map<String, Set<String>> filesPerPartition(TableContents contents) {
    Map<String, Set<String>> files = new TreeMap<>();
    contents
        .files()
        .forEach(
            f ->
                files
                    .computeIfAbsent(f.partitionPath(), p -> new TreeSet<>())
                    .add(f.path().getFileName().toString()));
    return files;
  }

  /** Partition paths of rows {@code 0 .. totalRows-1}. */
  static Set<String> partitionsOf(Orders orders, long totalRows) {
    Set<String> partitions = new TreeSet<>();
    for (long id = 0; id < totalRows; id += Math.max(1, totalRows / (orders.partitions() * 10L))) {
      partitions.add(orders.partitionPath(id));
    }
    partitions.add(orders.partitionPath(totalRows - 1));
    return partitions;
  }

  /**
   * The commit rules once the write is complete: every partition committed by the recording policy
   * and by its success file; every recorded commit saw exactly the partition's final rows (nothing
   * became visible after a commit: no late data in this input); the success file's manifest lists
   * exactly the visible files, with the right row count.
   */
  static void assertCommittedExactlyAsVisible(
      TableSpec table, TableContents contents, Set<String> partitions) throws IOException {
    Map<String, Long> finalRows = rowsPerPartition(contents);
    Map<String, Set<String>> finalFiles = filesPerPartition(contents);
    List<Commit> commits = RecordingCommitPolicy.commits(root(table));
    assertEquals(partitions, finalRows.keySet(), "partitions with visible rows");
    assertEquals(
        partitions,
        commits.stream().map(c -> c.partition).collect(Collectors.toCollection(TreeSet::new)),
        "partitions the policy committed: " + commits);
    assertEquals(partitions, committedPartitions(table), "partitions with a success file");
    List<String> early = new ArrayList<>();
    for (Commit commit : commits) {
      if (commit.visibleRows != finalRows.get(commit.partition)
          || !commit.visibleFiles.equals(finalFiles.get(commit.partition))) {
        early.add(
            commit
                + " but finally "
                + finalRows.get(commit.partition)
                + " rows in "
                + finalFiles.get(commit.partition).size()
                + " files");
      }
      assertTrue(
          commit.visibleFiles.containsAll(commit.contextFiles),
          "the commit context listed files that were not visible: "
              + commit.contextFiles
              + " vs "
              + commit.visibleFiles);
    }
    assertEquals(List.of(), early, "commits that saw less than the final partition");
    for (String partition : partitions) {
      Path dir = root(table).resolve(partition);
      CommitManifest manifest = CommitManifest.read(dir.resolve(SUCCESS));
      assertEquals(List.of(), manifest.verify(dir), partition);
      assertEquals(finalFiles.get(partition), new TreeSet<>(manifest.files().keySet()), partition);
      // null when some files were published after the final watermark and their counts are unknown
      // to the commit (merged files of auto-compaction; announced part files have theirs)
      if (!manifest.json().path("rowCount").isNull()) {
        assertEquals(
            (long) finalRows.get(partition),
            manifest.json().path("rowCount").asLong(),
            "manifest rows of " + partition);
      }
    }
  }
}
