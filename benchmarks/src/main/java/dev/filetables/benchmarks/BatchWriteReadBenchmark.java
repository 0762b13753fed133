package dev.filetables.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.OrdersDataset;
import dev.filetables.pipelines.RunnerOptions;
import dev.filetables.pipelines.RunnerPresets;
import dev.filetables.transforms.FileTableIO;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Batch write and read benchmark: writes N demo orders ({@link OrdersDataset}, generated inside the
 * pipeline) into a dt/hour-partitioned Parquet (or ORC, ...) table (48 partitions), reads the table
 * back, and optionally writes the same rows with Beam's own {@code FileIO.writeDynamic +
 * ParquetIO.sink} for comparison. A runnable program, not a test:
 *
 * <pre>
 * bin/filetables bench batch --runner=both --baseline --repeat=3
 * </pre>
 *
 * <p>Options: {@code --rows=N} (default 2,000,000 on Flink; on Direct {@value #DIRECT_DEFAULT_ROWS}
 * unless {@code --rows} or {@code --direct-rows} is given: the Direct runner encodes and compares
 * every element before and after each step to check immutability and encodability, about 80% of its
 * CPU here), {@code --runner=FlinkRunner|DirectRunner|both} (default both), {@code --parallelism=2}
 * (Flink slots; Direct's target parallelism), {@code --output=./bench-output}, {@code --baseline},
 * {@code --objectReuse=true|false|both} (Flink; default: the {@code flink-local} preset's value),
 * {@code --directChecks=false} (Direct without those checks), {@code --steps=write,read} (a read
 * alone reads the table a previous run left in the output directory), {@code --repeat=N} (run each
 * step N times, report the fastest wall time and the least CPU time), {@code
 * --generator=slices|sequence} (see {@link BatchOrdersFn}), {@code --seed=42}, {@code
 * --formats=parquet} (the table's formats, e.g. {@code parquet,orc}: each is written and read in
 * turn, its table under {@code orders} for Parquet, {@code orders-<format>} for the others; the
 * {@code --baseline} writes Parquet with Beam's ParquetIO whatever the formats).
 *
 * <p>What is measured, per runner: the wall time of {@code run() + waitUntilFinish()} of each
 * pipeline, and the CPU time this JVM used meanwhile (all runners here run inside this JVM; CPU
 * time is the steadier figure on a shared machine). Every pipeline run on Flink {@code [local]}
 * starts and stops its own mini cluster, which costs seconds whatever the job; so an empty pipeline
 * (one element, one no-op step) is run first, twice (the first one also pays class loading), and
 * the second's wall time is reported as "start-up". "Job" time is wall minus start-up: the time the
 * data work took, comparable to a long-running cluster's job time. rows/s and MB/s (10^6 bytes of
 * Parquet written or read) are given for both. Files per partition are counted on disk.
 *
 * <p>The first run of a step in the JVM also compiles its code (JIT): {@code --repeat=3} gives the
 * warm figures. On a machine shared with other work, wall times follow the CPU share the benchmark
 * gets; compare CPU times then.
 */
public final class BatchWriteReadBenchmark {
  static final long DEFAULT_ROWS = 2_000_000;
  static final long DIRECT_DEFAULT_ROWS = 100_000;

  /** Slices of the generated rows: a few per worker, so the runner can spread them evenly. */
  static final int SLICES = 16;

  static final String MARKER = ".filetables-bench";
  private static final String METRICS_NAMESPACE = "filetables.bench";
  static final String ROWS_READ = "rows.read";

  private final Map<String, String> args;
  private final PrintStream out;
  private final List<Measurement> measurements = new ArrayList<>();
  private int repeat = 1;

  private BatchWriteReadBenchmark(Map<String, String> args, PrintStream out) {
    this.args = args;
    this.out = out;
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = parse(argv);
    new BatchWriteReadBenchmark(args, System.out).run();
  }

  private void run() throws Exception {
    int parallelism = (int) number("parallelism", 2);
    Path output = Path.of(args.getOrDefault("output", "bench-output")).toAbsolutePath().normalize();
    long seed = number("seed", 42);
    repeat = (int) Math.max(1, number("repeat", 1));
    Set<String> steps =
        new LinkedHashSet<>(List.of(args.getOrDefault("steps", "write,read").split(",")));
    if (args.containsKey("baseline")) {
      steps.add("baseline");
    }
    String runner = args.getOrDefault("runner", "both").toLowerCase(Locale.ROOT);
    prepareOutput(output);

    List<Variant> variants = new ArrayList<>();
    if (runner.equals("both") || runner.startsWith("flink")) {
      long rows = number("rows", DEFAULT_ROWS);
      String reuse = args.get("objectReuse");
      List<String> reuseValues =
          reuse == null
              ? List.of("")
              : reuse.equals("both") ? List.of("false", "true") : List.of(reuse);
      for (String value : reuseValues) {
        List<String> options = new ArrayList<>(RunnerPresets.standard().load("flink-local"));
        setOption(options, "--parallelism=" + parallelism);
        String name = "flink";
        if (!value.isEmpty()) {
          setOption(options, "--objectReuse=" + value);
          name = "flink-objectReuse-" + value;
        }
        variants.add(new Variant(name, rows, options));
      }
    }
    if (runner.equals("both") || runner.startsWith("direct")) {
      long rows = number("direct-rows", number("rows", DIRECT_DEFAULT_ROWS));
      List<String> options =
          new ArrayList<>(List.of("--runner=DirectRunner", "--targetParallelism=" + parallelism));
      String name = "direct";
      if (args.getOrDefault("directChecks", "true").equals("false")) {
        options.add("--enforceImmutability=false");
        options.add("--enforceEncodability=false");
        name = "direct-unchecked";
      }
      variants.add(new Variant(name, rows, options));
    }
    if (variants.isEmpty()) {
      throw new IllegalArgumentException(
          "--runner must be FlinkRunner, DirectRunner or both, got " + runner);
    }

    for (Variant variant : variants) {
      runVariant(variant, output.resolve(variant.name), steps, seed);
    }
    printTable();
  }

  /** Adds {@code --name=value}, replacing a preset's option of the same name. */
  private static void setOption(List<String> options, String option) {
    String prefix = option.substring(0, option.indexOf('=') + 1);
    options.removeIf(
        o -> o.startsWith(prefix) || o.equals(prefix.substring(0, prefix.length() - 1)));
    options.add(option);
  }

  /** A numeric option; {@code 2_000_000} is fine. */
  private long number(String key, long defaultValue) {
    String value = args.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + " needs a number, got '" + value + "'");
    }
  }

  private void runVariant(Variant variant, Path dir, Set<String> steps, long seed)
      throws Exception {
    PipelineOptions options = RunnerOptions.create(variant.options);
    String label = variant.name;
    out.println(
        "== "
            + label
            + ": "
            + RunnerOptions.describe(options)
            + ", "
            + variant.rows
            + " rows; "
            + String.join(" ", variant.options));
    Files.createDirectories(dir);

    time(label, "warm-up (empty)", emptyPipeline(options), 0, 0, null, null);
    long startupMillis =
        best(label, "start-up (empty)", 0, 0, () -> emptyPipeline(options), null, null).wallMillis;

    for (String format : args.getOrDefault("formats", "parquet").split(",")) {
      runFormat(options, variant, label, dir, steps, seed, startupMillis, format.trim());
    }
    if (steps.contains("baseline")) {
      Path baseline = dir.resolve("beam-fileio").resolve("orders");
      best(
          label,
          "write Beam FileIO",
          variant.rows,
          startupMillis,
          () -> {
            deleteTree(baseline.getParent());
            Files.createDirectories(baseline);
            Pipeline write = Pipeline.create(options);
            orders(write, variant.rows, seed)
                .apply("WriteOrders", new BatchBeamFileIOWrite(baseline.toString()));
            return write;
          },
          baseline,
          null);
    }
  }

  /** The write and read steps of one table format; Parquet keeps the step names it always had. */
  private void runFormat(
      PipelineOptions options,
      Variant variant,
      String label,
      Path dir,
      Set<String> steps,
      long seed,
      long startupMillis,
      String format)
      throws Exception {
    boolean parquet = format.equals("parquet");
    String suffix = parquet ? "" : " " + format;
    Path table = dir.resolve(parquet ? "orders" : "orders-" + format);
    TableSpec spec = DdlParser.parse(OrdersDataset.ddl(table.toString(), format));
    if (steps.contains("write")) {
      best(
          label,
          "write FileTables" + suffix,
          variant.rows,
          startupMillis,
          () -> {
            deleteTree(table);
            Pipeline write = Pipeline.create(options);
            orders(write, variant.rows, seed).apply("WriteOrders", FileTableIO.write(spec));
            return write;
          },
          table,
          null);
    }
    if (steps.contains("read")) {
      if (!Files.isDirectory(table)) {
        throw new IllegalStateException(
            "no table to read at " + table + ": run the write step first");
      }
      BatchTableStats stats = BatchTableStats.of(table);
      Measurement m =
          best(
              label,
              "read FileTables" + suffix,
              -1,
              startupMillis,
              () -> {
                Pipeline read = Pipeline.create(options);
                read.apply("ReadOrders", FileTableIO.read(spec))
                    .apply("CountRows", ParDo.of(new CountRowsFn()));
                return read;
              },
              null,
              stats);
      if (steps.contains("write") && m.rows != variant.rows) {
        out.println("WARNING: wrote " + variant.rows + " rows but read " + m.rows);
      }
    }
  }

  /** Builds a pipeline to run; may prepare its output first. */
  private interface PipelineBuilder {
    Pipeline build() throws IOException;
  }

  /**
   * Runs a step {@code --repeat} times and reports the fastest run's wall time and the least CPU
   * time.
   */
  private Measurement best(
      String runner,
      String step,
      long rows,
      long startupMillis,
      PipelineBuilder builder,
      Path written,
      BatchTableStats readStats)
      throws IOException {
    Measurement best = null;
    long leastCpu = Long.MAX_VALUE;
    for (int i = 0; i < repeat; i++) {
      Measurement m = time(runner, step, builder.build(), rows, startupMillis, written, readStats);
      leastCpu = Math.min(leastCpu, m.cpuMillis);
      if (best == null || m.wallMillis < best.wallMillis) {
        best = m;
      }
    }
    // the least CPU of any run: the first run of a step also pays for JIT compilation
    best =
        new Measurement(
            runner, step, best.rows, best.wallMillis, startupMillis, leastCpu, best.stats);
    measurements.add(best);
    return best;
  }

  /**
   * The orders, generated in parallel: by default from {@link #SLICES} slice numbers (a {@code
   * Create} the runner splits between its workers), with {@code --generator=sequence} one row per
   * {@code GenerateSequence} element as {@code filetables demo} does (see {@link BatchOrdersFn}).
   */
  private PCollection<Row> orders(Pipeline pipeline, long rows, long seed) {
    PCollection<Row> orders;
    if (args.getOrDefault("generator", "slices").equals("sequence")) {
      orders =
          pipeline
              .apply("OrderNumbers", GenerateSequence.from(0).to(rows))
              .apply("GenerateOrders", ParDo.of(BatchOrdersFn.perRow(rows, seed)));
    } else {
      List<Long> slices = LongStream.range(0, SLICES).boxed().collect(Collectors.toList());
      orders =
          pipeline
              .apply("Slices", Create.of(slices))
              .apply("GenerateOrders", ParDo.of(BatchOrdersFn.perSlice(rows, seed, SLICES)));
    }
    return orders.setRowSchema(OrdersDataset.SCHEMA);
  }

  /** One element through one no-op step: what any pipeline run costs on the runner. */
  static Pipeline emptyPipeline(PipelineOptions options) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply(Create.of(1L)).apply(ParDo.of(new NoOpFn()));
    return pipeline;
  }

  /**
   * Runs a pipeline to the end and records its figures.
   *
   * @param rows rows processed, or -1 to take the rows-read counter
   * @param written the directory whose files were written (null for none)
   * @param readStats the table that was read (null for none)
   */
  private Measurement time(
      String runner,
      String step,
      Pipeline pipeline,
      long rows,
      long startupMillis,
      Path written,
      BatchTableStats readStats)
      throws IOException {
    System.gc(); // garbage of the previous run should not be collected on this run's clock
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpuStart = os.getProcessCpuTime();
    long start = System.nanoTime();
    PipelineResult result = pipeline.run();
    PipelineResult.State state = result.waitUntilFinish();
    long wallMillis = (System.nanoTime() - start) / 1_000_000;
    long cpuMillis = (os.getProcessCpuTime() - cpuStart) / 1_000_000;
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException(step + " on " + runner + " ended in state " + state);
    }
    if (rows < 0) {
      rows = counter(result, ROWS_READ);
    }
    BatchTableStats stats = written != null ? BatchTableStats.of(written) : readStats;
    Measurement m =
        new Measurement(runner, step, rows, wallMillis, startupMillis, cpuMillis, stats);
    out.printf(
        Locale.ROOT,
        "   %-22s %6.2f s wall, %6.2f s CPU%s%n",
        step,
        wallMillis / 1000.0,
        cpuMillis / 1000.0,
        stats == null ? "" : ", " + stats.files + " files in " + stats.partitions + " partitions");
    return m;
  }

  private void printTable() {
    out.println();
    out.println(
        "Rows/s and MB/s (10^6 bytes of the table's files) per wall time and per job time (= wall - start-up);"
            + " CPU = this JVM's CPU seconds during the run (all threads: tasks, JIT, GC);"
            + " with --repeat: fastest wall, least CPU.");
    String header =
        String.format(
            Locale.ROOT,
            "%-28s %-22s %10s %7s %7s %7s %11s %11s %8s %8s %6s %6s  %s",
            "runner",
            "step",
            "rows",
            "wall s",
            "job s",
            "CPU s",
            "rows/s wall",
            "rows/s job",
            "MB/s wall",
            "MB/s job",
            "MB",
            "files",
            "files/partition");
    out.println(header);
    out.println("-".repeat(header.length()));
    for (Measurement m : measurements) {
      if (m.rows == 0) {
        out.printf(
            Locale.ROOT,
            "%-28s %-22s %10s %7.2f %7s %7.2f%n",
            m.runner,
            m.step,
            "-",
            m.wallMillis / 1000.0,
            "-",
            m.cpuMillis / 1000.0);
        continue;
      }
      long jobMillis = Math.max(1, m.wallMillis - m.startupMillis);
      double mb = m.stats == null ? 0 : m.stats.bytes / 1e6;
      out.printf(
          Locale.ROOT,
          "%-28s %-22s %10d %7.2f %7.2f %7.2f %11.0f %11.0f %8.1f %8.1f %6.1f %6d  %s%n",
          m.runner,
          m.step,
          m.rows,
          m.wallMillis / 1000.0,
          jobMillis / 1000.0,
          m.cpuMillis / 1000.0,
          m.rows * 1000.0 / m.wallMillis,
          m.rows * 1000.0 / jobMillis,
          mb * 1000 / m.wallMillis,
          mb * 1000 / jobMillis,
          mb,
          m.stats == null ? 0 : m.stats.files,
          m.stats == null ? "" : m.stats.filesPerPartition());
    }
    printRatios();
  }

  /** FileTables' write against the baseline's, per runner, by job time. */
  private void printRatios() {
    Map<String, Measurement> fileTables = new LinkedHashMap<>();
    Map<String, Measurement> beam = new LinkedHashMap<>();
    for (Measurement m : measurements) {
      if (m.step.equals("write FileTables")) {
        fileTables.put(m.runner, m);
      } else if (m.step.equals("write Beam FileIO")) {
        beam.put(m.runner, m);
      }
    }
    for (Map.Entry<String, Measurement> entry : fileTables.entrySet()) {
      Measurement b = beam.get(entry.getKey());
      if (b != null) {
        Measurement f = entry.getValue();
        out.printf(
            Locale.ROOT,
            "%s: FileTables writes %.2fx as fast as Beam FileIO by job time, %.2fx by wall time, %.2fx by CPU time%n",
            entry.getKey(),
            b.jobMillis() / (double) f.jobMillis(),
            b.wallMillis / (double) f.wallMillis,
            b.cpuMillis / (double) Math.max(1, f.cpuMillis));
      }
    }
  }

  static long counter(PipelineResult result, String name) {
    long total = 0;
    for (MetricResult<Long> c :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(METRICS_NAMESPACE, name))
                    .build())
            .getCounters()) {
      Long value = c.getAttempted();
      total += value == null ? 0 : value;
    }
    return total;
  }

  /**
   * Makes sure the output directory is ours before anything in it is deleted: new or empty, or
   * marked by an earlier run of this benchmark.
   */
  private static void prepareOutput(Path output) throws IOException {
    if (Files.exists(output)) {
      boolean empty;
      try (Stream<Path> entries = Files.list(output)) {
        empty = entries.findAny().isEmpty();
      }
      if (!empty && !Files.exists(output.resolve(MARKER))) {
        throw new IllegalArgumentException(
            output
                + " exists and is not a benchmark output directory (no "
                + MARKER
                + "); choose another --output");
      }
    }
    Files.createDirectories(output);
    if (!Files.exists(output.resolve(MARKER))) {
      Files.writeString(
          output.resolve(MARKER),
          "output of BatchWriteReadBenchmark; its runs delete what is here\n");
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }

  /** {@code --key=value}, {@code --key value} or {@code --flag}. */
  static Map<String, String> parse(String[] argv) {
    Set<String> known =
        Set.of(
            "rows",
            "direct-rows",
            "generator",
            "repeat",
            "directChecks",
            "runner",
            "parallelism",
            "output",
            "baseline",
            "objectReuse",
            "steps",
            "seed",
            "formats");
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i < argv.length; i++) {
      String arg = argv[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException(
            "unexpected argument '" + arg + "'; options are --" + String.join(", --", known));
      }
      String key = arg.substring(2);
      String value = "true";
      int eq = key.indexOf('=');
      if (eq >= 0) {
        value = key.substring(eq + 1);
        key = key.substring(0, eq);
      } else if (!key.equals("baseline") && i + 1 < argv.length) {
        value = argv[++i];
      }
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            "unknown option --" + key + "; options are --" + String.join(", --", known));
      }
      args.put(key, value);
    }
    return args;
  }

  private static final class Variant {
    final String name;
    final long rows;
    final List<String> options;

    Variant(String name, long rows, List<String> options) {
      this.name = name;
      this.rows = rows;
      this.options = options;
    }
  }

  private static final class Measurement {
    final String runner;
    final String step;
    final long rows;
    final long wallMillis;
    final long startupMillis;
    final long cpuMillis;
    final BatchTableStats stats;

    Measurement(
        String runner,
        String step,
        long rows,
        long wallMillis,
        long startupMillis,
        long cpuMillis,
        BatchTableStats stats) {
      this.runner = runner;
      this.step = step;
      this.rows = rows;
      this.wallMillis = wallMillis;
      this.startupMillis = startupMillis;
      this.cpuMillis = cpuMillis;
      this.stats = stats;
    }

    long jobMillis() {
      return Math.max(1, wallMillis - startupMillis);
    }
  }

  private static final class NoOpFn extends DoFn<Long, Long> {
    private static final long serialVersionUID = 1L;

    @ProcessElement
    public void process(@Element Long element, OutputReceiver<Long> out) {
      out.output(element);
    }
  }

  static final class CountRowsFn extends DoFn<Row, Void> {
    private static final long serialVersionUID = 1L;
    private final Counter rows = Metrics.counter(METRICS_NAMESPACE, ROWS_READ);

    @ProcessElement
    public void process(@Element Row row) {
      rows.inc();
    }
  }
}
