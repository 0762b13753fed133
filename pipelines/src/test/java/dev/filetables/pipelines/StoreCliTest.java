package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TablePaths;
import dev.filetables.pipelines.storage.StorageServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands on tables on the real S3 server and HDFS, configured as users do it ({@code
 * --endpoint}, {@code --awsRegion}): demo writes a table and its DDL to S3, query reads one
 * partition, run copies a day to HDFS, compact merges its files, and query reads the copy. And on
 * each store: run writes bad records to a dead-letter table there, publish-leftovers finishes what
 * a write left hidden, once, and compact merges the partition.
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

  @ParameterizedTest
  @ValueSource(strings = {"s3", "hdfs"})
  void deadLettersLeftoversAndCompactionOnTheStore(String store) throws Exception {
    String root = servers.root(store) + "/cli/dirty-" + UUID.randomUUID();
    Path landing = TablePaths.of(root + "/landing");
    Path source = landing.resolve("dt=2020-05-20").resolve("part-1.csv");
    Files.createDirectories(source.getParent());
    Files.writeString(source, "1,a\nx,b\n3,c\n4,d,e\n"); // lines 2 and 4 are bad
    Path landingDdl = Files.createTempFile("landing", ".sql");
    Files.writeString(
        landingDdl,
        "CREATE TABLE landing (id BIGINT NOT NULL, name STRING, dt STRING) PARTITIONED BY (dt)"
            + " WITH ('connector' = 'filesystem', 'path' = '"
            + landing
            + "', 'format' = 'csv', 'source.bad-records' = 'dead-letter',"
            + " 'source.bad-records.dead-letter.path' = '"
            + root
            + "/dead')");
    Path sink = TablePaths.of(root + "/sink");
    Path sinkDdl = Files.createTempFile("sink", ".sql");
    Files.writeString(
        sinkDdl,
        "CREATE TABLE sink (id BIGINT NOT NULL, name STRING, dt STRING) PARTITIONED BY (dt) WITH"
            + " ('connector' = 'filesystem', 'path' = '"
            + sink
            + "', 'format' = 'json', 'sink.partition-commit.policy.kind' = 'success-file')");
    CliRunner run =
        CliRunner.run(
            withStore(
                "run",
                "--from",
                landingDdl.toString(),
                "--to",
                sinkDdl.toString(),
                "--runner=DirectRunner"));
    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.err.contains("wrote 2 bad records of landing"), run.toString());

    // the dead letters as the store's own client reads them, FileTables' code not in between
    List<String> letters = new ArrayList<>();
    StoreFiles.visible(servers, root + "/dead")
        .values()
        .forEach(f -> letters.addAll(StoreFiles.text(f).lines().toList()));
    letters.sort(Comparator.comparing(l -> field(l, "line_number")));
    assertEquals(2, letters.size(), letters.toString());
    assertEquals(
        List.of("2", "4"),
        List.of(field(letters.get(0), "line_number"), field(letters.get(1), "line_number")));
    assertEquals(
        List.of("4", "12"),
        List.of(field(letters.get(0), "byte_offset"), field(letters.get(1), "byte_offset")));
    for (String letter : letters) {
      assertTrue(letter.contains("\"source_file\":\"" + source + "\""), letter);
    }
    assertTrue(letters.get(0).contains("\"raw_text\":\"x,b\\n\""), letters.get(0));

    // what a streaming write's final checkpoint left hidden, published once
    Path leftover =
        PublishLeftoversCommandTest.leftover(
            sink, "dt=2020-05-20", UUID.randomUUID().toString(), ".json", "{\"id\":9}\n");
    for (int i = 0; i < 2; i++) { // the second finds nothing left
      CliRunner publish = CliRunner.run(withStore("publish-leftovers", sinkDdl.toString()));
      assertEquals(0, publish.exitCode, publish.toString());
      assertTrue(
          publish.out.contains(i == 0 ? "published 1 file(s)" : "no end-of-input leftovers"),
          publish.toString());
    }
    assertEquals("{\"id\":9}\n", Files.readString(leftover));
    assertEquals(
        List.of("dt=2020-05-20/_SUCCESS"),
        StoreFiles.hidden(servers, sink.toString()),
        "nothing hidden left but the success file");

    CliRunner compact = CliRunner.run(withStore("compact", sinkDdl.toString(), "--grace", "0 s"));
    assertEquals(0, compact.exitCode, compact.toString());
    Map<String, byte[]> merged = StoreFiles.visible(servers, sink.toString());
    assertEquals(1, merged.size(), "compacted into one file: " + merged.keySet());
    List<String> ids =
        StoreFiles.text(merged.values().iterator().next())
            .lines()
            .map(l -> field(l, "id"))
            .sorted()
            .toList();
    assertEquals(List.of("1", "3", "9"), ids, "each row once");
  }

  /** The value of a number field of a JSON line, as written. */
  private static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
    return m.find() ? m.group(1) : "(no " + name + " in " + json + ")";
  }
}
