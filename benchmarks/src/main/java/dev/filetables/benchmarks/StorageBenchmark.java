package dev.filetables.benchmarks;

import dev.filetables.benchmarks.S3RequestCounter.Counts;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.OrdersDataset;
import dev.filetables.pipelines.RunnerOptions;
import dev.filetables.pipelines.RunnerPresets;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.FileTableMaintenance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;

/**
 * The batch write and read of {@link BatchWriteReadBenchmark} (N orders into 48 dt/hour Parquet
 * partitions, then read back) and, on the Flink runner, the streaming sink's write of N rows of
 * {@link StreamingSinkBenchmark}'s orders (48 partitions, a finite stream, checkpoints every 2 s),
 * on the local disk, HDFS and S3 side by side in one run. HDFS (MiniDFSCluster) and S3 (s3proxy,
 * filesystem backend) are real servers started here as child JVMs on loopback ({@link
 * StorageServers}); the jobs run in this JVM. A runnable program, not a test:
 *
 * <pre>
 * bin/filetables bench storage [--rows=2000000] [--stores=local,hdfs,s3]
 *   [--runner=FlinkRunner|DirectRunner] [--parallelism=2] [--output=./bench-output] [--seed=42]
 * </pre>
 *
 * <p>Per store: wall time of each job, rows/s of job time (wall minus the runner's start-up, an
 * empty pipeline's wall time, as in the batch benchmark), visible files and bytes (listed on the
 * store), and on S3 the requests the stores' client sent during each job, counted by an SDK
 * interceptor ({@link CountingS3ClientFactory}), per committed file. A write of a tenth of the rows
 * on the local disk first pays for class loading and JIT, so the first store is not penalised.
 */
public final class StorageBenchmark {
  private final long rows;
  private final List<String> stores;
  private final String runner;
  private final int parallelism;
  private final Path output;
  private final long seed;

  /**
   * Checkpoints of the streaming write: files are published at checkpoints (as bench streaming).
   */
  private static final long STREAMING_CHECKPOINT_MILLIS = 2_000;

