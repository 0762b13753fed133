package dev.filetables.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.compaction.OfflineCompactionFailpoints.Point;
import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.testfixtures.CliProcess;
import dev.filetables.transforms.FileTableMaintenance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 17, point 4: {@code bin/filetables compact} killed at each step of the offline compaction
 * (a JVM halt in a real CLI process, as {@code kill -9}). Whatever the step, FileTables readers —
 * listing now, or reading on from a listing taken before the compaction — read every row exactly
 * once; the next {@code compact} leaves every row visible exactly once to DuckDB, and nothing
 * hidden but what the grace period keeps; one with {@code --grace 0} leaves no grace names.
 */
class CompactCrashTest {
  private static final Duration GRACE = Duration.ofMinutes(5);

  @TempDir Path dir;

  static Stream<Arguments> crashPoints() {
    return Stream.of(
        Arguments.of(Point.MERGED, 1, "5 min"),
        Arguments.of(Point.SIDECAR_WRITTEN, 2, "5 min"),
        Arguments.of(Point.COMMITTED, 1, "5 min"),
        Arguments.of(Point.COMMITTED, 9, "5 min"), // all committed, nothing moved yet
        Arguments.of(Point.RETIRED, 1, "5 min"),
        Arguments.of(Point.RETIRED, 20, "5 min"),
        Arguments.of(Point.RETIRED, 7, "0 s")); // deleted at once instead of moved
  }

  @ParameterizedTest(name = "{0} #{1}, grace {2}")
  @MethodSource("crashPoints")
  void aCompactionKilledAtAnyStepIsFinishedByTheNextWithEveryRowOnce(
      Point point, int nth, String grace) throws Exception {
    SmallFilesTable t = SmallFilesTable.write(dir.resolve("t").toString(), "json");
    List<DataFile> before = t.list();
    long target = 4 * before.get(0).size();

    crash(t, point, nth, "--target-size", Long.toString(target), "--grace", grace);

    Map<Long, Long> expected = SmallFilesTable.expected();
    assertEquals(expected, SmallFilesTable.counts(t.read(t.list())), "FileTables, after the kill");
    boolean kept = !grace.startsWith("0");
    if (kept) {
      assertEquals(expected, SmallFilesTable.counts(t.read(before)), "listed before, after kill");
    }

    FileTableMaintenance.compact(t.table, PartitionFilter.all(), target, GRACE, false);
    assertEquals(expected, SmallFilesTable.counts(t.duckDb(Path.of(t.root))), "DuckDB, next run");
    assertEquals(expected, SmallFilesTable.counts(t.read(t.list())), "FileTables, next run");
    assertEquals(9, visibleFiles(t).size(), "only the merged files are visible");
    assertEquals(List.of(), hidden(t, ".inprogress"), "no partial output is left");
    if (kept) {
      assertEquals(expected, SmallFilesTable.counts(t.read(before)), "listed before, next run");
    }

    FileTableMaintenance.compact(t.table, PartitionFilter.all(), target, Duration.ZERO, false);
    assertEquals(List.of(), hidden(t, ".replaced"), "grace names deleted");
    assertEquals(expected, SmallFilesTable.counts(t.duckDb(Path.of(t.root))), "DuckDB, grace 0");
    assertEquals(expected, SmallFilesTable.counts(t.read(t.list())), "FileTables, grace 0");
  }

  @Test
  void aKillWhileGraceNamesExpireAndAMoveThatCopiedWithoutDeletingAreFinishedByTheNextRun()
      throws Exception {
    SmallFilesTable t = SmallFilesTable.write(dir.resolve("t").toString(), "json");
    long target = 4 * t.list().get(0).size();
    Map<Long, Long> expected = SmallFilesTable.expected();

    // all committed, nothing moved: then one file copied to its grace name but not deleted, as a
    // move on S3 (a copy and a delete) killed in between leaves it
    crash(t, Point.COMMITTED, 9, "--target-size", Long.toString(target));
    Path replaced = visibleFiles(t).stream().filter(p -> !isMerged(p)).findFirst().orElseThrow();
    Files.copy(replaced, ReplacedFiles.graceNameOf(replaced));
    assertEquals(expected, SmallFilesTable.counts(t.read(t.list())), "FileTables, after the kill");
    FileTableMaintenance.compact(t.table, PartitionFilter.all(), target, GRACE, false);
    assertEquals(expected, SmallFilesTable.counts(t.duckDb(Path.of(t.root))), "DuckDB, next run");
    assertEquals(36, hidden(t, ".replaced").size());

    // a listing taken now stays readable; then a run with no grace is killed while deleting
    List<DataFile> listed = t.list();
    crash(t, Point.EXPIRED, 10, "--target-size", Long.toString(target), "--grace", "0 s");
    assertEquals(expected, SmallFilesTable.counts(t.read(listed)), "listed before the kill");
    assertEquals(expected, SmallFilesTable.counts(t.duckDb(Path.of(t.root))), "DuckDB, after it");
    FileTableMaintenance.compact(t.table, PartitionFilter.all(), target, Duration.ZERO, false);
    assertEquals(List.of(), hidden(t, ".replaced"), "grace names deleted");
    assertEquals(expected, SmallFilesTable.counts(t.read(t.list())), "FileTables, next run");
  }

  /** Runs {@code compact} in a CLI process that halts at the {@code nth} {@code point}. */
  private void crash(SmallFilesTable t, Point point, int nth, String... options) throws Exception {
    List<String> args = new ArrayList<>();
    args.addAll(List.of(point.name(), Integer.toString(nth), "compact", t.ddlFile(dir).toString()));
    args.addAll(List.of(options));
    Path log = dir.resolve("compact-" + point + "-" + nth + ".log");
    try (CliProcess cli =
        CliProcess.start(CompactUntilCrash.class, args, Map.of(), Map.of(), log)) {
      assertEquals(
          CompactUntilCrash.CRASHED,
          cli.awaitExit(Duration.ofSeconds(120)),
          "compact was to be killed at " + point + " #" + nth + ":\n" + cli.output());
    }
  }

  private static boolean isMerged(Path file) {
    return file.getFileName().toString().startsWith("part-compacted-");
  }

  /** The files a Hive-style reader sees: not starting with '.' or '_'. */
  private static List<Path> visibleFiles(SmallFilesTable t) throws IOException {
    return files(t).stream()
        .filter(p -> !p.getFileName().toString().startsWith("."))
        .filter(p -> !p.getFileName().toString().startsWith("_"))
        .collect(Collectors.toList());
  }

  private static List<Path> hidden(SmallFilesTable t, String suffix) throws IOException {
    return files(t).stream()
        .filter(p -> p.getFileName().toString().startsWith("."))
        .filter(p -> p.getFileName().toString().endsWith(suffix))
        .collect(Collectors.toList());
  }

  private static List<Path> files(SmallFilesTable t) throws IOException {
    try (Stream<Path> all = Files.walk(Path.of(t.root))) {
      return all.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
  }
}
