package dev.filetables.benchmarks;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.flink.api.common.JobID;

/**
 * Visibility latency of {@code FileTableIO.write} on the Flink runner (issue 3, points 5 and 8),
 * reproducing the published FileSink experiment: 10 rows/s, one writer, a checkpoint (commit) every
 * 2 s, JSON rows. A row's latency is the time its file became visible (the publishing rename,
 * watched every 50 ms) minus the time the source emitted it. Reports max and median for several
 * rolling configurations; rows still invisible when a run ends count with a lower bound (shown as
 * {@code ≥}).
 *
 * <p>Reference (issue 3): native FileSink, default policy max 120.4 s (median 60.5 s), tuned max
 * 12.3 s, roll on every checkpoint max 2.1 s with 15 files in 30 s. Target: the latency
 * configuration reaches max ≤ commit interval + 1 s.
 *
 * <pre>
 * java -cp ... dev.filetables.benchmarks.VisibilityLatencyBenchmark [--rate=10] [--seconds=60]
 *   [--grace-s=15] [--checkpoint-ms=2000] [--format=json] [--poll-ms=50] [--warmup-s=10]
 *   [--configs=defaults,size,tuned,latency] [--latency-interval=2 s]
 *   [--config=name:key=value;key=value ...] [--work-dir=/tmp/filetables-latency]
 *   [--finish-bundle-before-checkpointing=true]
 * </pre>
 *
 * Each configuration runs its own job for {@code seconds} of rows (the measured rows) plus up to
 * {@code grace-s} to let them become visible; then the job is cancelled, so nothing is published by
 * an end of input. Besides max and median over all measured rows, it shows the 99th percentile and
 * the max over rows emitted after {@code warmup-s} (a sink may need the first checkpoints to learn
 * when commits happen).
 */
public final class VisibilityLatencyBenchmark {
  static {
    // quiet Flink and Beam (slf4j-simple reads this once, before the first logger is created)
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  private final double rate;
  private final long seconds;
  private final long graceSeconds;
  private final long checkpointMillis;
  private final String format;
  private final long pollMillis;
  private final long warmupSeconds;
  private final boolean finishBundleBeforeCheckpointing;
  private final Path workDir;
  private final Map<String, Map<String, String>> configs = new LinkedHashMap<>();

  private VisibilityLatencyBenchmark(BenchArgs args) {
    rate = args.doubleValue("rate", 10);
    seconds = args.longValue("seconds", 60);
    graceSeconds = args.longValue("grace-s", 15);
    checkpointMillis = args.longValue("checkpoint-ms", 2_000);
    format = args.string("format", "json");
    pollMillis = args.longValue("poll-ms", 50);
    warmupSeconds = args.longValue("warmup-s", 10);
    finishBundleBeforeCheckpointing =
        Boolean.parseBoolean(args.string("finish-bundle-before-checkpointing", "true"));
    workDir =
        args.path("work-dir", Path.of(System.getProperty("java.io.tmpdir"), "filetables-latency"));
    String latencyInterval = args.string("latency-interval", "2 s");
    Map<String, Map<String, String>> presets = new LinkedHashMap<>();
    // Flink's defaults: 128 MB, rollover 30 min, inactivity 30 min, check every 1 min
    presets.put("defaults", Map.of());
    presets.put("size", rolling("60 s", "60 s", "10 s"));
    presets.put("tuned", rolling("10 s", "10 s", "1 s"));
    presets.put("latency", rolling(latencyInterval, latencyInterval, latencyInterval));
    for (String name : args.string("configs", "defaults,size,tuned,latency").split(",")) {
      if (!name.isBlank()) {
        Map<String, String> preset = presets.get(name.trim());
        if (preset == null) {
          throw new IllegalArgumentException(
              "Unknown preset '" + name + "'; presets: " + presets.keySet());
        }
        configs.put(name.trim(), preset);
      }
    }
    for (String custom : args.all("config")) {
      int colon = custom.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(
            "--config=name:key=value;key=value, got '" + custom + "'");
      }
      configs.put(
          custom.substring(0, colon),
          BenchJobs.keyValues(Arrays.asList(custom.substring(colon + 1).split(";"))));
    }
  }

