package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code query} and {@code run} honour {@code source.bad-records} and say what it did. */
class DirtyDataCliTest {
  @TempDir Path dir;

  private Path table(String name, String extraOptions) throws Exception {
    Path root = dir.resolve(name);
    Files.createDirectories(root.resolve("dt=2020-05-20"));
    Files.writeString(
        root.resolve("dt=2020-05-20").resolve("part-1.csv"), "1,a\nx,b\n3,c\n4,d,e\n");
    Path ddl = dir.resolve(name + ".sql");
    Files.writeString(
        ddl,
        "CREATE TABLE "
            + name
            + " (\n  id BIGINT NOT NULL,\n  name STRING,\n  dt STRING\n)"
            + " PARTITIONED BY (dt) WITH (\n  'connector' = 'filesystem',\n  'path' = '"
            + root
            + "',\n  'format' = 'csv'"
            + extraOptions
            + "\n);\n");
    return ddl;
  }

  private static void assertContains(String text, String... parts) {
    for (String part : parts) {
      assertTrue(text.contains(part), "expected <" + part + "> in: " + text);
    }
  }

  @Test
  void failNamesTheFileLineAndOption() throws Exception {
    Path ddl = table("strict", "");
    CliRunner query = CliRunner.run("query", ddl.toString(), "--runner=DirectRunner");
    assertNotEquals(0, query.exitCode, query.toString());
    assertContains(
        query.err,
        "filetables: error: Bad record in ",
        "part-1.csv",
        "line 2",
        "'source.bad-records' = 'skip'");
  }

  @Test
  void skipQueriesTheGoodRowsAndCountsTheBadOnes() throws Exception {
    Path ddl = table("lenient", ",\n  'source.bad-records' = 'skip'");
    CliRunner query = CliRunner.run("query", ddl.toString(), "--runner=DirectRunner");
    assertEquals(0, query.exitCode, query.toString());
    assertEquals(2, query.out.lines().count(), query.out);
    assertContains(query.err, "skipped 2 bad records of lenient");
  }

  @Test
  void runWritesDeadLettersAndTellsHowToQueryThem() throws Exception {
    Path dead = dir.resolve("dead");
    Path ddl =
        table(
            "landing",
            ",\n  'source.bad-records' = 'dead-letter',\n  'source.bad-records.dead-letter.path' = '"
                + dead
                + "'");
    Path sink = dir.resolve("sink.sql");
    Files.writeString(
        sink,
        "CREATE TABLE sink (id BIGINT NOT NULL, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
            + "'connector' = 'filesystem', 'path' = '"
            + dir.resolve("sink")
            + "', 'format' = 'parquet');\n");
    CliRunner run =
        CliRunner.run(
            "run", "--from", ddl.toString(), "--to", sink.toString(), "--runner=DirectRunner");
    assertEquals(0, run.exitCode, run.toString());
    assertContains(run.out, "wrote 2 rows");
    Path deadDdl = dead.resolve("_dead_letters.sql");
    assertContains(
        run.err,
        "wrote 2 bad records of landing to the dead-letter table",
        "bin/filetables query " + deadDdl);

    // a query of the source only looks: it skips and leaves the dead-letter table alone
    CliRunner look = CliRunner.run("query", ddl.toString(), "--runner=DirectRunner");
    assertEquals(0, look.exitCode, look.toString());
    assertEquals(2, look.out.lines().count(), look.out);
    assertContains(
        look.err, "does not write them to the dead-letter table", "skipped 2 bad records");

    CliRunner letters = CliRunner.run("query", deadDdl.toString(), "--runner=DirectRunner");
    assertEquals(0, letters.exitCode, letters.toString());
    List<String> lines = letters.out.lines().toList();
    assertEquals(2, lines.size(), letters.out);
    assertContains(
        lines.get(0), "\"line_number\":2", "\"raw_text\":\"x,b\\n\"", "cannot parse 'x' as BIGINT");
    assertContains(lines.get(1), "\"line_number\":4", "expected 2 fields but found 3");
  }
}
