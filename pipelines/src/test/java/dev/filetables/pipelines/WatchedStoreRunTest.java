package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.TablePaths;
import dev.filetables.pipelines.storage.StorageServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watched run on S3: files landing in a directory on S3 (new files and a new partition while the
 * job runs) are copied into an hourly Parquet table on S3, whose hours are committed with a success
 * file; a bad line goes to a dead-letter table on HDFS (its file opened there). Every landed row
 * once, the committed hours have their {@code _SUCCESS}, a manifest of exactly the objects the S3
 * server holds there. (S3 is the store without rename and with listings by prefix; the suite's time
 * allows one such run.)
 */
@Tag("cluster")
class WatchedStoreRunTest {
  @TempDir Path dir;

  @Test
  void watchesS3AndCommitsHoursThere() throws Exception {
    String from = "s3";
    String to = "s3";
    StorageServers servers = StorageServers.shared();
    String run = UUID.randomUUID().toString();
    Path landing = TablePaths.of(servers.root(from) + "/watched-" + run + "/landing");
    Path deadLetters = TablePaths.of(servers.root("hdfs") + "/watched-" + run + "/bad");
    Path hourly = TablePaths.of(servers.root(to) + "/watched-" + run + "/hourly");
    Path source = dir.resolve("logs.sql");
    Files.writeString(
        source,
        "CREATE TABLE logs (\n  level STRING,\n  message STRING,\n  log_ts TIMESTAMP(3),\n"
            + "  src STRING,\n  WATERMARK FOR log_ts AS log_ts - INTERVAL '1' MINUTE\n)"
            + " PARTITIONED BY (src) WITH (\n"
            + "  'connector' = 'filesystem',\n  'path' = '"
            + landing
            + "',\n  'format' = 'json',\n  'source.monitor-interval' = '500 ms',\n"
            + "  'source.idle-timeout' = '3 s',\n  'source.bad-records' = 'dead-letter',\n"
            + "  'source.bad-records.dead-letter.path' = '"
            + deadLetters
            + "'\n);\n");
    Path sink = dir.resolve("hourly.sql");
    Files.writeString(
        sink,
        "CREATE TABLE hourly (\n  level STRING,\n  message STRING,\n  log_ts TIMESTAMP(3),\n"
            + "  dt STRING,\n  `hour` STRING\n) PARTITIONED BY (dt, `hour`) WITH (\n"
            + "  'connector' = 'filesystem',\n  'path' = '"
            + hourly
            + "',\n  'format' = 'parquet',\n"
            + "  'sink.rolling-policy.rollover-interval' = '2 s',\n"
            + "  'sink.rolling-policy.inactivity-interval' = '2 s',\n"
            + "  'sink.rolling-policy.check-interval' = '1 s',\n"
            + "  'partition.time-extractor.timestamp-pattern' = '$dt $hour:00:00',\n"
            + "  'sink.partition-derive.time-column' = 'log_ts',\n"
            + "  'sink.partition-commit.trigger' = 'partition-time',\n"
            + "  'sink.partition-commit.delay' = '1 h',\n"
            + "  'sink.partition-commit.policy.kind' = 'success-file',\n"
            + "  'sink.partition-commit.success-file.manifest' = 'true'\n);\n");
    land(landing.resolve("src=web"), "a.json", "10", 0, 120, true);
    Thread lander =
        new Thread(
            () -> {
              try {
                Thread.sleep(6000);
                land(landing.resolve("src=web"), "b.json", "11", 0, 60, false);
                land(landing.resolve("src=app"), "c.json", "12", 5, 30, false); // a new partition
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    lander.start();
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "--from",
                source.toString(),
                "--to",
                sink.toString(),
                "--stop-after",
                "30 s",
                "--state-dir",
                dir.resolve("state").toString(),
                "--parallelism=2",
                "--checkpointingInterval=1000"));
    args.addAll(servers.pipelineArgs());
    CliRunner copy = CliRunner.run(args.toArray(new String[0]));
    lander.join();
    assertEquals(0, copy.exitCode, copy.toString());

    List<String> queryArgs = new ArrayList<>(List.of("query", sink.toString()));
    queryArgs.addAll(servers.pipelineArgs());
    CliRunner query = CliRunner.run(queryArgs.toArray(new String[0]));
    assertEquals(0, query.exitCode, query.toString());
    assertEquals(210, query.out.lines().count(), "every landed row once");
    assertEquals(
        120, query.out.lines().filter(l -> l.contains("\"hour\":\"10\"")).count(), "hour 10");
    for (String hour : List.of("10", "11")) {
      assertManifestListsTheObjects(servers, hourly, "dt=2020-05-20/hour=" + hour);
    }
    // --stop-after cancels the job before the dead-letter file rolls: its file is still open on
    // HDFS (listed, its bytes not yet visible); it is there, under the table's dt partition
    assertTrue(
        listing(deadLetters).stream()
            .anyMatch(f -> f.contains("/dt=") && f.endsWith(".inprogress")),
        "the dead-letter table's file on HDFS: " + listing(deadLetters));
  }

  /** Lands a file whole: written under a hidden name, then moved into place. */
  private static void land(
      Path partition, String name, String hour, int firstMinute, int count, boolean badLine)
      throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < count; i++) {
      lines.append(
          String.format(
              "{\"level\": \"INFO\", \"message\": \"event %d\", \"log_ts\": \"2020-05-20 %s:%02d:%02d.000\"}%n",
              i, hour, firstMinute + i / 60, i % 60));
    }
    if (badLine) {
      lines.append("{not json\n");
    }
    Path hidden = partition.resolve("." + name + ".tmp");
    Files.write(hidden, lines.toString().getBytes(StandardCharsets.UTF_8));
    FileOps.moveIntoPlace(hidden, partition.resolve(name), false);
  }

  private static List<String> listing(Path root) throws Exception {
    if (!Files.exists(root)) {
      return List.of("(no " + root + ")");
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.map(Path::toString).collect(Collectors.toList());
    }
  }

  /**
   * The committed partition's success file is a manifest (read with FileTables' reader) of exactly
   * the data objects the S3 server holds there, with their sizes.
   */
  private static void assertManifestListsTheObjects(
      StorageServers servers, Path table, String partition) throws Exception {
    Path dir = table.resolve(partition);
    CommitManifest manifest = CommitManifest.read(dir.resolve("_SUCCESS"));
    assertEquals(List.of(), manifest.verify(dir), partition);
    Set<String> objects = StoreFiles.visible(servers, dir.toString()).keySet();
    assertEquals(objects, new TreeSet<>(manifest.files().keySet()), partition + " committed");
  }
}
