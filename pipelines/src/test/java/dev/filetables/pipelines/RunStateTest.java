package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state of a resumable run without Flink: {@code run.json} round trip, the fit check's
 * messages, the choice of the restore point, the default directory and its lock.
 */
class RunStateTest {
  @TempDir Path dir;

  private Path ddl(String name, String body) throws Exception {
    return Files.writeString(dir.resolve(name + ".sql"), body);
  }

  private RunDefinition definition(String sinkFormat, Optional<String> where, int parallelism)
      throws Exception {
    Path source =
        ddl(
            "src",
            "CREATE TABLE src (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'connector' = 'filesystem', 'path' = '"
                + dir.resolve("landing")
                + "', 'format' = 'json', 'source.monitor-interval' = '1 s')");
    Path sink =
        ddl(
            "dst",
            "CREATE TABLE dst (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + "'connector' = 'filesystem', 'path' = '"
                + dir.resolve("sink")
                + "/', 'format' = '"
                + sinkFormat
                + "')");
    return RunDefinition.of(source.toString(), sink.toString(), where, Optional.of(parallelism));
  }

  @Test
  void runRecordRoundTrips() throws Exception {
    RunRecord record =
        RunRecord.start(definition("json", Optional.of("dt = 'a'"), 2))
            .withJob(
                new RunRecord.Job(
                    "0123456789abcdef0123456789abcdef",
                    "embedded",
                    Optional.of("file:///state/checkpoints"),
                    Optional.empty(),
                    Instant.parse("2024-01-02T03:04:05Z")))
            .finishedNow();
    Path file = dir.resolve(RunRecord.FILE);
    record.write(file);
    RunRecord read = RunRecord.read(file).orElseThrow();
    assertEquals(record.toJson(), read.toJson());
    assertEquals(record.writeUuid, read.writeUuid);
    assertEquals(record.definition.facts(), read.definition.facts());
    assertEquals("0123456789abcdef0123456789abcdef", read.lastJob().orElseThrow().id);
    assertEquals(Optional.empty(), read.lastJob().orElseThrow().savepoints);
    assertTrue(read.finished.isPresent());
    assertFalse(Files.exists(dir.resolve("." + RunRecord.FILE + ".tmp")), "no temporary left");

    CliException torn =
        assertThrows(CliException.class, () -> RunRecord.fromJson("{\"version\": 1}", "x.json"));
    assertEquals("x.json has no 'writeUuid': not a complete run record", torn.getMessage());
    assertThrows(CliException.class, () -> RunRecord.fromJson("{", "x.json"));
  }

  @Test
  void aDefinitionFitsItselfAndNamesEachDifference() throws Exception {
    RunDefinition recorded = definition("json", Optional.empty(), 2);
    assertEquals(List.of(), definition("json", Optional.empty(), 2).differencesFrom(recorded));
    // the path is compared normalized: a trailing '/' or a missing directory changes nothing
    assertEquals("file://" + dir.resolve("sink"), recorded.facts().get("sink option 'path'"));

    List<String> differences =
        definition("parquet", Optional.of("dt = 'a'"), 4).differencesFrom(recorded);
    assertEquals(
        List.of(
            "parallelism was '2', now '4' (--parallelism=2 resumes it)",
            "sink option 'format' was 'json', now 'parquet'",
            "where 'dt = 'a'' is new"),
        differences);
    String message = ResumableRun.misfit(dir.resolve("state"), differences);
    assertTrue(
        message.startsWith(
            "the run's state in "
                + dir.resolve("state")
                + " does not fit this command: parallelism was '2', now '4' (--parallelism=2"
                + " resumes it); sink option"),
        message);
    assertTrue(message.contains("--fresh") && message.contains("--state-dir"), message);
    assertFalse(message.contains("\n"), "one line");
  }

  @Test
  void theParallelismCountsOnlyWhenItSetsTheWriters() throws Exception {
    Path source =
        ddl(
            "s",
            "CREATE TABLE s (id BIGINT) WITH ('connector' = 'filesystem',"
                + " 'path' = '"
                + dir.resolve("a")
                + "', 'format' = 'json')");
    Path fixed =
        ddl(
            "f",
            "CREATE TABLE f (id BIGINT) WITH ('connector' = 'filesystem',"
                + " 'path' = '"
                + dir.resolve("b")
                + "', 'format' = 'json', 'sink.parallelism' = '3')");
    RunDefinition two =
        RunDefinition.of(source.toString(), fixed.toString(), Optional.empty(), Optional.of(2));
    RunDefinition four =
        RunDefinition.of(source.toString(), fixed.toString(), Optional.empty(), Optional.of(4));
    assertEquals(List.of(), four.differencesFrom(two));
    assertFalse(two.facts().containsKey(RunDefinition.PARALLELISM));
  }

