package dev.filetables.benchmarks;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.Durations;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.source.watch.WatchDiagnostics;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;
import org.apache.flink.api.common.JobID;

/**
 * The watched source, measured (issue 5, point 7): {@code bin/filetables bench watch
 * [--modes=state,listing,latency,throughput] [--rows=1000000] [--intervals=1000,5000] [--files=8]
 * [--parallelism=2] [--shards=4] [--work-dir=...]}; intervals are durations such as {@code 5 s}, a
 * plain number is milliseconds.
 *
 * <ul>
 *   <li>{@code state}: encoded size of a shard's restriction (what each checkpoint holds) after 100
 *       000 and 1 000 000 simulated file arrivals, with the default lateness of 10 min.
 *   <li>{@code listing}: time of one poll of 10 000 files in 500 hourly partitions, with and
 *       without skipping committed partitions.
 *   <li>{@code latency}: file placed (atomic rename) → first row emitted, on Flink [local], per
 *       monitor interval.
 *   <li>{@code throughput}: rows/s reading the same JSON and Parquet files with the bounded scan
 *       and with the watched source, on Flink [local] (job submit → last row counted).
 * </ul>
 *
 * Run it alone ({@code flock /work/wt/bench.lock ...} on a shared machine): the figures are times.
 */
public final class WatchBenchmark {
  private static final Map<String, Long> FIRST_ROW_MILLIS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicLong> ROWS = new ConcurrentHashMap<>();

  /** Rows counted by each instance (one per subtask) of {@link FirstRowFn}, per run. */
  private static final Map<String, List<AtomicLong>> ROWS_PER_INSTANCE = new ConcurrentHashMap<>();

  /** Watcher shards of the watched reads ({@code --shards}). */
  private static int shards;

