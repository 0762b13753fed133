package dev.filetables.benchmarks;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.transforms.FileTableIO;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.io.aws2.options.AwsOptions;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStatsSummarySnapshot;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.jobmaster.JobResult;
import software.amazon.awssdk.regions.Region;

/**
 * Streaming throughput of {@code FileTableIO.write} on the Flink runner (issue 3, point 8): a local
 * Flink cluster in this JVM (parallelism 2 by default), EXACTLY_ONCE checkpoints every 2 s, a
 * finite {@link OrdersSource} of 2 M rows spread over 48 hourly partitions, Parquet. Prints wall
 * time, job time (first row emitted → last file visible, so cluster start-up and job submission are
 * excluded; the last files are published when the finite input ends, as {@code
 * --enableStableInputDrain} does), rows/s and MB/s of job time, files per partition, and, in a
 * second run, heap and checkpoint size while 200 partitions are open.
 *
 * <p>Reference (issue 3): native Flink 1.19 FileSink writes this in ~13.2 s wall (~223 k rows/s of
 * job time) and leaves ~8 files per partition (384).
 *
 * <pre>
 * java -cp ... dev.filetables.benchmarks.StreamingSinkBenchmark [--rows=2000000]
 *   [--partitions=48] [--format=parquet] [--checkpoint-ms=2000] [--parallelism=2]
 *   [--option=key=value ...] [--work-dir=/tmp/filetables-bench]
 *   [--open-partitions=200] [--memory-seconds=30] [--memory-rate=20000]
 *   [--store=local|hdfs|s3] [--skip-throughput=false] [--skip-memory=false] [--timeout-s=600] [--sink=filetables|discard]
 *   [--disable-metrics=false] [--buffer-size=bytes (FileTableIO.Write#withBufferSize)]
 *   [--finish-bundle-before-checkpointing=true (false: the sink sends rows unbatched)]
 *   [--s3-callers=false (true: with --store=s3, the footprint's requests by calling method)]
 * </pre>
 *
 * {@code --sink=discard} runs the same job with a step that drops the rows instead of the sink: the
 * ceiling the source and the runner put on the throughput on this machine. {@code --store=hdfs|s3}
 * puts the tables on a real HDFS or S3 server started here on loopback ({@link StorageServers}).
 */
