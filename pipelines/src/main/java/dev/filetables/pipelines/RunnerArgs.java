package dev.filetables.pipelines;

import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where a command's pipeline runs: {@code --runner}, {@code --preset} and every other {@code
 * --name=value}, which the command collects ({@code @Unmatched}: picocli does not take that from a
 * mixin) and which goes to Beam's {@code PipelineOptionsFactory} as is (so {@code
 * --flinkMaster=host:8081} or {@code --parallelism=4} work without the CLI knowing them; Beam
 * rejects what no runner knows, and the CLI prints that as one line).
 */
final class RunnerArgs {
  @Option(
      names = "--runner",
      paramLabel = "<runner>",
      description = "FlinkRunner or DirectRunner (default: the flink-local preset, embedded Flink)")
  String runner;

  @Option(
      names = "--preset",
      paramLabel = "<name>",
      description =
          "pipeline options from runner-configs/<name>.args (direct, flink-local, flink-cluster); explicit options win")
  String preset;

  /**
   * The command this mixin belongs to: its siblings' options are known to be FileTables', not
   * Beam's.
   */
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  Optional<String> runner() {
    return Optional.ofNullable(runner);
  }

  Optional<String> preset() {
    return Optional.ofNullable(preset);
  }

  /**
   * The pipeline options given, in order; anything else the parser did not take is a usage error
   * naming the command.
   */
  List<String> pipelineArgs(String commandName, List<String> unmatched) {
    for (String arg : unmatched) {
      if (arg.startsWith("--") && arg.length() > 2) {
        String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        if (isOptionOfAnotherCommand(name)) {
          throw CliException.usage("option " + name + " does not apply to '" + commandName + "'");
        }
        continue;
      }
      if (arg.startsWith("-") && arg.length() > 1) {
        throw CliException.usage(
            "unknown option '" + arg + "' (options start with '--', e.g. --runner=DirectRunner)");
      }
      throw CliException.usage(
          "unexpected argument '"
              + arg
              + "' for '"
              + commandName
              + "' (pipeline options take the form --name=value)");
    }
    return List.copyOf(unmatched);
  }

  private boolean isOptionOfAnotherCommand(String name) {
    if (this.command == null || this.command.parent() == null) {
      return false;
    }
    for (CommandLine sibling : this.command.parent().subcommands().values()) {
      if (sibling.getCommandSpec().findOption(name) != null) {
        return true;
      }
    }
    return false;
  }

  /** True when neither a runner nor a preset was given. */
  boolean none() {
    return runner == null && preset == null;
  }
}
