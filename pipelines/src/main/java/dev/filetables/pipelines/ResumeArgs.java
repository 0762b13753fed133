package dev.filetables.pipelines;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where a streaming {@code run} keeps its state between starts ({@code --state-dir}, default {@link
 * RunStateDir#defaultDir}) and whether to start over ({@code --fresh}).
 */
final class ResumeArgs {
  @Option(
      names = "--state-dir",
      paramLabel = "<dir>",
      description =
          "where a streaming run keeps its state between starts (default: ~/.filetables/runs/<sink>-<hash>)")
  private Path stateDir;

  @Option(
      names = "--fresh",
      description =
          "start a streaming run over: discard its state (checkpoints, hidden files of its write)")
  private boolean fresh;

  boolean fresh() {
    return fresh;
  }

  /** True when either option was given. */
  boolean given() {
    return stateDir != null || fresh;
  }

  /** The state directory: the given one, or the default for this sink and source. */
  Path stateDir(String sinkTable, String sinkPath, String source) {
    if (stateDir != null) {
      return stateDir;
    }
    return RunStateDir.defaultDir(
        Path.of(System.getProperty("user.home")), sinkTable, sinkPath, source);
  }

  /** Fails unless the run is a streaming run on Flink, the only kind that resumes. */
  void requireResumable(boolean streamingOnFlink, String why) {
    if (given() && !streamingOnFlink) {
      throw CliException.usage("--state-dir and --fresh apply only to " + why);
    }
  }
}
