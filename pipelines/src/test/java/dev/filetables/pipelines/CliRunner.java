package dev.filetables.pipelines;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Runs the CLI in-process and captures what it prints. */
final class CliRunner {
  final int exitCode;
  final String out;
  final String err;

  private CliRunner(int exitCode, String out, String err) {
    this.exitCode = exitCode;
    this.out = out;
    this.err = err;
  }

  static CliRunner run(String... args) {
    return run(new RunnerPresets(List.of(Path.of("../runner-configs"))), args);
  }

  static CliRunner run(RunnerPresets presets, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = new FileTablesCli(presets, false).run(args, o, e);
    }
    return new CliRunner(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** The pipeline arguments a command line gives its command (parsed as the CLI parses it). */
  static List<String> pipelineArgs(RunnerPresets presets, String... args) {
    picocli.CommandLine.ParseResult parsed =
        FileTablesCli.commandLine(new FileTablesCli(presets, false)).parseArgs(args);
    RunnerArgs runner =
        (RunnerArgs) parsed.subcommand().commandSpec().mixins().get("runner").userObject();
    return RunnerOptions.effectiveArgs(runner, args[0], parsed.subcommand().unmatched(), presets);
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
  }
}
