package dev.filetables.pipelines;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bench <name> [--option=value ...]}: runs one of the benchmark programs, each a main class
 * with its own {@code --name=value} options (unknown ones are an error). Looked up by name: the
 * benchmarks live in their own module (benchmarks/, which depends on this one), and bin/filetables
 * runs the CLI on that module's class path.
 */
@Command(
    name = "bench",
    header = "Runs a benchmark.",
    description = {
      "Runs a benchmark and prints its figures (docs/benchmarks.md says what each measures and how to read it)."
    })
final class BenchCommand implements Callable<Integer> {
  /** Benchmark name → main class. */
  static final Map<String, String> BENCHMARKS = new LinkedHashMap<>();

  static {
    BENCHMARKS.put("batch", "dev.filetables.benchmarks.BatchWriteReadBenchmark");
    BENCHMARKS.put("streaming", "dev.filetables.benchmarks.StreamingSinkBenchmark");
    BENCHMARKS.put("latency", "dev.filetables.benchmarks.VisibilityLatencyBenchmark");
    BENCHMARKS.put("compaction", "dev.filetables.benchmarks.CompactionBenchmark");
    BENCHMARKS.put("watch", "dev.filetables.benchmarks.WatchBenchmark");
    BENCHMARKS.put("kafka", "dev.filetables.benchmarks.KafkaClusterBenchmark");
    BENCHMARKS.put("s3-commit", "dev.filetables.benchmarks.S3CommitProtocolBenchmark");
    BENCHMARKS.put("storage", "dev.filetables.benchmarks.StorageBenchmark");
    BENCHMARKS.put("soak", "dev.filetables.benchmarks.SoakBenchmark");
  }

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<benchmark>",
      description =
          "batch, streaming, latency, compaction, watch, kafka, s3-commit, storage or soak")
  private String name;

  @Parameters(
      index = "1..*",
      paramLabel = "--<option>=<value>",
      description = "the benchmark's own options")
  private List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    if (name == null || !BENCHMARKS.containsKey(name)) {
      throw CliException.usage(
          (name == null ? "'bench' needs a benchmark" : "unknown benchmark '" + name + "'")
              + "; benchmarks: "
              + String.join(", ", BENCHMARKS.keySet()));
    }
    MethodHandle main;
    try {
      main =
          MethodHandles.publicLookup()
              .findStatic(
                  Class.forName(BENCHMARKS.get(name)),
                  "main",
                  MethodType.methodType(void.class, String[].class));
    } catch (ClassNotFoundException e) {
      throw new CliException("the benchmarks are not on this class path (" + e.getMessage() + ")");
    }
    try {
      main.invoke((Object) args.toArray(new String[0]));
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
    return 0;
  }
}
