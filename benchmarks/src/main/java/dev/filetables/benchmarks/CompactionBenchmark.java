package dev.filetables.benchmarks;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.transforms.FileTableIO;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;

/**
 * What streaming auto-compaction costs and gives (issue 6, point 5): the same streaming job as
 * {@link StreamingSinkBenchmark} (2 M orders, 48 hourly partitions, EXACTLY_ONCE checkpoints every
 * 2 s, local Flink, parallelism 2) with files rolled at every commit point (rollover = inactivity =
 * check = 2 s), once without and once with {@code auto-compaction}, for JSON and Parquet: job time,
 * rows/s and files per partition. Then the merge itself: the small files of the uncompacted run,
 * per partition, merged with the format's merger (byte concatenation for JSON, row-group copy for
 * Parquet) next to a plain copy of the same bytes into one file, in MB/s of input.
 *
 * <pre>
 * bin/filetables bench compaction [--rows=2000000] [--partitions=48] [--formats=json,parquet]
 *   [--checkpoint-ms=2000] [--parallelism=2] [--max-delay=10 s] [--repeat=3] [--work-dir=...]
 * </pre>
 */
public final class CompactionBenchmark {
  static {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  private final long rows;
  private final int partitions;
  private final List<String> formats;
  private final long checkpointMillis;
  private final int parallelism;
  private final String maxDelay;
  private final int repeat;
  private final Path workDir;
  private final Duration timeout = Duration.ofMinutes(10);

  private CompactionBenchmark(BenchArgs args) {
    rows = args.longValue("rows", 2_000_000);
    partitions = args.intValue("partitions", 48);
    formats = List.of(args.string("formats", "json,parquet").split(","));
    checkpointMillis = args.longValue("checkpoint-ms", 2_000);
    parallelism = args.intValue("parallelism", 2);
    maxDelay = args.string("max-delay", "10 s");
    repeat = args.intValue("repeat", 3);
    workDir =
        args.path(
            "work-dir",
            Path.of(System.getProperty("java.io.tmpdir"), "filetables-bench-compaction"));
  }

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    CompactionBenchmark bench = new CompactionBenchmark(args);
    args.checkNoUnknown();
    BenchJobs.deleteRecursively(bench.workDir);
    Files.createDirectories(bench.workDir);
    List<String> summary = new ArrayList<>();
    summary.add(
        "| format | compaction | job time | rows/s | files | per partition (min/avg/max) | bytes |");
    summary.add("|---|---|---|---|---|---|---|");
    List<String> merges = new ArrayList<>();
    merges.add(
        "| format | files merged | input | merge (format merger) | plain copy of the same bytes |");
    merges.add("|---|---|---|---|---|");
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(bench.workDir.resolve("flink"), bench.parallelism)) {
      for (String format : bench.formats) {
        TableSpec off = bench.table(format + "_off", format, false);
        summary.add(bench.run(cluster, off, format, "off"));
        summary.add(bench.run(cluster, bench.table(format + "_on", format, true), format, "on"));
        merges.add(bench.mergeThroughput(off, format));
      }
    }
    System.out.println();
    System.out.printf(
        "%,d rows, %d partitions, checkpoints every %d ms, parallelism %d; rolling 2 s; compaction:"
            + " compaction.file-size 128MB, compaction.max-delay %s%n",
        bench.rows, bench.partitions, bench.checkpointMillis, bench.parallelism, bench.maxDelay);
    summary.forEach(System.out::println);
    System.out.println();
    System.out.printf(
        "Merge throughput (per partition, best of %d, page cache warm)%n", bench.repeat);
    merges.forEach(System.out::println);
    System.exit(0); // Flink leaves non-daemon threads behind
  }

  private TableSpec table(String name, String format, boolean compaction) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(TableOptions.ROLLING_ROLLOVER_INTERVAL, "2 s");
    options.put(TableOptions.ROLLING_INACTIVITY_INTERVAL, "2 s");
    options.put(TableOptions.ROLLING_CHECK_INTERVAL, "2 s");
    if (compaction) {
      options.put(TableOptions.AUTO_COMPACTION, "true");
      options.put(TableOptions.COMPACTION_MAX_DELAY, maxDelay);
    }
    return Orders.table(name, workDir.resolve(name).toString(), format, options);
  }

  private String run(LocalFlinkCluster cluster, TableSpec table, String format, String compaction)
      throws Exception {
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    OrdersSource source =
        OrdersSource.of(Orders.withPartitions(partitions)).withTotalRows(rows).withEmitLog(logId);
    FlinkPipelineOptions options =
        BenchJobs.options(cluster, table.name() + "-" + logId, parallelism, checkpointMillis);
    System.out.printf("running %s, compaction %s ...%n", format, compaction);
    try (VisibilityWatcher watcher = VisibilityWatcher.start(table, 100, false)) {
      JobID job =
          cluster.submit(BenchJobs.writePipeline(options, source, FileTableIO.write(table)));
      awaitEnd(cluster, job, log, table);
      watcher.close();
      long jobMillis = watcher.lastNewFileMillis() - log.firstMillis();
      TableContents contents = TableContents.scan(table);
      IntSummaryStatistics perPartition =
          contents.filesPerPartition().values().stream()
              .mapToInt(Integer::intValue)
              .summaryStatistics();
      String mismatch = contents.rowCount() == rows ? "" : " (ROWS " + contents.rowCount() + "!)";
      return String.format(
          "| %s | %s | %s | %,.0f%s | %d | %d / %.1f / %d | %s |",
          format,
          compaction,
          BenchJobs.seconds(jobMillis),
          rows * 1000.0 / jobMillis,
          mismatch,
          contents.files().size(),
          perPartition.getMin(),
          perPartition.getAverage(),
          perPartition.getMax(),
          BenchJobs.megabytes(contents.bytes()));
    } finally {
      EmitLog.remove(logId);
    }
  }

  private void awaitEnd(LocalFlinkCluster cluster, JobID job, EmitLog log, TableSpec table)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long lastCount = -1;
    long quietSince = -1;
    while (System.nanoTime() < deadline) {
      JobStatus status = cluster.status(job);
      if (status.isGloballyTerminalState()) {
        if (status != JobStatus.FINISHED) {
          throw new IllegalStateException("Job " + job + " ended " + status);
        }
        return;
      }
      if (log.emissions() >= rows) {
        long count = TableContents.scan(table).rowCount();
        if (count >= rows && count == lastCount) {
          if (quietSince < 0) {
            quietSince = System.nanoTime();
          } else if (System.nanoTime() - quietSince > 3 * checkpointMillis * 1_000_000L) {
            cluster.cancel(job);
            return;
          }
        } else {
          quietSince = -1;
        }
        lastCount = count;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("Job " + job + " did not end within " + timeout);
  }

  /** Merges each partition's small files of the uncompacted run, and copies the same bytes. */
  private String mergeThroughput(TableSpec table, String format) throws IOException {
    FileMerger merger = FileMergers.of(FileFormats.of(table.options()), table.fileSchema());
    Map<String, List<Path>> byPartition =
        TableContents.scan(table).files().stream()
            .filter(f -> !CompactedFileName.isCompacted(f.path().getFileName().toString()))
            .collect(
                Collectors.groupingBy(
                    TableContents.VisibleFile::partitionPath,
                    LinkedHashMap::new,
                    Collectors.mapping(TableContents.VisibleFile::path, Collectors.toList())));
    long bytes = 0;
    int files = 0;
    for (List<Path> inputs : byPartition.values()) {
      files += inputs.size();
      for (Path input : inputs) {
        bytes += Files.size(input);
      }
    }
    Path out = workDir.resolve("merge-out");
    long bestMerge = Long.MAX_VALUE;
    long bestCopy = Long.MAX_VALUE;
    for (int i = 0; i < repeat; i++) {
      long start = System.nanoTime();
      for (List<Path> inputs : byPartition.values()) {
        try (OutputStream target = Files.newOutputStream(out)) {
          merger.merge(inputs, target);
        }
      }
      bestMerge = Math.min(bestMerge, System.nanoTime() - start);
      start = System.nanoTime();
      for (List<Path> inputs : byPartition.values()) {
        try (OutputStream target =
            new BufferedOutputStream(Files.newOutputStream(out), 64 * 1024)) {
          for (Path input : inputs) {
            Files.copy(input, target);
          }
        }
      }
      bestCopy = Math.min(bestCopy, System.nanoTime() - start);
    }
    Files.deleteIfExists(out);
    return String.format(
        "| %s | %d in %d partitions | %s | %s, %.0f MB/s | %s, %.0f MB/s |",
        format,
        files,
        byPartition.size(),
        BenchJobs.megabytes(bytes),
        BenchJobs.seconds(bestMerge / 1_000_000),
        bytes / 1e6 / (bestMerge / 1e9),
        BenchJobs.seconds(bestCopy / 1_000_000),
        bytes / 1e6 / (bestCopy / 1e9));
  }
}