  private WatchBenchmark() {}

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    List<String> modes =
        List.of(args.string("modes", "state,listing,latency,throughput").split(","));
    long rows = args.longValue("rows", 1_000_000);
    List<String> intervals = List.of(args.string("intervals", "1000,5000").split(","));
    int latencyFiles = args.intValue("files", 8);
    int parallelism = args.intValue("parallelism", 2);
    shards =
        args.intValue("shards", dev.filetables.transforms.source.watch.WatchedRead.DEFAULT_SHARDS);
    Path work = args.path("work-dir", Files.createTempDirectory("watch-bench"));
    args.checkNoUnknown();
    System.out.println(
        "Watched source benchmark; work dir "
            + work
            + "; "
            + Runtime.getRuntime().availableProcessors()
            + " cores");
    if (modes.contains("state")) {
      state(work);
    }
    if (modes.contains("listing")) {
      listing(work);
    }
    if (modes.contains("latency") || modes.contains("throughput")) {
      try (LocalFlinkCluster cluster =
          LocalFlinkCluster.start(work.resolve("flink"), 2 * parallelism)) {
        if (modes.contains("latency")) {
          for (String interval : intervals) {
            // a duration in the table options' forms; a plain number is milliseconds
            long millis = Durations.parse(interval).toMillis();
            latency(cluster, work, millis, latencyFiles, parallelism);
          }
        }
        if (modes.contains("throughput")) {
          for (String format : List.of("json", "parquet")) {
            throughput(cluster, work, format, rows, parallelism);
          }
        }
      }
    }
  }

  private static TableSpec logs(Path root, String format, String extraOptions) {
    return DdlParser.parse(
        "CREATE TABLE logs (id BIGINT NOT NULL, name STRING, amount DOUBLE, ts TIMESTAMP(3),"
            + " `file.path` STRING NOT NULL METADATA VIRTUAL, dt STRING, `hour` STRING)"
            + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
            + root
            + "', 'format' = '"
            + format
            + "'"
            + extraOptions
            + ")");
  }

  // ---- state ----

  private static void state(Path work) throws Exception {
    TableSpec table = logs(work.resolve("sim"), "json", ", 'source.monitor-interval' = '10 s'");
    System.out.println();
    System.out.println(
        "| simulated files | arrival rate | files in the 10 min window | restriction at end | max after a poll |");
    System.out.println("|---|---|---|---|---|");
    for (long files : new long[] {100_000, 1_000_000}) {
      for (double rate : new double[] {10, 100}) {
        WatchDiagnostics.StateSize size =
            WatchDiagnostics.simulateArrivals(table, files, rate, 10_000);
        System.out.printf(
            "| %,d | %.0f files/s | %,d | %,d bytes | %,d bytes |%n",
            files, rate, size.seenEntries, size.finalBytes, size.maxBytes);
      }
    }
  }

  // ---- listing ----

  private static void listing(Path work) throws Exception {
    Path root = work.resolve("listing");
    long old = System.currentTimeMillis() - 3_600_000;
    int partitions = 500;
    int filesPer = 20;
    for (int p = 0; p < partitions; p++) {
      Path dir =
          root.resolve("dt=2020-05-" + (10 + p / 24))
              .resolve("hour=" + String.format("%02d", p % 24));
      Files.createDirectories(dir);
      for (int f = 0; f < filesPer; f++) {
        Path file = dir.resolve("part-" + f + ".json");
        Files.writeString(file, "{\"id\": " + f + "}\n");
        Files.setLastModifiedTime(file, FileTime.fromMillis(old));
      }
      Path success = dir.resolve("_SUCCESS");
      Files.writeString(success, "");
      Files.setLastModifiedTime(success, FileTime.fromMillis(old));
    }
    System.out.println();
    System.out.println(
        "| 10 000 files in 500 partitions | files listed per poll | time per poll (one shard) | restriction |");
    System.out.println("|---|---|---|---|");
    for (boolean skip : new boolean[] {false, true}) {
      TableSpec table =
          logs(
              root,
              "json",
              ", 'source.monitor-interval' = '10 s', 'source.monitor.skip-committed-partitions' = '"
                  + skip
                  + "'");
      WatchDiagnostics.timePolls(table, 1, 3); // warm-up (JIT, directory cache)
      WatchDiagnostics.PollCost cost = WatchDiagnostics.timePolls(table, 1, 20);
      System.out.printf(
          "| %s | %,d | %.1f ms | %,d bytes |%n",
          skip ? "committed partitions skipped" : "every partition listed",
          cost.filesListed,
          cost.millisPerPoll,
          cost.restrictionBytes);
    }
  }

  // ---- latency ----

  /** Records when the first row of each file was emitted. */
  static final class FirstRowFn extends DoFn<Row, Void> {
    private final String run;

    FirstRowFn(String run) {
      this.run = run;
    }

    private transient AtomicLong total;
    private transient AtomicLong mine;
    private transient String lastPath;

    @Setup
    public void setup() {
      total = ROWS.computeIfAbsent(run, r -> new AtomicLong());
      mine = new AtomicLong();
      ROWS_PER_INSTANCE
          .computeIfAbsent(run, r -> new java.util.concurrent.CopyOnWriteArrayList<>())
          .add(mine);
    }

    @ProcessElement
    public void process(@Element Row row) {
      // cheap per row (the figures are the reader's, not this counter's): a map update only when
      // the file changes (the path is the same String for every row of a range)
      String path = row.getString("file.path");
      if (path != lastPath) {
        lastPath = path;
        FIRST_ROW_MILLIS.putIfAbsent(run + path, System.currentTimeMillis());
      }
      mine.lazySet(mine.get() + 1);
      total.incrementAndGet();
    }
  }

  private static FlinkPipelineOptions options(
      LocalFlinkCluster cluster, String name, int parallelism) {
    FlinkPipelineOptions options =
        BenchJobs.options(cluster, name + "-" + System.nanoTime(), parallelism, 10_000);
    options.setObjectReuse(true);
    return options;
  }

  private static void latency(
      LocalFlinkCluster cluster, Path work, long intervalMillis, int files, int parallelism)
      throws Exception {
    Path root = work.resolve("latency-" + intervalMillis);
    Files.createDirectories(root);
    TableSpec table =
        logs(root, "json", ", 'source.monitor-interval' = '" + intervalMillis + " ms'");
    String run = "latency-" + intervalMillis + "-";
    Pipeline pipeline = Pipeline.create(options(cluster, "watch-latency", parallelism));
    pipeline.apply(FileTableIO.read(table)).apply(ParDo.of(new FirstRowFn(run)));
    JobID job = cluster.submit(pipeline);
    cluster.awaitAllTasksRunning(job, java.time.Duration.ofSeconds(60));
    Thread.sleep(2 * intervalMillis + 1000); // first polls done
    Random random = new Random(7);
    List<Long> latencies = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Thread.sleep((long) (intervalMillis * (0.3 + random.nextDouble())));
      Path dir = root.resolve("dt=2020-05-20/hour=" + String.format("%02d", i));
      Files.createDirectories(dir);
      Path target = dir.resolve("f" + i + ".json");
      Path hidden = dir.resolve(".f" + i + ".json.inprogress");
      Files.writeString(
          hidden,
          "{\"id\": "
              + i
              + ", \"name\": \"n\", \"amount\": 1.5, \"ts\": \"2020-05-20 10:00:00.000\"}\n");
      Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
      long placed = System.currentTimeMillis();
      String key = run + target.toAbsolutePath();
      long deadline = placed + intervalMillis * 4 + 30_000;
      while (!FIRST_ROW_MILLIS.containsKey(key) && System.currentTimeMillis() < deadline) {
        Thread.sleep(5);
      }
      Long first = FIRST_ROW_MILLIS.get(key);
      latencies.add(first == null ? -1 : first - placed);
    }
    cluster.cancel(job);
    latencies.sort(Long::compare);
    long max = latencies.get(latencies.size() - 1);
    long median = latencies.get(latencies.size() / 2);
    System.out.println();
    System.out.printf(
        "Discovery latency, monitor interval %d ms, %d files: median %d ms, max %d ms (target <= %d ms) %s%n",
        intervalMillis, files, median, max, intervalMillis + 1000, latencies);
  }

  // ---- throughput ----

  private static void generate(TableSpec table, long rows, int files) throws Exception {
    var format = FileFormats.of(table.options());
    long perFile = rows / files;
    LocalDateTime t0 = LocalDateTime.of(2020, 5, 20, 0, 0);
    long id = 0;
    for (int f = 0; f < files; f++) {
      Path dir =
          table
              .options()
              .rootPath()
              .resolve("dt=2020-05-20")
              .resolve("hour=" + String.format("%02d", f % 4));
      Files.createDirectories(dir);
      Path file = dir.resolve("part-" + f + format.extension());
      try (OutputStream out = Files.newOutputStream(file);
          RowWriter writer = format.createWriter(out, table.fileSchema())) {
        long end = f == files - 1 ? rows : id + perFile;
        for (; id < end; id++) {
          writer.write(
              Row.withSchema(table.fileSchema())
                  .attachValues(id, "name " + (id % 1000), id * 0.25, t0.plusSeconds(id % 86_400)));
        }
      }
    }
  }

  private static double timeRead(
      LocalFlinkCluster cluster, TableSpec table, long rows, String run, int parallelism)
      throws Exception {
    Pipeline pipeline = Pipeline.create(options(cluster, "watch-" + run, parallelism));
    pipeline
        .apply(FileTableIO.read(table).withWatchShards(shards))
        .apply(ParDo.of(new FirstRowFn(run)));
    long cpuStart = processCpuNanos();
    long start = System.nanoTime();
    JobID job = cluster.submit(pipeline);
    while (ROWS.getOrDefault(run, new AtomicLong()).get() < rows) {
      if (cluster.status(job).isGloballyTerminalState()
          && ROWS.getOrDefault(run, new AtomicLong()).get() < rows) {
        throw new IllegalStateException(
            run + " ended with " + ROWS.get(run) + " of " + rows + " rows");
      }
      Thread.sleep(10);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = (processCpuNanos() - cpuStart) / 1e9;
    if (!cluster.status(job).isGloballyTerminalState()) {
      cluster.cancel(job);
    }
    List<Long> perSubtask = new ArrayList<>();
    ROWS_PER_INSTANCE.getOrDefault(run, List.of()).forEach(n -> perSubtask.add(n.get()));
    System.out.printf(
        "  %s: %.2f s, JVM CPU %.1f s, rows per subtask %s%n", run, seconds, cpu, perSubtask);
    return seconds;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void throughput(
      LocalFlinkCluster cluster, Path work, String format, long rows, int parallelism)
      throws Exception {
    Path root = work.resolve("throughput-" + format);
    TableSpec bounded = logs(root, format, "");
    generate(bounded, rows, 16);
    TableSpec watched = logs(root, format, ", 'source.monitor-interval' = '1 s'");
    timeRead(cluster, bounded, rows, "warmup-" + format, parallelism); // JIT and class loading
    double scan = timeRead(cluster, bounded, rows, "bounded-" + format, parallelism);
    double watch = timeRead(cluster, watched, rows, "watched-" + format, parallelism);
    System.out.println();
    System.out.printf(
        "%s, %,d rows in 16 files, parallelism %d: bounded scan %.1f s (%,.0f rows/s), watched source %.1f s (%,.0f rows/s), ratio %.2f%n",
        format, rows, parallelism, scan, rows / scan, watch, rows / watch, scan / watch);
  }
}
