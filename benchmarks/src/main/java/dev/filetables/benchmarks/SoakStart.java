package dev.filetables.benchmarks;

import dev.filetables.testfixtures.CliProcess;
import dev.filetables.testfixtures.RunCheckpoints;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One start of the soak's {@code run} command: its process (the launcher's JVM, killed with its
 * children), when it started, and its job's checkpoints in the run's state directory.
 */
final class SoakStart {
  private final CliProcess cli;
  private final long startNanos;
  private final Path stateDir;
  private final Optional<String> earlierJob;

  private SoakStart(CliProcess cli, long startNanos, Path stateDir, Optional<String> earlierJob) {
    this.cli = cli;
    this.startNanos = startNanos;
    this.stateDir = stateDir;
    this.earlierJob = earlierJob;
  }

  static SoakStart start(List<String> command, Map<String, String> env, Path stateDir, Path log)
      throws IOException {
    Optional<String> earlier = RunCheckpoints.newestJob(stateDir);
    long now = System.nanoTime();
    return new SoakStart(CliProcess.startCommand(command, env, log), now, stateDir, earlier);
  }

  long startNanos() {
    return startNanos;
  }

  long elapsedMillis() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /** The checkpoints of this start's job; none before the job is recorded. */
  RunCheckpoints.Progress checkpoints() throws IOException {
    Optional<String> job =
        RunCheckpoints.newestJob(stateDir).filter(j -> !earlierJob.equals(Optional.of(j)));
    return job.isPresent()
        ? RunCheckpoints.of(stateDir, job.get())
        : new RunCheckpoints.Progress(0, 0);
  }

  /** Fails if the command ended by itself. */
  void checkAlive() throws IOException {
    if (!cli.isAlive()) {
      String[] lines = cli.output().strip().split("\\R");
      throw new IllegalStateException(
          "the run ended by itself after "
              + elapsedMillis()
              + " ms: "
              + String.join(
                  " | ", List.of(lines).subList(Math.max(0, lines.length - 5), lines.length)));
    }
  }

  /** How the command began: a new run, a resumed one, or one that found no complete checkpoint. */
  String began() throws IOException {
    String output = cli.output();
    if (output.contains("filetables: resuming the run")) {
      return "resumed";
    }
    if (output.contains("filetables: no complete checkpoint")) {
      return "from start";
    }
    return output.contains("filetables: a new run") ? "new" : "-";
  }

  /** {@code kill -9} of the JVM (and its children, if any). */
  void kill() throws InterruptedException {
    cli.kill();
  }

  /** SIGTERM, as Ctrl-C; returns the exit code. */
  int terminate() throws IOException, InterruptedException {
    cli.terminate();
    return cli.awaitExit(Duration.ofSeconds(120));
  }
}