public final class StreamingSinkBenchmark {
  static {
    // quiet Flink and Beam (slf4j-simple reads this once, before the first logger is created)
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  private final long rows;
  private final int partitions;
  private final String format;
  private final long checkpointMillis;
  private final int parallelism;
  private final Map<String, String> tableOptions;
  private final Path workDir;
  private final String store;
  private StorageServers servers;
  private final int openPartitions;
  private final long memorySeconds;
  private final double memoryRate;
  private final Duration timeout;
  private final boolean discard;
  private final boolean disableMetrics;
  private final long bufferSize;
  private final boolean finishBundleBeforeCheckpointing;

  /** Counts the footprint job's S3 requests also by the FileTables methods that sent them. */
  private final boolean s3Callers;

  private StreamingSinkBenchmark(BenchArgs args) {
    rows = args.longValue("rows", 2_000_000);
    partitions = args.intValue("partitions", 48);
    format = args.string("format", "parquet");
    checkpointMillis = args.longValue("checkpoint-ms", 2_000);
    parallelism = args.intValue("parallelism", 2);
    tableOptions = BenchJobs.keyValues(args.all("option"));
    workDir =
        args.path("work-dir", Path.of(System.getProperty("java.io.tmpdir"), "filetables-bench"));
    openPartitions = args.intValue("open-partitions", 200);
    memorySeconds = args.longValue("memory-seconds", 30);
    memoryRate = args.doubleValue("memory-rate", 20_000);
    timeout = Duration.ofSeconds(args.longValue("timeout-s", 600));
    store = args.string("store", "local");
    if (!List.of("local", "hdfs", "s3").contains(store)) {
      throw new IllegalArgumentException("--store is local, hdfs or s3, got " + store);
    }
    String sink = args.string("sink", "filetables");
    if (!sink.equals("filetables") && !sink.equals("discard")) {
      throw new IllegalArgumentException("--sink is filetables or discard, got " + sink);
    }
    discard = sink.equals("discard");
    disableMetrics = args.bool("disable-metrics", false);
    bufferSize = args.longValue("buffer-size", 0);
    finishBundleBeforeCheckpointing = args.bool("finish-bundle-before-checkpointing", true);
    s3Callers = args.bool("s3-callers", false);
  }

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    StreamingSinkBenchmark bench = new StreamingSinkBenchmark(args);
    boolean skipThroughput = args.bool("skip-throughput", false);
    boolean skipMemory = args.bool("skip-memory", false);
    args.checkNoUnknown();
    BenchJobs.deleteRecursively(bench.workDir);
    Files.createDirectories(bench.workDir);
    if (!bench.store.equals("local")) {
      // real servers on loopback; they stop when this JVM exits (System.exit below)
      bench.servers = StorageServers.start();
    }
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(bench.workDir.resolve("flink"), bench.parallelism)) {
      if (!skipThroughput) {
        bench.throughput(cluster);
      }
      if (!skipMemory) {
        bench.openPartitionsFootprint(cluster);
      }
    }
    System.exit(0); // Flink leaves non-daemon threads behind
  }

  private TableSpec table(String name) {
    String location =
        servers == null ? workDir.resolve(name).toString() : servers.root(store) + "/bench/" + name;
    return Orders.table(name, location, format, tableOptions);
  }

  /** The job's options, which also configure the stores on the workers. */
  private FlinkPipelineOptions options(LocalFlinkCluster cluster, String jobName) {
    FlinkPipelineOptions options =
        BenchJobs.options(cluster, jobName, parallelism, checkpointMillis);
    if (servers != null) {
      AwsOptions aws = options.as(AwsOptions.class);
      aws.setEndpoint(servers.s3().endpoint());
      aws.setAwsRegion(Region.of(servers.s3().region()));
      // the job runs in this JVM: count its S3 requests
      options.as(S3Options.class).setS3ClientFactoryClass(CountingS3ClientFactory.class);
    }
    return options;
  }

  private FileTableIO.Write write(TableSpec table) {
    FileTableIO.Write write = FileTableIO.write(table);
    return bufferSize > 0 ? write.withBufferSize(bufferSize) : write;
  }

  private String sinkSettings() {
    return "options "
        + tableOptions
        + (bufferSize > 0 ? ", buffer size " + bufferSize : "")
        + (disableMetrics ? ", Beam metrics off" : "")
        + (finishBundleBeforeCheckpointing
            ? ""
            : ", finishBundleBeforeCheckpointing off (no row batches)");
  }

  private void throughput(LocalFlinkCluster cluster) throws Exception {
    TableSpec table = table("throughput");
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    OrdersSource source =
        OrdersSource.of(Orders.withPartitions(partitions)).withTotalRows(rows).withEmitLog(logId);
    FlinkPipelineOptions options = options(cluster, "throughput-" + logId);
    // Beam's Flink runner updates its metrics on every source advance and element
    options.setDisableMetrics(disableMetrics);
    // false: bundles end inside the snapshot, and the sink sends rows one by one (no batches)
    options.setFinishBundleBeforeCheckpointing(finishBundleBeforeCheckpointing);

    System.out.printf(
        "%nThroughput%s: %,d rows, %d partitions, %s, checkpoints every %d ms, parallelism %d, %s%n",
        discard ? " of the source alone (rows discarded)" : "",
        rows,
        partitions,
        format,
        checkpointMillis,
        parallelism,
        sinkSettings());
    long submitted = System.currentTimeMillis();
    long cpuAtSubmit = processCpuNanos();
    JobID job;
    JobStatus status;
    long checkpoints;
    try (VisibilityWatcher watcher = VisibilityWatcher.start(table, 100, false)) {
      job =
          cluster.submit(
              discard
                  ? BenchJobs.discardPipeline(options, source)
                  : BenchJobs.writePipeline(options, source, write(table)));
      status = awaitEnd(cluster, job, log, table, watcher);
      checkpoints = cluster.completedCheckpoints(job);
      watcher.close();
      long ended = System.currentTimeMillis();
      long cpuNanos = processCpuNanos() - cpuAtSubmit;
      long firstRow = log.firstMillis();
      long lastFile = watcher.lastNewFileMillis();
      long jobMillis = lastFile - firstRow;
      if (discard) {
        System.out.printf(
            "  job %s ended %s; wall time %s, start-up %s, first → last row %s: %,.0f rows/s%n",
            job,
            status,
            BenchJobs.seconds(ended - submitted),
            BenchJobs.seconds(firstRow - submitted),
            BenchJobs.seconds(log.lastMillis() - firstRow),
            rows * 1000.0 / (log.lastMillis() - firstRow));
        return;
      }

      TableContents contents = TableContents.scan(table);
      IntSummaryStatistics perPartition =
          contents.filesPerPartition().values().stream()
              .mapToInt(Integer::intValue)
              .summaryStatistics();
      System.out.printf(
          "  job %s ended %s after %d completed checkpoints%n", job, status, checkpoints);
      System.out.printf(
          "  wall time (submit → job end):          %s%n", BenchJobs.seconds(ended - submitted));
      System.out.printf(
          "  start-up (submit → first row):         %s%n", BenchJobs.seconds(firstRow - submitted));
      System.out.printf(
          "  job time (first row → last file visible): %s%n", BenchJobs.seconds(jobMillis));
      // the end of a finite input: the last files close when the watermark reaches the end
      System.out.printf(
          "    of which rows emitted (first → last row) %s: %,.0f rows/s; last row → last file visible %s%n",
          BenchJobs.seconds(log.lastMillis() - firstRow),
          rows * 1000.0 / Math.max(1, log.lastMillis() - firstRow),
          BenchJobs.seconds(lastFile - log.lastMillis()));
      System.out.printf(
          "  rows visible: %,d of %,d%s%n",
          contents.rowCount(), rows, contents.rowCount() == rows ? "" : "  <-- MISMATCH");
      System.out.printf(
          "  throughput: %,.0f rows/s, %.1f MB/s (output bytes %s)%n",
          rows * 1000.0 / jobMillis,
          contents.bytes() / 1e6 * 1000.0 / jobMillis,
          BenchJobs.megabytes(contents.bytes()));
      // on a shared machine wall time depends on the others; CPU time much less
      System.out.printf(
          "  CPU time of this JVM (submit → job end): %s, %,.0f rows per CPU-second%n",
          BenchJobs.seconds(cpuNanos / 1_000_000), rows * 1e9 / cpuNanos);
      System.out.printf(
          "  files: %d in %d partitions; per partition min %d / avg %.1f / max %d%n",
          contents.files().size(),
          perPartition.getCount(),
          perPartition.getMin(),
          perPartition.getAverage(),
          perPartition.getMax());
      if (format.equals("parquet") || format.equals("orc")) {
        IntSummaryStatistics groups = new IntSummaryStatistics();
        for (TableContents.VisibleFile file : contents.files()) {
          groups.accept(
              format.equals("orc") ? orcStripes(file.path()) : parquetRowGroups(file.path()));
        }
        System.out.printf(
            "  %s per file: min %d / avg %.1f / max %d%n",
            format.equals("orc") ? "ORC stripes" : "Parquet row groups",
            groups.getMin(),
            groups.getAverage(),
            groups.getMax());
      }
      CompletedCheckpointStatsSummarySnapshot summary =
          cluster.checkpointStats(job).getSummaryStats();
      System.out.printf(
          "  checkpoints: state size max %s / avg %s, end-to-end duration max %s / avg %s%n",
          BenchJobs.megabytes(summary.getStateSizeStats().getMaximum()),
          BenchJobs.megabytes(summary.getStateSizeStats().getAverage()),
          BenchJobs.seconds(summary.getEndToEndDurationStats().getMaximum()),
          BenchJobs.seconds(summary.getEndToEndDurationStats().getAverage()));
      System.out.printf(
          "  hidden files left: %d (%d in progress); unreadable visible files: %d%n",
          contents.hiddenFiles().size(),
          contents.inProgressFiles().size(),
          contents.unreadableFiles().size());
    } finally {
      EmitLog.remove(logId);
    }
  }

  private static int parquetRowGroups(Path file) throws java.io.IOException {
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file);
        org.apache.parquet.hadoop.ParquetFileReader reader =
            org.apache.parquet.hadoop.ParquetFileReader.open(
                new dev.filetables.io.format.parquet.ChannelInputFile(channel, channel.size()))) {
      return reader.getFooter().getBlocks().size();
    }
  }

  /** Stripes of an ORC file, as orc-core's own reader lists them. */
  private static int orcStripes(Path file) throws java.io.IOException {
    try (org.apache.orc.Reader reader =
        org.apache.orc.OrcFile.createReader(
            new org.apache.hadoop.fs.Path(file.toUri()),
            org.apache.orc.OrcFile.readerOptions(new org.apache.hadoop.conf.Configuration()))) {
      return reader.getStripes().size();
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * Waits for the job to finish by itself. If it is still running once every row was emitted and no
   * new file appeared for three checkpoint intervals, checks whether the table is complete and then
   * cancels it (the sink published everything; the runner just did not end the job).
   */
  private JobStatus awaitEnd(
      LocalFlinkCluster cluster, JobID job, EmitLog log, TableSpec table, VisibilityWatcher watcher)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long quietSince = -1;
    long lastCount = -1;
    while (System.nanoTime() < deadline) {
      JobStatus status = cluster.status(job);
      if (status.isGloballyTerminalState()) {
        JobResult result = cluster.awaitTermination(job, Duration.ofSeconds(10));
        if (status != JobStatus.FINISHED) {
          throw new IllegalStateException(
              "Job "
                  + job
                  + " ended "
                  + status
                  + result
                      .getSerializedThrowable()
                      .map(t -> ": " + t.getFullStringifiedStackTrace())
                      .orElse(""));
        }
        return status;
      }
      // reading the table costs CPU the job needs: only once files stopped appearing for a while
      boolean filesQuiet =
          System.currentTimeMillis() - watcher.lastNewFileMillis() > 3 * checkpointMillis;
      if (log.emissions() >= rows && filesQuiet) {
        long count = TableContents.scan(table).rowCount();
        if (count >= rows && count == lastCount) {
          if (quietSince < 0) {
            quietSince = System.nanoTime();
          } else if (System.nanoTime() - quietSince > 3 * checkpointMillis * 1_000_000L) {
            System.out.println("  (all rows visible but the job did not end: cancelling it)");
            cluster.cancel(job);
            return cluster.status(job);
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

  /**
   * Runs a throttled endless source over {@code openPartitions} partitions (every partition gets
   * rows all the time, so with the default rolling policy every writer keeps all of them open) and
   * samples heap after a GC and the size of the latest completed checkpoint.
   */
  private void openPartitionsFootprint(LocalFlinkCluster cluster) throws Exception {
    TableSpec table = table("open-partitions");
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    OrdersSource source =
        OrdersSource.of(Orders.withPartitions(openPartitions))
            .withRowsPerSecond(memoryRate)
            .withEmitLog(logId);
    FlinkPipelineOptions options = options(cluster, "open-partitions-" + logId);
    options.setDisableMetrics(disableMetrics);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    long baseline = memory.getHeapMemoryUsage().getUsed();
    System.out.printf(
        "%nFootprint: %d open partitions, %,.0f rows/s for %d s, %s, checkpoints every %d ms, parallelism %d, %s%n",
        openPartitions,
        memoryRate,
        memorySeconds,
        format,
        checkpointMillis,
        parallelism,
        sinkSettings());
    System.out.printf("  heap before the job (after GC): %s%n", BenchJobs.megabytes(baseline));
    try {
      CountingS3ClientFactory.COUNTER.ignoreCallingThread(); // the hidden-file counts below
      if (s3Callers) {
        CountingS3ClientFactory.COUNTER.traceCallers();
      }
      S3RequestCounter.Counts requestsBefore = CountingS3ClientFactory.COUNTER.snapshot();
      JobID job = cluster.submit(BenchJobs.writePipeline(options, source, write(table)));
      long start = System.nanoTime();
      long maxHeap = 0;
      long maxState = 0;
      long maxCheckpointed = 0;
      long maxCheckpointDir = 0;
      long maxHidden = 0;
      long maxSegments = 0;
      Path checkpointDir = cluster.checkpointDir().resolve(job.toHexString());
      while (System.nanoTime() - start < Duration.ofSeconds(memorySeconds).toNanos()) {
        Thread.sleep(5_000);
        if (cluster.status(job).isGloballyTerminalState()) {
          throw new IllegalStateException("Footprint job ended early: " + cluster.status(job));
        }
        System.gc();
        long heap = memory.getHeapMemoryUsage().getUsed();
        CompletedCheckpointStats latest =
            cluster.checkpointStats(job).getHistory().getLatestCompletedCheckpoint();
        long state = latest == null ? 0 : latest.getStateSize();
        long checkpointed = latest == null ? 0 : latest.getCheckpointedSize();
        long dirSize = BenchJobs.directorySize(checkpointDir);
        maxHeap = Math.max(maxHeap, heap);
        maxState = Math.max(maxState, state);
        maxCheckpointed = Math.max(maxCheckpointed, checkpointed);
        maxCheckpointDir = Math.max(maxCheckpointDir, dirSize);
        long[] hidden = TableContents.countHiddenAndSegments(table.options().rootPath());
        maxHidden = Math.max(maxHidden, hidden[0]);
        maxSegments = Math.max(maxSegments, hidden[1]);
        System.out.printf(
            "  t=%2ds rows emitted %,d; heap after GC %s (+%s); latest checkpoint %s state, %s checkpointed; checkpoint dir %s; hidden files %,d (segment files %,d)%n",
            (System.nanoTime() - start) / 1_000_000_000L,
            log.emissions(),
            BenchJobs.megabytes(heap),
            BenchJobs.megabytes(heap - baseline),
            BenchJobs.megabytes(state),
            BenchJobs.megabytes(checkpointed),
            BenchJobs.megabytes(dirSize),
            hidden[0],
            hidden[1]);
      }
      CompletedCheckpointStats last =
          cluster.checkpointStats(job).getHistory().getLatestCompletedCheckpoint();
      if (last != null) {
        Map<JobVertexID, String> names = new HashMap<>();
        cluster.executionGraph(job).getAllVertices().forEach((id, v) -> names.put(id, v.getName()));
        for (TaskStateStats task : last.getAllTaskStateStats()) {
          System.out.printf(
              "  checkpoint %d state of %s: %s%n",
              last.getCheckpointId(),
              names.getOrDefault(task.getJobVertexId(), task.getJobVertexId().toString()),
              BenchJobs.megabytes(task.getStateSize()));
        }
      }
      long checkpoints = cluster.checkpointStats(job).getCounts().getNumberOfCompletedCheckpoints();
      long emitted = log.emissions();
      cluster.cancel(job);
      if (store.equals("s3")) {
        S3RequestCounter.Counts requests =
            CountingS3ClientFactory.COUNTER.snapshot().minus(requestsBefore);
        System.out.printf(
            "  S3 requests: %,d in all (%,.1f per completed checkpoint, %,.2f per 1,000 rows), %s; %s sent%n",
            requests.total(),
            requests.total() / (double) Math.max(1, checkpoints),
            requests.total() * 1000.0 / Math.max(1, emitted),
            requests.requests(),
            BenchJobs.megabytes(requests.bodyBytes()));
        CountingS3ClientFactory.COUNTER.callers().stream()
            .limit(20)
            .forEach(c -> System.out.printf("    %,d %s%n", c.getValue(), c.getKey()));
      }
      TableContents contents = TableContents.scan(table);
      System.out.printf(
          "  peak: heap +%s over baseline, checkpoint state %s (%s checkpointed), checkpoint dir %s; %d visible files, %d hidden"
              + " (max while running: %,d hidden, %,d segment files of open part files)%n",
          BenchJobs.megabytes(maxHeap - baseline),
          BenchJobs.megabytes(maxState),
          BenchJobs.megabytes(maxCheckpointed),
          BenchJobs.megabytes(maxCheckpointDir),
          contents.files().size(),
          contents.hiddenFiles().size(),
          maxHidden,
          maxSegments);
    } finally {
      EmitLog.remove(logId);
    }
  }
}