  @Test
  void theRestorePointIsTheNewestCompleteOneOfTheLatestJobThatHasOne() throws Exception {
    Path checkpoints = dir.resolve("checkpoints");
    Path savepoints = dir.resolve("savepoints");
    RunRecord.Job first = job("aaaaaa00000000000000000000000001", checkpoints, savepoints);
    RunRecord.Job second = job("bbbbbb00000000000000000000000002", checkpoints, savepoints);
    RunRecord.Job third = job("cccccc00000000000000000000000003", checkpoints, savepoints);
    assertEquals(Optional.empty(), RestorePoints.newestOfRun(List.of(first, second)));

    checkpoint(checkpoints, first, 4, true, 1_000);
    checkpoint(checkpoints, first, 5, true, 2_000);
    checkpoint(checkpoints, first, 6, false, 3_000); // killed mid-checkpoint: no _metadata
    // the second job restored from chk-5 and died before its first checkpoint completed
    checkpoint(checkpoints, second, 6, false, 4_000);
    RestorePoints.Point point =
        RestorePoints.newestOfRun(List.of(first, second, third)).orElseThrow();
    assertEquals(checkpoints.resolve(first.id).resolve("chk-5"), point.path);
    assertEquals("checkpoint 5 of job " + first.id, point.describe());

    checkpoint(checkpoints, second, 7, true, 5_000);
    assertEquals(
        checkpoints.resolve(second.id).resolve("chk-7"),
        RestorePoints.newestOfRun(List.of(first, second, third)).orElseThrow().path);

    // a savepoint the second job was stopped with (Flink's default name) is newer still
    Path savepoint = savepoints.resolve("savepoint-bbbbbb-0123456789ab");
    Files.createDirectories(savepoint);
    Files.writeString(savepoint.resolve(RestorePoints.METADATA), "x");
    Files.setLastModifiedTime(
        savepoint.resolve(RestorePoints.METADATA), FileTime.fromMillis(6_000));
    RestorePoints.Point stopped =
        RestorePoints.newestOfRun(List.of(first, second, third)).orElseThrow();
    assertEquals(savepoint, stopped.path);
    assertTrue(
        stopped.isSavepoint() && stopped.describe().startsWith("savepoint "), stopped.describe());
    // another job's savepoint is not the run's
    Path other = savepoints.resolve("savepoint-dddddd-0123456789ab");
    Files.createDirectories(other);
    Files.writeString(other.resolve(RestorePoints.METADATA), "x");
    assertNotEquals(other, RestorePoints.newestOfRun(List.of(first, second)).orElseThrow().path);
  }

  private static RunRecord.Job job(String id, Path checkpoints, Path savepoints) {
    return new RunRecord.Job(
        id,
        "embedded",
        Optional.of(checkpoints.toUri().toString()),
        Optional.of(savepoints.toUri().toString()),
        Instant.now());
  }

  private static void checkpoint(
      Path checkpoints, RunRecord.Job job, int number, boolean complete, long writtenMillis)
      throws Exception {
    Path chk = Files.createDirectories(checkpoints.resolve(job.id).resolve("chk-" + number));
    Files.writeString(chk.resolve("some-state"), "state");
    if (complete) {
      Path metadata = Files.writeString(chk.resolve(RestorePoints.METADATA), "metadata");
      Files.setLastModifiedTime(metadata, FileTime.fromMillis(writtenMillis));
    }
  }

  @Test
  void theDefaultDirectoryDependsOnSinkAndSourceOnly() {
    Path home = dir.resolve("home");
    Path one = RunStateDir.defaultDir(home, "orders copy", "file:///t/orders", "files file:///l");
    assertEquals(home.resolve(".filetables/runs"), one.getParent());
    assertTrue(one.getFileName().toString().matches("orders_copy-[0-9a-f]{12}"), one.toString());
    assertEquals(
        one, RunStateDir.defaultDir(home, "orders copy", "file:///t/orders", "files file:///l"));
    assertNotEquals(
        one, RunStateDir.defaultDir(home, "orders copy", "file:///t/orders", "files file:///m"));
    assertNotEquals(
        one, RunStateDir.defaultDir(home, "orders copy", "file:///t/other", "files file:///l"));
  }

  @Test
  void oneProcessAtATimeHoldsARunsState() throws Exception {
    Path state = dir.resolve("state");
    try (RunStateDir held = RunStateDir.lock(state)) {
      CliException refused = assertThrows(CliException.class, () -> RunStateDir.lock(state));
      assertTrue(
          refused.getMessage().startsWith("another filetables process runs this run (pid "),
          refused.getMessage());
      Files.writeString(held.recordFile(), "{}");
      Files.createDirectories(held.checkpoints().resolve("job/chk-1"));
      held.clear();
      try (var left = Files.list(state)) {
        assertEquals(List.of(state.resolve(RunStateDir.LOCK)), left.toList());
      }
    }
    try (RunStateDir again = RunStateDir.lock(state)) {
      assertEquals(state, again.dir());
    }
  }

  @Test
  void aFailedRestoreSaysWhatToDo() {
    String flink =
        "org.apache.flink.runtime.client.JobInitializationException: Could not start the JobMaster.\n"
            + "\tat org.apache.flink...\n"
            + "Caused by: java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint"
            + " file:/s/chk-5. Cannot map checkpoint/savepoint state for operator 1234 to the new"
            + " program, because the operator is not available in the new program.\n";
    String message =
        ResumableRun.failureMessage(
            Optional.of(flink), Optional.of("file:/s/chk-5"), dir.resolve("state"));
    assertTrue(
        message.startsWith(
            "the job could not restore file:/s/chk-5: Failed to rollback to checkpoint/savepoint"),
        message);
    assertTrue(message.contains("--fresh"), message);
    assertEquals(
        "the job failed: java.io.IOException: disk full",
        ResumableRun.failureMessage(
            Optional.of("java.io.IOException: disk full\n\tat x"), Optional.empty(), dir));
    assertEquals(
        "the job failed", ResumableRun.failureMessage(Optional.empty(), Optional.empty(), dir));
  }
}