  private static Map<String, String> rolling(String rollover, String inactivity, String check) {
    return Map.of(
        TableOptions.ROLLING_ROLLOVER_INTERVAL, rollover,
        TableOptions.ROLLING_INACTIVITY_INTERVAL, inactivity,
        TableOptions.ROLLING_CHECK_INTERVAL, check);
  }

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    VisibilityLatencyBenchmark bench = new VisibilityLatencyBenchmark(args);
    args.checkNoUnknown();
    BenchJobs.deleteRecursively(bench.workDir);
    Files.createDirectories(bench.workDir);
    List<String> lines = new ArrayList<>();
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(bench.workDir.resolve("flink"), 1)) {
      for (Map.Entry<String, Map<String, String>> config : bench.configs.entrySet()) {
        lines.add(bench.run(cluster, config.getKey(), config.getValue()));
      }
    }
    System.out.printf(
        "%nVisibility latency: %.0f rows/s, one writer, checkpoint every %d ms, %s, %d s of rows per configuration,"
            + " --finishBundleBeforeCheckpointing=%s%n",
        bench.rate,
        bench.checkpointMillis,
        bench.format,
        bench.seconds,
        bench.finishBundleBeforeCheckpointing);
    System.out.printf(
        "%-14s %10s %10s %10s %12s %9s %10s  %s%n",
        "config",
        "max",
        "median",
        "p99",
        "max after " + bench.warmupSeconds + "s",
        "visible",
        "files",
        "rolling options");
    lines.forEach(System.out::println);
    System.exit(0); // Flink leaves non-daemon threads behind
  }

  private String run(LocalFlinkCluster cluster, String name, Map<String, String> options)
      throws Exception {
    TableSpec table =
        Orders.table("latency_" + name, workDir.resolve(name).toString(), format, options);
    long measuredRows = Math.round(rate * seconds);
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, true);
    // endless: an end of input would publish everything and hide the policy's latency
    OrdersSource source =
        OrdersSource.of(Orders.withPartitions(1)).withRowsPerSecond(rate).withEmitLog(logId);
    FlinkPipelineOptions flink =
        BenchJobs.options(cluster, "latency-" + name + "-" + logId, 1, checkpointMillis);
    // bundles end before the checkpoint barrier: files closed at a checkpoint are published by it
    flink.setFinishBundleBeforeCheckpointing(finishBundleBeforeCheckpointing);
    System.out.printf("%n[%s] %s: %d rows at %.0f rows/s%n", name, options, measuredRows, rate);
    long ended;
    VisibilityWatcher watcher = VisibilityWatcher.start(table, pollMillis, true);
    try {
      JobID job = cluster.submit(BenchJobs.writePipeline(flink, source, table));
      long deadline = System.nanoTime() + Duration.ofSeconds(seconds + 120).toNanos();
      while (log.emissions() < measuredRows && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      long graceEnd = System.nanoTime() + Duration.ofSeconds(graceSeconds).toNanos();
      while (System.nanoTime() < graceEnd && !allVisible(watcher, measuredRows)) {
        Thread.sleep(100);
      }
      cluster.cancel(job);
      ended = System.currentTimeMillis();
    } finally {
      watcher.close();
      EmitLog.remove(logId);
    }

    Map<Long, Long> emitted = log.firstEmissionByRow();
    Map<Long, Long> visible = watcher.rowVisibleMillis();
    long[] latencies = new long[(int) measuredRows];
    boolean[] lowerBound = new boolean[(int) measuredRows];
    int visibleCount = 0;
    for (int id = 0; id < measuredRows; id++) {
      Long emittedAt = emitted.get((long) id);
      Long visibleAt = visible.get((long) id);
      if (emittedAt == null) {
        throw new IllegalStateException("row " + id + " was never emitted");
      }
      if (visibleAt != null) {
        latencies[id] = visibleAt - emittedAt;
        visibleCount++;
      } else {
        latencies[id] = ended - emittedAt;
        lowerBound[id] = true;
      }
    }
    Integer[] order = new Integer[latencies.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(latencies[a], latencies[b]));
    int maxIndex = order[order.length - 1];
    int medianIndex = order[order.length / 2];
    int p99Index = order[(int) Math.min(order.length - 1, Math.ceil(order.length * 0.99) - 1)];
    long warmupEnd = log.firstMillis() + warmupSeconds * 1000;
    int steadyMaxIndex = -1;
    for (int id = 0; id < latencies.length; id++) {
      if (emitted.get((long) id) >= warmupEnd
          && (steadyMaxIndex < 0 || latencies[id] > latencies[steadyMaxIndex])) {
        steadyMaxIndex = id;
      }
    }
    StringBuilder worst = new StringBuilder();
    for (int k = order.length - 1; k >= Math.max(0, order.length - 5); k--) {
      int id = order[k];
      worst.append(
          String.format(
              " row %d (emitted at +%.1f s): %s;",
              id,
              (emitted.get((long) id) - log.firstMillis()) / 1000.0,
              BenchJobs.seconds(latencies[id])));
    }
    System.out.println("  slowest:" + worst);
    long windowStart = log.firstMillis();
    long windowEnd = windowStart + seconds * 1000;
    long filesInWindow =
        watcher.fileVisibleMillis().values().stream()
            .filter(t -> t >= windowStart && t <= windowEnd)
            .count();
    String line =
        String.format(
            "%-14s %10s %10s %10s %12s %9s %10s  %s",
            name,
            (lowerBound[maxIndex] ? "≥ " : "") + BenchJobs.seconds(latencies[maxIndex]),
            (lowerBound[medianIndex] ? "≥ " : "") + BenchJobs.seconds(latencies[medianIndex]),
            (lowerBound[p99Index] ? "≥ " : "") + BenchJobs.seconds(latencies[p99Index]),
            steadyMaxIndex < 0
                ? "-"
                : (lowerBound[steadyMaxIndex] ? "≥ " : "")
                    + BenchJobs.seconds(latencies[steadyMaxIndex]),
            visibleCount + "/" + measuredRows,
            filesInWindow + "/" + seconds + "s",
            options.isEmpty() ? "(Flink defaults)" : options.toString());
    System.out.println(line);
    return line;
  }

  private static boolean allVisible(VisibilityWatcher watcher, long rows) {
    Map<Long, Long> visible = watcher.rowVisibleMillis();
    if (visible.size() < rows) {
      return false;
    }
    for (long id = 0; id < rows; id++) {
      if (!visible.containsKey(id)) {
        return false;
      }
    }
    return true;
  }
}
