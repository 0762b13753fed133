package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** demo → query → run → query through the CLI, in this JVM, on both runners (small data). */
@Tag("cluster")
class CliEndToEndTest {
  private static final int ROWS = 20_000;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"DirectRunner", "FlinkRunner"})
  void demoQueryAndRun(String runner) throws Exception {
    String runnerFlag = "--runner=" + runner;
    CliRunner demo =
        CliRunner.run(
            "demo", "--rows", "20k", "--output", dir.toString(), runnerFlag, "--parallelism=2");
    assertEquals(0, demo.exitCode, demo.toString());
    assertTrue(demo.out.contains("  rows        20,000\n"), demo.out);
    assertTrue(demo.out.contains("  partitions  48\n"), demo.out);
    Path ddl = dir.resolve("orders.sql");
    assertTrue(demo.out.contains("  table DDL   " + ddl.toAbsolutePath() + "\n"), demo.out);
    assertTrue(Files.isDirectory(dir.resolve("orders/dt=2020-05-21/hour=23")));

    // query one partition: every row, sorted by order_id, partition columns included
    List<Row> expected = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      Row row = OrdersDataset.order(i, ROWS, DemoCommand.DEFAULT_SEED);
      if (row.getString("dt").equals("2020-05-20") && row.getString("hour").equals("12")) {
        expected.add(row);
      }
    }
    CliRunner query =
        CliRunner.run(
            "query", ddl.toString(), "--where", "dt='2020-05-20' AND hour='12'", runnerFlag);
    assertEquals(0, query.exitCode, query.toString());
    List<String> lines = query.out.lines().toList();
    assertEquals(expected.size(), lines.size());
    List<String> names = OrdersDataset.SCHEMA.getFieldNames();
    for (int i = 0; i < lines.size(); i++) {
      assertEquals(
          OutputFormat.JSONL.record(
              names,
              RowCells.types(OrdersDataset.SCHEMA),
              RowCells.of(expected.get(i), RowCells.types(OrdersDataset.SCHEMA))),
          lines.get(i));
    }

    // the first rows of the whole table as CSV
    CliRunner csv = CliRunner.run("query", ddl.toString(), "--format=csv", "--limit=3", runnerFlag);
    assertEquals(0, csv.exitCode, csv.toString());
    List<String> csvLines = List.of(csv.out.split("\r\n"));
    assertEquals(4, csvLines.size(), csv.out);
    assertEquals(String.join(",", names), csvLines.get(0));
    assertTrue(csvLines.get(1).startsWith("100000001,"), csvLines.get(1));
    assertTrue(csvLines.get(3).startsWith("100000003,"), csvLines.get(3));

    // copy one day into a CSV table with fewer columns
    Path sinkDdl = dir.resolve("daily.sql");
    Files.writeString(
        sinkDdl,
        "CREATE TABLE daily (\n  order_id BIGINT NOT NULL,\n  product STRING,\n  unit_price DECIMAL(10, 2),\n"
            + "  dt STRING\n) PARTITIONED BY (dt) WITH (\n  'connector' = 'filesystem',\n  'path' = '"
            + dir.resolve("daily")
            + "',\n  'format' = 'csv'\n);\n");
    CliRunner copy =
        CliRunner.run(
            "run",
            "--from",
            ddl.toString(),
            "--to",
            sinkDdl.toString(),
            "--where",
            "dt='2020-05-21'",
            runnerFlag);
    assertEquals(0, copy.exitCode, copy.toString());
    long secondDay = 0;
    for (long i = 0; i < ROWS; i++) {
      if (OrdersDataset.order(i, ROWS, DemoCommand.DEFAULT_SEED)
          .getString("dt")
          .equals("2020-05-21")) {
        secondDay++;
      }
    }
    assertTrue(copy.out.startsWith("wrote " + Human.count(secondDay, "row") + " to "), copy.out);
    assertTrue(copy.out.contains(" in 1 partition ("), copy.out);
    assertTrue(
        copy.err.contains(
            "filetables: not copying source columns customer_id, category, quantity, currency, country, status, order_ts, hour: the sink definition "
                + sinkDdl
                + " does not declare them\n"),
        copy.err);

    CliRunner copied = CliRunner.run("query", sinkDdl.toString(), runnerFlag);
    assertEquals(0, copied.exitCode, copied.toString());
    assertEquals(secondDay, copied.out.lines().count());
    assertTrue(copied.out.lines().allMatch(l -> l.endsWith(",\"dt\":\"2020-05-21\"}")), copied.out);
  }
}
