package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line's parsing (picocli) and its usage errors: one line, exit code 2. */
class CliParsingTest {

  private static final RunnerPresets NO_PRESETS = new RunnerPresets(List.of());

  @Test
  void runTakesOptionsInBothForms() {
    assertEquals(
        List.of("--runner=DirectRunner"),
        CliRunner.pipelineArgs(
            NO_PRESETS,
            "run",
            "--from",
            "a.sql",
            "--to=b.sql",
            "--where",
            "dt='x'",
            "--runner",
            "DirectRunner"));
  }

  @Test
  void unknownLongOptionsArePipelineOptionsInOrder() {
    assertEquals(
        List.of(
            "--flinkMaster=host:8081", "--parallelism=4", "--fasterCopy", "--runner=FlinkRunner"),
        CliRunner.pipelineArgs(
            NO_PRESETS,
            "query",
            "t.sql",
            "--flinkMaster=host:8081",
            "--parallelism=4",
            "--fasterCopy",
            "--runner=FlinkRunner"));
  }

  @Test
  void verboseAndHelpAnywhere() {
    CliRunner help = CliRunner.run("query", "--help");
    assertEquals(0, help.exitCode, help.toString());
    assertTrue(help.out.startsWith("Usage: filetables query"), help.toString());
    CliRunner helpCommand = CliRunner.run("help", "compact");
    assertTrue(helpCommand.out.contains("Usage: filetables compact"), helpCommand.toString());
    assertTrue(helpCommand.out.contains("--target-size"), helpCommand.toString());
    CliRunner verbose = CliRunner.run("query", "--verbose", "no-such-table.sql");
    assertTrue(verbose.err.contains("\tat dev.filetables.pipelines."), verbose.toString());
  }

  @Test
  void countsAcceptSeparatorsAndSuffixes() {
    assertEquals(1_200_000L, Counts.parse("rows", "1_200_000", 1));
    assertEquals(1_200_000L, Counts.parse("rows", "1,200,000", 1));
    assertEquals(1_200_000L, Counts.parse("rows", "1.2m", 1));
    assertEquals(20_000L, Counts.parse("rows", "20k", 1));
    assertEquals(2_000_000L, Counts.parse("rows", "2M", 1));
    CliException bad = assertThrows(CliException.class, () -> Counts.parse("limit", "ten", 0));
    assertEquals(
        "--limit must be a whole number (e.g. 20000, 20k, 1.2M), not 'ten'", bad.getMessage());
    assertEquals(CliException.USAGE, bad.exitCode());
    assertThrows(
        CliException.class, () -> Counts.parse("rows", "1.5", 1), "a fraction needs a suffix");
    CliException small = assertThrows(CliException.class, () -> Counts.parse("rows", "0", 1));
    assertEquals("--rows must be at least 1, not 0", small.getMessage());
  }

  @Test
  void usageErrorsSayWhatIsWrong() {
    String commands = "run, query, sql, demo, compact, publish-leftovers, bench, job, help";
    assertUsage("unknown command 'copy'; commands: " + commands, "copy");
    assertUsage("expected a command (" + commands + ") before '--from'", "--from", "a.sql", "run");
    assertUsage(
        "Missing required parameter for option '--from' (<source.sql>) (see 'filetables help run')",
        "run",
        "--from");
    assertUsage("option --limit does not apply to 'demo'", "demo", "--limit", "3");
    assertUsage("'query' needs a table definition file (.sql)", "query", "--limit", "3");
    assertUsage(
        "unexpected argument 'x' for 'query' (pipeline options take the form --name=value)",
        "query",
        "t.sql",
        "x");
    assertUsage(
        "unknown option '-p' (options start with '--', e.g. --runner=DirectRunner)", "demo", "-p");
    assertUsage("'run' needs --to <value>", "run", "--from", "a.sql");
  }

  @Test
  void benchAndJobAreCommandsToo() {
    assertUsage(
        "unknown benchmark 'fastest'; benchmarks: batch, streaming, latency, compaction, watch,"
            + " kafka, s3-commit, storage, soak",
        "bench",
        "fastest");
    // a benchmark's own options: BenchCommandTest in benchmarks/ (the benchmarks are not on this
    // module's class path)
    assertUsage(
        "unknown job 'orders'; jobs: orders-stream (bin/filetables job orders-stream --output=DIR"
            + " [--preset=flink-cluster] [options])",
        "job",
        "orders");
  }

  private static void assertUsage(String message, String... args) {
    CliRunner result = CliRunner.run(args);
    assertEquals(CliException.USAGE, result.exitCode, result.toString());
    assertEquals("filetables: error: " + message + "\n", result.err, result.toString());
    assertEquals("", result.out, result.toString());
  }
}
