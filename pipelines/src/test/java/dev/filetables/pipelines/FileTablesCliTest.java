package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's contract for failures: a non-zero exit and exactly one line on stderr. */
class FileTablesCliTest {
  @TempDir Path dir;

  @Test
  void helpPrintsUsageToStdout() {
    for (String[] args : new String[][] {{"help"}, {"--help"}, {"query", "--help"}, {"-h"}}) {
      CliRunner result = CliRunner.run(args);
      assertEquals(0, result.exitCode, result.toString());
      assertTrue(result.out.startsWith("Usage: filetables"), result.toString());
      assertTrue(result.out.contains("Default: --preset=flink-local"), result.toString());
      assertEquals("", result.err);
    }
  }

  @Test
  void noCommandPrintsUsageToStderrAndFails() {
    CliRunner result = CliRunner.run();
    assertEquals(2, result.exitCode);
    assertEquals("", result.out);
    assertTrue(result.err.startsWith("Usage: filetables"));
  }

  @Test
  void unknownCommand() {
    assertOneLineError(
        CliRunner.run("copy", "a.sql"),
        2,
        "unknown command 'copy'; commands: run, query, sql, demo, compact, publish-leftovers, bench, job,"
            + " help");
  }

  @Test
  void missingTableDefinition() {
    assertOneLineError(
        CliRunner.run("query", "no-such-table.sql"),
        1,
        "table definition file not found: no-such-table.sql");
    assertOneLineError(
        CliRunner.run("run", "--from", "nope.sql", "--to", "nope2.sql"),
        1,
        "table definition file not found: nope.sql");
  }

  @Test
  void missingOption() {
    assertOneLineError(CliRunner.run("run", "--from", "a.sql"), 2, "'run' needs --to <value>");
  }

  @Test
  void unknownRunnerFailsBeforeAnythingHappens() {
    Path output = dir.resolve("out");
    assertOneLineError(
        CliRunner.run(
            "demo", "--rows", "10", "--output", output.toString(), "--runner=SparkRunner"),
        2,
        "unknown runner 'SparkRunner'; use --runner=DirectRunner or --runner=FlinkRunner");
    assertTrue(!Files.exists(output), "nothing written");
  }

  @Test
  void badFormatAndLimit() {
    assertOneLineError(
        CliRunner.run("query", "t.sql", "--format", "xml"),
        2,
        "unknown --format 'xml'; use jsonl or csv");
    assertOneLineError(
        CliRunner.run("query", "t.sql", "--limit", "-1"), 2, "--limit must be at least 0, not -1");
  }

  @Test
  void invalidPipelineOptionIsOneLine() {
    CliRunner result =
        CliRunner.run("demo", "--rows", "10", "--output", dir.toString(), "--noSuchOption=1");
    assertEquals(1, result.exitCode, result.toString());
    assertEquals(1, result.err.lines().count(), result.toString());
    assertTrue(
        result.err.startsWith("filetables: error: invalid pipeline option: "), result.toString());
  }

  @Test
  void refusesToDeleteSomethingThatIsNotADemoTable() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("orders"));
    Files.writeString(orders.resolve("thesis.tex"), "precious");
    assertOneLineError(
        CliRunner.run("demo", "--rows", "10", "--output", dir.toString(), "--runner=DirectRunner"),
        1,
        "refusing to delete "
            + orders.toAbsolutePath()
            + ": it holds 'thesis.tex', so it does not look like a demo table (remove it yourself or choose another --output)");
    assertTrue(Files.exists(orders.resolve("thesis.tex")));
  }

  @Test
  void verbosePrintsTheStackTrace() {
    CliRunner result = CliRunner.run("--verbose", "query", "no-such-table.sql");
    assertEquals(1, result.exitCode);
    assertTrue(
        result.err.startsWith(
            "filetables: error: table definition file not found: no-such-table.sql\n"));
    assertTrue(result.err.contains("\tat dev.filetables.pipelines."), result.err);
  }

  static void assertOneLineError(CliRunner result, int exitCode, String message) {
    assertEquals(exitCode, result.exitCode, result.toString());
    assertEquals("filetables: error: " + message + "\n", result.err, result.toString());
    assertEquals("", result.out, result.toString());
  }
}
