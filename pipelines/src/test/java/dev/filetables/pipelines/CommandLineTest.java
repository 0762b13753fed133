package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CommandLineTest {

  @Test
  void runTakesOptionsInBothForms() {
    CommandLine line = CommandLine.parse("run", "--from", "a.sql", "--to=b.sql", "--where", "dt='x'");
    assertEquals(CommandLine.Command.RUN, line.command());
    assertEquals("a.sql", line.requiredOption("from"));
    assertEquals("b.sql", line.requiredOption("to"));
    assertEquals(Optional.of("dt='x'"), line.option("where"));
    assertEquals(List.of(), line.pipelineArgs());
  }

  @Test
  void unknownLongOptionsArePipelineOptionsInOrder() {
    CommandLine line =
        CommandLine.parse(
            "query", "t.sql", "--flinkMaster=host:8081", "--parallelism=4", "--fasterCopy", "--runner=FlinkRunner");
    assertEquals(List.of("t.sql"), line.positionals());
    assertEquals(List.of("--flinkMaster=host:8081", "--parallelism=4", "--fasterCopy"), line.pipelineArgs());
    assertEquals(Optional.of("FlinkRunner"), line.option("runner"));
  }

  @Test
  void verboseAndHelpAnywhere() {
    CommandLine line = CommandLine.parse("--verbose", "demo", "--rows", "10");
    assertTrue(line.verbose());
    assertEquals(CommandLine.Command.DEMO, line.command());
    assertEquals(Optional.of(10L), line.longOption("rows", 1));
    assertTrue(CommandLine.parse("query", "--help").help());
    assertEquals(CommandLine.Command.HELP, CommandLine.parse().command());
  }

  @Test
  void countsAcceptSeparatorsAndSuffixes() {
    assertEquals(1_200_000L, CommandLine.parseCount("rows", "1_200_000", 1));
    assertEquals(1_200_000L, CommandLine.parseCount("rows", "1,200,000", 1));
    assertEquals(20_000L, CommandLine.parseCount("rows", "20k", 1));
    assertEquals(2_000_000L, CommandLine.parseCount("rows", "2M", 1));
    CliException bad = assertThrows(CliException.class, () -> CommandLine.parseCount("limit", "ten", 0));
    assertEquals("--limit must be a whole number (e.g. 20000, 20k, 1M), not 'ten'", bad.getMessage());
    assertEquals(CliException.USAGE, bad.exitCode());
    CliException small = assertThrows(CliException.class, () -> CommandLine.parseCount("rows", "0", 1));
    assertEquals("--rows must be at least 1, not 0", small.getMessage());
  }

  @Test
  void usageErrorsSayWhatIsWrong() {
    assertUsage("unknown command 'copy'; commands: run, query, demo, compact, publish-leftovers, help", "copy");
    assertUsage("expected a command (run, query, demo, compact, publish-leftovers, help) before '--from'", "--from", "a.sql", "run");
    assertUsage("option --from needs a value", "run", "--from");
    assertUsage("option --from needs a value", "run", "--from", "--to=b.sql");
    assertUsage("option --limit does not apply to 'demo'", "demo", "--limit", "3");
    assertUsage("'query' needs a table definition file (.sql)", "query", "--limit", "3");
    assertUsage(
        "unexpected argument 'x' for 'query' (pipeline options take the form --name=value)",
        "query", "t.sql", "x");
    assertUsage(
        "unknown option '-p' (options start with '--', e.g. --runner=DirectRunner)", "demo", "-p");
  }

  @Test
  void missingRequiredOption() {
    CommandLine line = CommandLine.parse("run", "--from", "a.sql");
    CliException e = assertThrows(CliException.class, () -> line.requiredOption("to"));
    assertEquals("'run' needs --to <value>", e.getMessage());
    assertFalse(line.option("where").isPresent());
  }

  private static void assertUsage(String message, String... args) {
    CliException e = assertThrows(CliException.class, () -> CommandLine.parse(args));
    assertEquals(message, e.getMessage());
    assertEquals(CliException.USAGE, e.exitCode());
  }
}
