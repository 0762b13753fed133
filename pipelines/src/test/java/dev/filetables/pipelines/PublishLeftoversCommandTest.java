package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.IntentFileName;
import dev.filetables.io.files.PartFileName;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code filetables publish-leftovers}, and the post-job publish the commands that run a streaming
 * write call once their job is {@code DONE} (here: {@code job orders-stream} on Flink [local], with
 * a leftover intent of its write placed before the job starts).
 */
@Tag("cluster")
class PublishLeftoversCommandTest {
  private static final String UUID = "abcdef01-2345-6789-abcd-ef0123456789";

  @TempDir Path dir;

  /**
   * A hidden part file of write {@code uuid} in {@code partition} (e.g. {@code dt=1/hour=00}) of
   * the table at {@code table}, and an intent (in the documented JSON format) naming it: what a
   * final checkpoint can leave for the post-job publish. Returns the file's visible path.
   */
  static Path leftover(Path table, String partition, String uuid, String extension, String contents)
      throws Exception {
    Path dir = Files.createDirectories(table.resolve(partition));
    String hidden = PartFileName.hidden(uuid, "0", 1, extension);
    Files.writeString(dir.resolve(hidden), contents);
    String intent = IntentFileName.of(uuid, System.currentTimeMillis(), "test1");
    Files.writeString(
        dir.resolve(intent),
        "{ \"format\" : 1, \"writeUuid\" : \""
            + uuid
            + "\", \"partition\" : \""
            + partition
            + "\", \"createdMillis\" : 1,"
            + " \"merge\" : false, \"groups\" : [ [ { \"name\" : \""
            + hidden
            + "\", \"rows\" : 1,"
            + " \"bytes\" : "
            + contents.length()
            + ", \"minTimestamp\" : 0, \"maxTimestamp\" : 0 } ] ] }");
    return dir.resolve(PartFileName.visibleOf(hidden));
  }

  @Test
  void publishesWhatAnEndedJobLeftHiddenAndCommitsThePartition() throws Exception {
    Path sql = dir.resolve("t.sql");
    Files.writeString(
        sql,
        "CREATE TABLE t (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem',"
            + " 'path' = '"
            + dir.resolve("t")
            + "', 'format' = 'json',"
            + " 'sink.partition-commit.policy.kind' = 'success-file')");
    Path partition = dir.resolve("t").resolve("dt=2020-05-20");
    Files.createDirectories(partition);
    Files.writeString(
        partition.resolve(PartFileName.hidden(UUID, "0", 1, ".json")), "{\"id\":1}\n");
    Files.writeString(
        partition.resolve(IntentFileName.of(UUID, 5, "abc")),
        "{ \"format\" : 1, \"writeUuid\" : \""
            + UUID
            + "\", \"partition\" : \"dt=2020-05-20\", \"createdMillis\" : 5,"
            + " \"merge\" : false, \"groups\" : [ [ { \"name\" : \""
            + PartFileName.hidden(UUID, "0", 1, ".json")
            + "\", \"rows\" : 1, \"bytes\" : 9, \"minTimestamp\" : 0, \"maxTimestamp\" : 0 } ] ] }");
    Path visible = partition.resolve(PartFileName.visible(UUID, "0", 1, ".json"));

    CliRunner dry =
        CliRunner.run("publish-leftovers", sql.toString(), "--write-uuid", UUID, "--dry-run");
    assertEquals(0, dry.exitCode, dry.toString());
    assertTrue(dry.out.contains("would publish 1 file(s)"), dry.toString());
    assertFalse(Files.exists(visible));

    CliRunner done = CliRunner.run("publish-leftovers", sql.toString());
    assertEquals(0, done.exitCode, done.toString());
    assertTrue(
        done.out.contains("published 1 file(s)") && done.out.contains("committed 1 partition(s)"),
        done.toString());
    assertTrue(Files.exists(visible));
    assertTrue(Files.exists(partition.resolve("_SUCCESS")));
    try (var names = Files.list(partition)) {
      assertTrue(
          names.noneMatch(p -> p.getFileName().toString().startsWith(".")), "nothing hidden left");
    }

    CliRunner again = CliRunner.run("publish-leftovers", sql.toString(), "--write-uuid=" + UUID);
    assertEquals(0, again.exitCode, again.toString());
    assertTrue(again.out.contains("no end-of-input leftovers"), again.toString());
  }

  @Test
  void hiddenRowsThatNoIntentPublishesFailTheCommandNamingTheFile() throws Exception {
    Path sql = dir.resolve("t.sql");
    Files.writeString(
        sql,
        "CREATE TABLE t (id BIGINT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem',"
            + " 'path' = '"
            + dir.resolve("t")
            + "', 'format' = 'json')");
    Path partition = Files.createDirectories(dir.resolve("t").resolve("dt=2020-05-21"));
    String orphan = PartFileName.hidden(UUID, "0", 7, ".json");
    Files.writeString(partition.resolve(orphan), "{\"id\":7}\n");

    CliRunner dry =
        CliRunner.run("publish-leftovers", sql.toString(), "--write-uuid", UUID, "--dry-run");
    assertEquals(0, dry.exitCode, "a dry run only looks: " + dry);

    CliRunner done = CliRunner.run("publish-leftovers", sql.toString(), "--write-uuid", UUID);
    assertEquals(1, done.exitCode, done.toString());
    String[] lines = done.err.strip().split("\n");
    assertEquals(1, lines.length, "one line: " + done);
    assertTrue(lines[0].startsWith("filetables: error: "), done.toString());
    assertTrue(
        lines[0].contains("dt=2020-05-21/" + orphan) && lines[0].contains("may be missing"),
        done.toString());
    assertTrue(Files.exists(partition.resolve(orphan)), "kept for inspection");
  }

  @Test
  void theOrdersStreamJobPublishesTheLeftoversOfItsWriteOnceItIsDone() throws Exception {
    Path output = dir.resolve("orders");
    // what a final checkpoint of this write could have left undone (the write id is the job's
    // option)
    Path visible = leftover(output, "dt=1999-01-01/hour=00", UUID, ".json", "{}\n");
    OrdersStreamJob.main(
        new String[] {
          // Flink [local], where the job runs for real (a finite orders-stream job with its 1 h
          // partition-time
          // delay does not always end on the Direct runner: a known, separate problem)
          "--runner=FlinkRunner",
          "--flinkMaster=[local]",
          "--parallelism=2",
          "--checkpointingInterval=500",
          "--output=" + output,
          "--rows=20",
          "--rowsPerSecond=0",
          "--partitions=2",
          "--tableFormat=json",
          "--writeUuid=" + UUID
        });
    assertTrue(Files.exists(visible), "not published after the job");
    assertTrue(Files.exists(visible.resolveSibling("_SUCCESS")), "not committed after the job");
  }
}