  private StorageBenchmark(BenchArgs args) {
    rows = args.longValue("rows", BatchWriteReadBenchmark.DEFAULT_ROWS);
    stores = List.of(args.string("stores", "local,hdfs,s3").split(","));
    runner = args.string("runner", "FlinkRunner");
    parallelism = args.intValue("parallelism", 2);
    output = args.path("output", Path.of("bench-output")).toAbsolutePath().normalize();
    seed = args.longValue("seed", 42);
    for (String store : stores) {
      if (!List.of("local", "hdfs", "s3").contains(store)) {
        throw new IllegalArgumentException("--stores are local, hdfs and s3, got '" + store + "'");
      }
    }
    if (!runner.equals("FlinkRunner") && !runner.equals("DirectRunner")) {
      throw new IllegalArgumentException("--runner is FlinkRunner or DirectRunner, got " + runner);
    }
  }

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    StorageBenchmark bench = new StorageBenchmark(args);
    args.checkNoUnknown();
    boolean servers = bench.stores.contains("hdfs") || bench.stores.contains("s3");
    if (!servers) {
      bench.runOn(null);
      return;
    }
    try (StorageServers started = StorageServers.start()) {
      bench.runOn(started);
    }
  }

  private void runOn(StorageServers servers) throws Exception {
    List<String> optionArgs = new ArrayList<>();
    if (runner.equals("FlinkRunner")) {
      optionArgs.addAll(RunnerPresets.standard().load("flink-local"));
      optionArgs.removeIf(o -> o.startsWith("--parallelism"));
      optionArgs.add("--parallelism=" + parallelism);
    } else {
      optionArgs.add("--runner=DirectRunner");
      optionArgs.add("--targetParallelism=" + parallelism);
    }
    if (servers != null) {
      PipelineOptionsFactory.register(S3Options.class); // holds the client factory option
      optionArgs.addAll(servers.pipelineArgs());
      optionArgs.add("--s3ClientFactoryClass=" + CountingS3ClientFactory.class.getName());
    }
    PipelineOptions options = RunnerOptions.create(optionArgs);
    List<String> streamingArgs = new ArrayList<>(optionArgs);
    streamingArgs.add("--streaming=true");
    streamingArgs.add("--checkpointingInterval=" + STREAMING_CHECKPOINT_MILLIS);
    // this JVM's own store calls (listing the written table) use the same client
    FileSystems.setDefaultPipelineOptions(options);
    System.out.println(
        "== " + RunnerOptions.describe(options) + ", " + rows + " rows; stores " + stores);

    Path localRoot = output.resolve("storage");
    BenchJobs.deleteRecursively(localRoot);
    Files.createDirectories(localRoot);
    run(BatchWriteReadBenchmark.emptyPipeline(options));
    long startup = run(BatchWriteReadBenchmark.emptyPipeline(options)).wallMillis;
    System.out.printf(Locale.ROOT, "   start-up (empty pipeline) %.2f s%n", startup / 1000.0);
    write(options, spec(localRoot.resolve("warm-up").toString()), Math.max(1, rows / 10));
    System.out.println("   warm-up write done");

    List<Result> results = new ArrayList<>();
    for (String store : stores) {
      String location =
          store.equals("local")
              ? localRoot.resolve("orders").toString()
              : servers.root(store) + "/bench/orders";
      Result result = measure(store, location, options, startup);
      if (runner.equals("FlinkRunner")) {
        result = result.withStreaming(measureStreaming(store, location + "_stream", streamingArgs));
      }
      results.add(result);
    }
    print(results, startup);
    BenchJobs.deleteRecursively(localRoot);
  }

  private Result measure(String store, String location, PipelineOptions options, long startup)
      throws Exception {
    TableSpec spec = spec(location);
    Counts before = CountingS3ClientFactory.COUNTER.snapshot();
    Run write = write(options, spec, rows);
    Counts afterWrite = CountingS3ClientFactory.COUNTER.snapshot();
    BatchTableStats stats = BatchTableStats.of(TablePaths.of(location));
    Counts beforeRead = CountingS3ClientFactory.COUNTER.snapshot();
    Pipeline read = Pipeline.create(options);
    read.apply("ReadOrders", FileTableIO.read(spec))
        .apply("CountRows", ParDo.of(new BatchWriteReadBenchmark.CountRowsFn()));
    Run readRun = run(read);
    Counts afterRead = CountingS3ClientFactory.COUNTER.snapshot();
    long rowsRead =
        BatchWriteReadBenchmark.counter(readRun.result, BatchWriteReadBenchmark.ROWS_READ);
    if (rowsRead != rows) {
      System.out.println("WARNING: " + store + ": wrote " + rows + " rows but read " + rowsRead);
    }
    Result result =
        new Result(
            store,
            write.wallMillis,
            readRun.wallMillis,
            stats,
            afterWrite.minus(before),
            afterRead.minus(beforeRead),
            null);
    System.out.printf(
        Locale.ROOT,
        "   %-5s write %6.2f s, read %6.2f s, %d files in %d partitions; S3 requests: write %s,"
            + " read %s%n",
        store,
        write.wallMillis / 1000.0,
        readRun.wallMillis / 1000.0,
        stats.files,
        stats.partitions,
        result.writeRequests.requests(),
        result.readRequests.requests());
    return result;
  }

  /**
   * The streaming sink's write of as many rows (the streaming benchmark's orders, 48 partitions): a
   * finite stream on the Flink runner, files published at checkpoints, then the post-job publish.
   */
  private StreamingResult measureStreaming(String store, String location, List<String> args)
      throws Exception {
    PipelineOptions options = RunnerOptions.create(args);
    TableSpec table = Orders.table("orders_stream", location, "parquet", Map.of());
    String writeUuid = UUID.randomUUID().toString();
    Pipeline pipeline =
        BenchJobs.writePipeline(
            options.as(FlinkPipelineOptions.class),
            OrdersSource.of(Orders.withPartitions(48)).withTotalRows(rows),
            FileTableIO.write(table).withWriteUuid(writeUuid));
    Counts before = CountingS3ClientFactory.COUNTER.snapshot();
    Run run = run(pipeline);
    FileTableMaintenance.finishWrite(table, writeUuid);
    Counts requests = CountingS3ClientFactory.COUNTER.snapshot().minus(before);
    BatchTableStats stats = BatchTableStats.of(TablePaths.of(location));
    System.out.printf(
        Locale.ROOT,
        "   %-5s streaming write %6.2f s, %d files in %d partitions; S3 requests %s%n",
        store,
        run.wallMillis / 1000.0,
        stats.files,
        stats.partitions,
        requests.requests());
    return new StreamingResult(run.wallMillis, stats, requests);
  }

  private TableSpec spec(String location) {
    return DdlParser.parse(OrdersDataset.ddl(location));
  }

  private Run write(PipelineOptions options, TableSpec spec, long count) throws Exception {
    Pipeline pipeline = Pipeline.create(options);
    int slices = BatchWriteReadBenchmark.SLICES;
    pipeline
        .apply(
            "Slices", Create.of(LongStream.range(0, slices).boxed().collect(Collectors.toList())))
        .apply("GenerateOrders", ParDo.of(BatchOrdersFn.perSlice(count, seed, slices)))
        .setRowSchema(OrdersDataset.SCHEMA)
        .apply("WriteOrders", FileTableIO.write(spec));
    return run(pipeline);
  }

  private static Run run(Pipeline pipeline) {
    System.gc(); // the previous job's garbage is not collected on this one's clock
    long start = System.nanoTime();
    PipelineResult result = pipeline.run();
    PipelineResult.State state = result.waitUntilFinish();
    long wallMillis = (System.nanoTime() - start) / 1_000_000;
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("job ended in state " + state);
    }
    return new Run(result, wallMillis);
  }

  private void print(List<Result> results, long startup) {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "%,d rows, 48 partitions; rows/s of job time (wall - %.2f s start-up); x local = rows/s"
            + " against the local disk's; S3 requests per committed (visible) file, all requests"
            + " of the job counted%n",
        rows,
        startup / 1000.0);
    String header =
        String.format(
            Locale.ROOT,
            "%-6s %8s %12s %8s %8s %12s %8s %6s %7s %13s %13s %9s %13s %8s %6s %13s",
            "store",
            "write s",
            "write rows/s",
            "x local",
            "read s",
            "read rows/s",
            "x local",
            "files",
            "MB",
            "S3 req/file w",
            "S3 req/file r",
            "stream s",
            "stream rows/s",
            "x local",
            "files",
            "S3 req/file s");
    System.out.println(header);
    System.out.println("-".repeat(header.length()));
    Result local = results.stream().filter(r -> r.store.equals("local")).findFirst().orElse(null);
    for (Result r : results) {
      double writeRate = rate(r.writeMillis, startup);
      double readRate = rate(r.readMillis, startup);
      StreamingResult st = r.streaming;
      StreamingResult localSt = local == null ? null : local.streaming;
      double streamRate = st == null ? 0 : rate(st.wallMillis, startup);
      System.out.printf(
          Locale.ROOT,
          "%-6s %8.2f %12.0f %8s %8.2f %12.0f %8s %6d %7.1f %13s %13s %9s %13s %8s %6s %13s%n",
          r.store,
          r.writeMillis / 1000.0,
          writeRate,
          local == null
              ? "-"
              : String.format(Locale.ROOT, "%.2f", writeRate / rate(local.writeMillis, startup)),
          r.readMillis / 1000.0,
          readRate,
          local == null
              ? "-"
              : String.format(Locale.ROOT, "%.2f", readRate / rate(local.readMillis, startup)),
          r.stats.files,
          r.stats.bytes / 1e6,
          perFile(r.writeRequests, r.stats.files),
          perFile(r.readRequests, r.stats.files),
          st == null ? "-" : String.format(Locale.ROOT, "%.2f", st.wallMillis / 1000.0),
          st == null ? "-" : String.format(Locale.ROOT, "%.0f", streamRate),
          st == null || localSt == null
              ? "-"
              : String.format(Locale.ROOT, "%.2f", streamRate / rate(localSt.wallMillis, startup)),
          st == null ? "-" : String.valueOf(st.stats.files),
          st == null ? "-" : perFile(st.requests, st.stats.files));
    }
    for (Result r : results) {
      if (r.writeRequests.total() > 0) {
        System.out.println(
            r.store
                + " requests: write "
                + r.writeRequests.requests()
                + ", read "
                + r.readRequests.requests()
                + "; "
                + BenchJobs.megabytes(r.writeRequests.bodyBytes())
                + " uploaded");
        int files = Math.max(1, r.stats.files);
        long copies = r.writeRequests.requests().getOrDefault("CopyObject", 0L);
        System.out.println(
            r.store
                + " write, per committed file: "
                + S3CommitProtocolBenchmark.requests(r.writeRequests, files)
                + "; bytes copied server-side "
                + (copies == 0
                    ? "0"
                    : "about "
                        + BenchJobs.megabytes(copies * r.stats.bytes / files)
                        + " (CopyObject × mean file size)"));
      }
    }
  }

  private double rate(long wallMillis, long startup) {
    return rows * 1000.0 / Math.max(1, wallMillis - startup);
  }

  private static String perFile(Counts counts, int files) {
    if (counts.total() == 0) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1f", counts.total() / (double) Math.max(1, files));
  }

  private record Run(PipelineResult result, long wallMillis) {}

  private record Result(
      String store,
      long writeMillis,
      long readMillis,
      BatchTableStats stats,
      Counts writeRequests,
      Counts readRequests,
      StreamingResult streaming) {
    Result withStreaming(StreamingResult result) {
      return new Result(store, writeMillis, readMillis, stats, writeRequests, readRequests, result);
    }
  }

  private record StreamingResult(long wallMillis, BatchTableStats stats, Counts requests) {}
}
