package dev.filetables.tests.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The connector guide's pipeline (issue 19), with a JSON file table instead of Kafka as the source,
 * run by {@code filetables sql} on both runners: the computed column {@code ts_ltz AS
 * TO_TIMESTAMP_LTZ(ts, 3)} and {@code DATE_FORMAT} in the session zone Asia/Shanghai make the
 * {@code dt}/{@code hour} partitions. DuckDB reads the Parquet table back; the expected rows are
 * computed here with {@code java.time}, and every partition has its success file.
 */
class SqlScriptBothRunnersTest {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  @ParameterizedTest
  @ValueSource(strings = {"--runner=DirectRunner", "--runner=FlinkRunner"})
  void theGuidesScriptPartitionsByTheSessionZone(
      String runner, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path source = Files.createDirectories(dir.resolve("orders"));
    Path sink = dir.resolve("fs_table");
    Map<String, Integer> expected = new TreeMap<>();
    List<String> lines = new ArrayList<>();
    Random random = new Random(19);
    long start = Instant.parse("2020-05-20T14:30:00Z").toEpochMilli(); // 22:30 in Shanghai
    for (int i = 0; i < 200; i++) {
      String user = "u" + random.nextInt(7);
      double amount = random.nextInt(10_000) / 100.0;
      long ts = start + random.nextInt(5 * 3600_000); // crosses midnight in Shanghai
      lines.add("{\"user_id\":\"" + user + "\",\"order_amount\":" + amount + ",\"ts\":" + ts + "}");
      ZonedDateTime local = Instant.ofEpochMilli(ts).atZone(SHANGHAI);
      String key =
          user
              + "|"
              + amount
              + "|"
              + local.format(DateTimeFormatter.ofPattern("yyyy-MM-dd"))
              + "|"
              + local.format(DateTimeFormatter.ofPattern("HH"));
      expected.merge(key, 1, Integer::sum);
    }
    Files.write(source.resolve("part-0.json"), lines, StandardCharsets.UTF_8);
    Path script = dir.resolve("guide.sql");
    Files.writeString(
        script,
        String.join(
            "\n",
            "CREATE TABLE kafka_table (",
            "  user_id STRING, order_amount DOUBLE, ts BIGINT,",
            "  ts_ltz AS TO_TIMESTAMP_LTZ(ts, 3),",
            "  WATERMARK FOR ts_ltz AS ts_ltz - INTERVAL '5' SECOND",
            ") WITH ('connector' = 'filesystem', 'path' = '" + source + "', 'format' = 'json');",
            "CREATE TABLE fs_table (user_id STRING, order_amount DOUBLE, dt STRING, `hour` STRING)",
            "PARTITIONED BY (dt, `hour`) WITH ('connector'='filesystem', 'path'='" + sink + "',",
            "  'format'='parquet',",
            "  'partition.time-extractor.timestamp-pattern'='$dt $hour:00:00',",
            "  'sink.partition-commit.delay'='1 h',",
            "  'sink.partition-commit.trigger'='partition-time',",
            "  'sink.partition-commit.watermark-time-zone'='Asia/Shanghai',",
            "  'sink.partition-commit.policy.kind'='success-file');",
            "SET 'table.local-time-zone' = 'Asia/Shanghai';",
            "INSERT INTO fs_table",
            "SELECT user_id, order_amount, DATE_FORMAT(ts_ltz, 'yyyy-MM-dd'),"
                + " DATE_FORMAT(ts_ltz, 'HH') FROM kafka_table;"),
        StandardCharsets.UTF_8);

    String printed = SqlCli.run(script.toString(), runner, "--parallelism=2");
    assertTrue(printed.contains("wrote 200 rows"), printed);

    assertEquals(expected, duckDbRows(sink));
    try (Stream<Path> partitions = Files.list(sink)) {
      for (Path dt : partitions.toList()) {
        try (Stream<Path> hours = Files.list(dt)) {
          for (Path hour : hours.toList()) {
            assertTrue(Files.exists(hour.resolve("_SUCCESS")), "no success file in " + hour);
          }
        }
      }
    }
  }

  /** The table as DuckDB reads it, partition values as the strings in the directory names. */
  private static Map<String, Integer> duckDbRows(Path table) throws Exception {
    Map<String, Integer> rows = new TreeMap<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duck.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT user_id, order_amount, dt, \"hour\" FROM read_parquet('"
                    + table
                    + "/**/*.parquet', hive_partitioning = true, hive_types_autocast = false)")) {
      while (result.next()) {
        String key =
            result.getString(1)
                + "|"
                + result.getDouble(2)
                + "|"
                + result.getString(3)
                + "|"
                + result.getString(4);
        rows.merge(key, 1, Integer::sum);
      }
    }
    return rows;
  }
}
