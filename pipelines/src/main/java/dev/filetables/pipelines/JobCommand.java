package dev.filetables.pipelines;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code job orders-stream [--option=value ...]}: runs a job's main class, as a Flink cluster's
 * {@code flink run} would, with the CLI's default runner (the embedded {@code flink-local} preset)
 * unless a preset or runner is given. (The job's own main loads no preset: under {@code flink run}
 * that would start a mini cluster in the client.)
 */
@Command(
    name = "job",
    header = "Runs a packaged job (orders-stream).",
    description = {
      "Runs a packaged job: orders-stream writes synthetic orders (a replayable source) into a dt/hour Parquet"
          + " table with partition commits; --rows=0 is endless. On a session cluster: --preset=flink-cluster"
          + " --attachedMode=false (returns once submitted)."
    })
final class JobCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "<job>", description = "orders-stream")
  private String name;

  @Parameters(
      index = "1..*",
      paramLabel = "--<option>=<value>",
      description =
          "the job's options (--output=DIR, --rows, --rowsPerSecond, ...) and Beam/Flink's")
  private List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    if (!"orders-stream".equals(name)) {
      throw CliException.usage(
          (name == null ? "'job' needs a job name" : "unknown job '" + name + "'")
              + "; jobs: orders-stream (bin/filetables job orders-stream --output=DIR [--preset=flink-cluster] [options])");
    }
    List<String> jobArgs = new ArrayList<>();
    if (args.stream().noneMatch(a -> a.startsWith("--preset=") || a.startsWith("--runner="))) {
      jobArgs.add("--preset=" + RunnerOptions.DEFAULT_PRESET);
    }
    jobArgs.addAll(args);
    OrdersStreamJob.run(jobArgs.toArray(new String[0]));
    return 0;
  }
}
