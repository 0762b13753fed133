package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5, point 8: {@code run --from <watched.sql> --to <sink.sql>} keeps running and copies each
 * file that lands in the watched directory — JSON logs into an hourly Parquet table whose finished
 * hours are to be committed — until stopped (here by {@code --stop-after}).
 */
@Tag("cluster")
class WatchedRunTest {
  @TempDir Path dir;

  @Test
  void copiesFilesAsTheyLandIntoAnHourlyParquetTableWithCommits() throws Exception {
    Path source = dir.resolve("logs.sql");
    Files.writeString(
        source,
        "CREATE TABLE logs (\n  level STRING,\n  message STRING,\n  log_ts TIMESTAMP(3),\n"
            + "  WATERMARK FOR log_ts AS log_ts - INTERVAL '1' MINUTE\n) WITH (\n"
            + "  'connector' = 'filesystem',\n  'path' = '"
            + dir.resolve("landing")
            + "',\n"
            + "  'format' = 'json',\n  'source.monitor-interval' = '500 ms',\n"
            + "  'source.idle-timeout' = '3 s'\n);\n");
    Path sink = dir.resolve("hourly.sql");
    Files.writeString(
        sink,
        "CREATE TABLE hourly (\n  level STRING,\n  message STRING,\n  log_ts TIMESTAMP(3),\n"
            + "  dt STRING,\n  `hour` STRING\n) PARTITIONED BY (dt, `hour`) WITH (\n"
            + "  'connector' = 'filesystem',\n  'path' = '"
            + dir.resolve("hourly")
            + "',\n"
            + "  'format' = 'parquet',\n"
            + "  'sink.rolling-policy.rollover-interval' = '2 s',\n"
            + "  'sink.rolling-policy.inactivity-interval' = '2 s',\n"
            + "  'sink.rolling-policy.check-interval' = '1 s',\n"
            + "  'partition.time-extractor.timestamp-pattern' = '$dt $hour:00:00',\n"
            + "  'sink.partition-derive.time-column' = 'log_ts',\n"
            + "  'sink.partition-commit.trigger' = 'partition-time',\n"
            + "  'sink.partition-commit.delay' = '1 h',\n"
            + "  'sink.partition-commit.policy.kind' = 'success-file'\n);\n");
    // the landing directory is flat (unpartitioned): one file per batch of logs
    Files.createDirectories(dir.resolve("landing"));
    landFlat("a.json", "10", 0, 120);
    Thread lander =
        new Thread(
            () -> {
              try {
                Thread.sleep(6000);
                landFlat("b.json", "11", 0, 60);
                landFlat("c.json", "12", 5, 30);
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    lander.start();
    CliRunner run =
        CliRunner.run(
            "run",
            "--from",
            source.toString(),
            "--to",
            sink.toString(),
            "--stop-after",
            "25 s",
            "--state-dir",
            dir.resolve("state").toString(),
            "--parallelism=2",
            "--checkpointingInterval=1000");
    lander.join();
    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.err.contains("watching " + dir.resolve("landing")), run.err);
    assertTrue(run.out.startsWith("stopped after "), run.out);

    CliRunner query = CliRunner.run("query", sink.toString(), "--parallelism=2");
    assertEquals(0, query.exitCode, query.toString());
    assertEquals(210, query.out.lines().count(), "every landed row once");
    // partition-time commits need the watcher's watermark, which Beam 2.62's Flink runner passes
    // downstream only with --finishBundleBeforeCheckpointing=true (see WatchedRead): the CLI sets
    // it
    // for a watched source. Hours 10 and 11 are due once the data's watermark (12:05:29 - 1 min)
    // passes their end, hour 12 once every shard idled for 3 s; --stop-after cancels the job (no
    // drain to the end of time), so a _SUCCESS there was written while the job ran.
    try (Stream<Path> files = Files.list(dir.resolve("hourly/dt=2020-05-20/hour=10"))) {
      List<String> names = files.map(p -> p.getFileName().toString()).collect(Collectors.toList());
      assertTrue(names.stream().anyMatch(n -> n.endsWith(".parquet")), names.toString());
      assertTrue(names.contains("_SUCCESS"), "hour 10 committed while the job ran: " + names);
    }
    assertTrue(Files.exists(dir.resolve("hourly/dt=2020-05-20/hour=11/_SUCCESS")));
  }

  @Test
  void aWatchedRunOnFlinkFinishesBundlesAtCheckpointsUnlessToldOtherwise() {
    List<String> flink = List.of("--runner=FlinkRunner", "--flinkMaster=[local]");
    List<String> args = RunCommand.withStreamingDefaults(flink);
    assertTrue(args.contains("--finishBundleBeforeCheckpointing=true"), args.toString());
    assertTrue(args.contains("--checkpointingInterval=10000"), args.toString());

    List<String> explicit = new java.util.ArrayList<>(flink);
    explicit.add("--finishBundleBeforeCheckpointing=false");
    List<String> kept = RunCommand.withStreamingDefaults(explicit);
    assertTrue(kept.contains("--finishBundleBeforeCheckpointing=false"), kept.toString());
    assertFalse(kept.contains("--finishBundleBeforeCheckpointing=true"), kept.toString());

    List<String> direct = RunCommand.withStreamingDefaults(List.of("--runner=DirectRunner"));
    assertEquals(List.of("--runner=DirectRunner"), direct);
  }

  @Test
  void refusesAStateThatDoesNotFitBeforeWritingAnything() throws Exception {
    Path source = logsDdl();
    Path sink = copyDdl();
    // the state of a run of the same tables whose sink was CSV then
    Path state = dir.resolve("state");
    Map<String, String> facts =
        new TreeMap<>(
            RunDefinition.of(source.toString(), sink.toString(), Optional.empty(), Optional.of(2))
                .facts());
    facts.put("sink option 'format'", "csv");
    writeState(state, RunDefinition.of(facts));

    CliRunner run =
        CliRunner.run(
            "run",
            "--from",
            source.toString(),
            "--to",
            sink.toString(),
            "--state-dir",
            state.toString(),
            "--parallelism=2");
    assertEquals(1, run.exitCode, run.toString());
    assertTrue(
        run.err.contains(
            "the run's state in "
                + state
                + " does not fit this command: sink option 'format' was 'csv', now 'json'."),
        run.err);
    assertFalse(Files.exists(dir.resolve("copy")), "nothing written");
    assertEquals(List.of(RunStateDir.LOCK, RunRecord.FILE), names(state));
  }

  @Test
  void aSavepointMayChangeTheParallelismAndAFailedRestoreSaysSo() throws Exception {
    Path source = logsDdl();
    Path sink = copyDdl();
    Path state = dir.resolve("state");
    writeState(
        state,
        RunDefinition.of(source.toString(), sink.toString(), Optional.empty(), Optional.of(2)));
    Path savepoint = dir.resolve("savepoint-0a1b2c-000000000000");

    CliRunner run =
        CliRunner.run(
            "run",
            "--from",
            source.toString(),
            "--to",
            sink.toString(),
            "--state-dir",
            state.toString(),
            "--savepointPath=" + savepoint,
            "--parallelism=1");
    assertEquals(1, run.exitCode, run.toString());
    assertTrue(run.err.contains("rescaling the run from the savepoint to parallelism 1"), run.err);
    assertTrue(
        run.err.contains(
            "filetables: error: could not submit the job to the embedded Flink cluster: Cannot find"
                + " checkpoint or savepoint file/directory '"
                + savepoint
                + "'"),
        run.err);
    assertEquals(
        "1",
        RunRecord.read(state.resolve(RunRecord.FILE))
            .orElseThrow()
            .definition
            .facts()
            .get(RunDefinition.PARALLELISM));
  }

  @Test
  void stateOptionsAndSavepointsApplyOnlyToStreamingRunsOnFlink() throws Exception {
    Path source = dir.resolve("snapshot.sql");
    Files.writeString(
        source,
        "CREATE TABLE snapshot (level STRING) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("in")
            + "', 'format' = 'json')");
    Path sink = copyDdl();
    CliRunner run =
        CliRunner.run("run", "--from", source.toString(), "--to", sink.toString(), "--fresh");
    assertEquals(CliException.USAGE, run.exitCode, run.toString());
    assertTrue(
        run.err.contains(
            "--state-dir and --fresh apply only to a watched or Kafka source on Flink"),
        run.err);
    CliRunner savepoint =
        CliRunner.run(
            "run",
            "--from",
            source.toString(),
            "--to",
            sink.toString(),
            "--savepointPath=" + dir.resolve("savepoint-1"));
    assertEquals(CliException.USAGE, savepoint.exitCode, savepoint.toString());
    assertTrue(
        savepoint.err.contains(
            "--savepointPath restores a streaming run; a copy of snapshot is bounded"),
        savepoint.err);
  }

  /** A watched JSON table of one column over {@code landing}. */
  private Path logsDdl() throws Exception {
    Files.createDirectories(dir.resolve("landing"));
    return Files.writeString(
        dir.resolve("logs.sql"),
        "CREATE TABLE logs (level STRING) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("landing")
            + "', 'format' = 'json', 'source.monitor-interval' = '1 s')");
  }

  /** Its copy. */
  private Path copyDdl() throws Exception {
    return Files.writeString(
        dir.resolve("copy.sql"),
        "CREATE TABLE copy (level STRING) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("copy")
            + "', 'format' = 'json')");
  }

  /** The state directory of a run of {@code definition} that has no job yet. */
  private static void writeState(Path state, RunDefinition definition) throws Exception {
    Files.createDirectories(state);
    RunRecord.start(definition).write(state.resolve(RunRecord.FILE));
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  private void landFlat(String name, String hour, int firstMinute, int count) throws Exception {
    Path target = dir.resolve("landing").resolve(name);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < count; i++) {
      lines.append(
          String.format(
              "{\"level\": \"INFO\", \"message\": \"event %d\", \"log_ts\": \"2020-05-20 %s:%02d:%02d.000\"}%n",
              i, hour, firstMinute + i / 60, i % 60));
    }
    Path hidden = dir.resolve("landing").resolve("." + name + ".tmp");
    Files.writeString(hidden, lines);
    Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
  }
}
