package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TablePaths;
import dev.filetables.pipelines.storage.StorageServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The commands on tables on the real S3 server and HDFS, configured as users do it ({@code
 * --endpoint}, {@code --awsRegion}): demo writes a table and its DDL to S3, query reads one
 * partition, run copies a day to HDFS, compact merges its files, and query reads the copy.
 */
@Tag("cluster")
class StoreCliTest {
  private static StorageServers servers;

  @BeforeAll
  static void startServers() throws Exception {
    servers = StorageServers.shared();
  }

  private static String[] withStore(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(servers.pipelineArgs());
    return all.toArray(new String[0]);
  }

  @Test
  void demoQueryRunAndCompactOnS3AndHdfs() throws Exception {
    String demoDir = servers.root("s3") + "/cli/demo";
    CliRunner demo =
        CliRunner.run(
            withStore("demo", "--rows", "5k", "--output", demoDir, "--runner=DirectRunner"));
    assertEquals(0, demo.exitCode, demo.toString());
    assertTrue(demo.out.contains("  rows        5,000\n"), demo.out);
    String ddl = demoDir + "/orders.sql";
    assertTrue(Files.isRegularFile(TablePaths.of(ddl)), "the DDL is on S3 too");

    CliRunner day =
        CliRunner.run(
            withStore("query", ddl, "--where", "dt='2020-05-21'", "--runner=DirectRunner"));
    assertEquals(0, day.exitCode, day.toString());
    long rows = day.out.lines().count();
    assertTrue(rows > 0 && rows < 5000, day.out.length() + " chars");
    assertTrue(day.out.lines().allMatch(l -> l.contains("\"dt\":\"2020-05-21\"")));

    Path copyDdl = Files.createTempFile("daily", ".sql");
    String copyRoot = servers.root("hdfs") + "/cli/daily";
    Files.writeString(
        copyDdl,
        "CREATE TABLE daily (\n  order_id BIGINT NOT NULL,\n  product STRING,\n  dt STRING\n)"
            + " PARTITIONED BY (dt) WITH (\n  'connector' = 'filesystem',\n  'path' = '"
            + copyRoot
            + "',\n  'format' = 'parquet'\n);\n",
        StandardCharsets.UTF_8);
    for (int i = 0; i < 2; i++) { // twice: two files in the partition for compact to merge
      CliRunner copy =
          CliRunner.run(
              withStore(
                  "run",
                  "--from",
                  ddl,
                  "--to",
                  copyDdl.toString(),
                  "--where",
                  "dt='2020-05-21'",
                  "--runner=DirectRunner"));
      assertEquals(0, copy.exitCode, copy.toString());
    }
    CliRunner compact = CliRunner.run(withStore("compact", copyDdl.toString(), "--grace", "0 s"));
    assertEquals(0, compact.exitCode, compact.toString());
    CliRunner copied =
        CliRunner.run(withStore("query", copyDdl.toString(), "--runner=DirectRunner"));
    assertEquals(0, copied.exitCode, copied.toString());
    assertEquals(2 * rows, copied.out.lines().count(), "both copies, once each");
    try (var files = Files.list(TablePaths.of(copyRoot + "/dt=2020-05-21"))) {
      assertEquals(
          1,
          files.filter(p -> !p.getFileName().toString().startsWith(".")).count(),
          "compacted into one visible file");
    }
  }
}
