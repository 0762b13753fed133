package dev.filetables.pipelines.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a script: statements, positions, the session zone, rewriting, and what is refused. */
class SqlScriptTest {
  @TempDir Path dir;

  private String source() {
    return "CREATE TABLE src (id INT, ts BIGINT, ts_ltz AS TO_TIMESTAMP_LTZ(ts, 3))"
        + " WITH ('connector' = 'filesystem', 'path' = '"
        + dir.resolve("src")
        + "', 'format' = 'json');\n";
  }

  private String sink() {
    return "CREATE TABLE dst (id INT, dt STRING) PARTITIONED BY (dt)"
        + " WITH ('connector' = 'filesystem', 'path' = '"
        + dir.resolve("dst")
        + "', 'format' = 'csv');\n";
  }

  private static String error(String script) {
    return assertThrows(SqlScriptException.class, () -> SqlScript.parse(script, "s.sql"))
        .getMessage();
  }

  private static void assertStartsWith(String prefix, String message) {
    assertTrue(message.startsWith(prefix), "expected <" + prefix + "...> but was: " + message);
  }

  @Test
  void splitsAtSemicolonsOutsideStringsNamesAndComments() {
    List<ScriptStatement> statements =
        ScriptSplitter.split(
            "-- a; comment\nSELECT ';' AS `a;b` /* ; */ FROM t;\n\n  SET 'x' = 'y'", "s.sql");
    assertEquals(2, statements.size());
    assertEquals("SELECT ';' AS `a;b` /* ; */ FROM t", statements.get(0).text());
    assertEquals(new ScriptPosition(2, 1), statements.get(0).position());
    assertEquals(new ScriptPosition(4, 3), statements.get(1).position());
    assertEquals(ScriptStatement.Kind.SET, statements.get(1).kind());
  }

  @Test
  void insertsInARowAreOneJobAndTheZoneIsTheSetBeforeThem() {
    SqlScript script =
        SqlScript.parse(
            source()
                + sink()
                + "SET 'table.local-time-zone' = 'Asia/Shanghai';\n"
                + "INSERT INTO dst SELECT id, DATE_FORMAT(ts_ltz, 'yyyy-MM-dd') FROM src;\n"
                + "INSERT INTO dst (dt, id) SELECT 'x', id FROM src;\n"
                + "SET 'table.local-time-zone' = 'default';\n"
                + "SELECT id FROM src;",
            "s.sql");
    assertEquals(2, script.jobs().size());
    InsertJob inserts = assertInstanceOf(InsertJob.class, script.jobs().get(0));
    assertEquals(2, inserts.sinks().size());
    assertEquals(ZoneId.of("Asia/Shanghai"), inserts.timeZone());
    assertEquals(ZoneId.systemDefault(), script.jobs().get(1).timeZone());
  }

  @Test
  void rewritesFlinkFormsAtTheirPositions() {
    ScriptStatement statement =
        new ScriptStatement(
            "s.sql",
            "SELECT TO_TIMESTAMP_LTZ(ts, 3), FROM_UNIXTIME(ts), UNIX_TIMESTAMP(),"
                + " CURRENT_TIMESTAMP, CAST(ts AS STRING), TO_TIMESTAMP(s) FROM t",
            new ScriptPosition(3, 5));
    String placed = statement.placedText();
    String rewritten =
        new FlinkSqlRewriter(ZoneId.of("UTC"))
            .rewrite(placed, FlinkSqlRewriter.parseStatement(statement, "the SELECT"));
    assertEquals(
        "SELECT TO_TIMESTAMP_LTZ(ts, 3, 'UTC'), FROM_UNIXTIME(ts, 'yyyy-MM-dd HH:mm:ss', 'UTC'),"
            + " FLINK_UNIX_TIMESTAMP_NOW('UTC'), FLINK_NOW('UTC'), CAST(ts AS VARCHAR),"
            + " TO_TIMESTAMP(s, 'yyyy-MM-dd HH:mm:ss') FROM t",
        rewritten.strip());
    assertTrue(rewritten.startsWith("\n\n    SELECT"), rewritten);
  }

  @Test
  void errorsNameTheLineAndTheConstruct() {
    String prefix = source() + sink();
    assertStartsWith(
        "s.sql:3:1: CREATE VIEW is not supported", error(prefix + "CREATE VIEW v AS SELECT 1;"));
    assertStartsWith(
        "s.sql:3:1: SET 'parallelism.default' is not supported",
        error(prefix + "SET 'parallelism.default' = '2';"));
    assertStartsWith(
        "s.sql:3:1: invalid time zone 'Mars/Base'",
        error(prefix + "SET 'table.local-time-zone' = 'Mars/Base';"));
    assertStartsWith(
        "s.sql:3:1: INSERT OVERWRITE is not supported",
        error(prefix + "INSERT OVERWRITE dst SELECT id, 'a' FROM src;"));
    assertStartsWith(
        "s.sql:3:1: INSERT INTO `nope`: no such table",
        error(prefix + "INSERT INTO nope SELECT 1;"));
    assertStartsWith(
        "s.sql:3:20: cannot parse the SELECT", error(prefix + "SELECT id FROM src WHERE;"));
    assertStartsWith(
        "s.sql:1:", error("CREATE TABLE t (a INT PRIMARY KEY) WITH ('connector'='filesystem');"));
    assertStartsWith("s.sql: the script has no INSERT INTO or SELECT", error(source()));
  }

  @Test
  void aStreamingSelectIsRefused() {
    String watched =
        "CREATE TABLE w (id INT) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("w")
            + "', 'format' = 'json', 'source.monitor-interval' = '1 s');\n";
    assertStartsWith(
        "s.sql:2:1: SELECT from a streaming table is not supported (`w` watches its directory",
        error(watched + "SELECT id FROM w;"));
  }
}
