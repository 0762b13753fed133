package dev.filetables.benchmarks;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.RecordEncoder;
import dev.filetables.io.format.parquet.ChannelInputFile;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.kafka.LocalKafkaBroker;
import dev.filetables.pipelines.kafka.RowProducer;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.SessionCluster;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.kafka.KafkaTableSource;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.parquet.hadoop.ParquetFileReader;

/**
 * Kafka → Parquet table on the scripted Flink session cluster (issue 7, point 7): a real broker
 * (child JVM) and a real session cluster (JobManager and TaskManager JVMs), the job submitted with
 * the shaded job jar, parallelism 2, checkpoints every {@code checkpoint-ms} (10 s).
 *
 * <ol>
 *   <li><b>Throughput</b>: {@code rows} orders (2 M) are produced into a topic first; the job reads
 *       them into an hourly Parquet table (24 partitions, partition-time commit). Measured: from
 *       the first visible row to the last, and from the job running to the last visible row
 *       (visible = published by a checkpoint; row counts from Parquet footers, files timed by their
 *       rename).
 *   <li><b>Latency</b> (one short run per commit trigger): rows are produced at a steady {@code
 *       rate} for {@code seconds}, each carrying its produce time as event time, into a table
 *       partitioned by 10-second buckets ({@code dt/hh/mm/ss}, commit delay 10 s). Measured: each
 *       row's produce → visible latency, and each complete bucket's end → {@code _SUCCESS}.
 * </ol>
 *
 * <pre>
 * bin/filetables bench kafka [--rows=2000000] [--checkpoint-ms=10000] [--rate=500] [--seconds=60]
 *   [--commit-wait-s=60] [--triggers=partition-time,process-time] [--skip-throughput=false]
 *   [--work-dir=/tmp/filetables-kafka-bench]
 * </pre>
 */
public final class KafkaClusterBenchmark {
  static {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }

  private static final int PARALLELISM = 2;
  private static final int KAFKA_PARTITIONS = 2;
  private static final int TABLE_PARTITIONS = 24;
  private static final long BUCKET_MILLIS = 10_000;

  private final long rows;
  private final long checkpointMillis;
  private final double rate;
  private final long seconds;
  private final long commitWaitSeconds;
  private final List<String> triggers;
  private final boolean skipThroughput;
  private final Path workDir;
  private final List<String> report = new ArrayList<>();

  private KafkaClusterBenchmark(BenchArgs args) {
    rows = args.longValue("rows", 2_000_000);
    checkpointMillis = args.longValue("checkpoint-ms", 10_000);
    rate = args.doubleValue("rate", 500);
    seconds = args.longValue("seconds", 60);
    commitWaitSeconds = args.longValue("commit-wait-s", 60);
    triggers = List.of(args.string("triggers", "partition-time,process-time").split(","));
    skipThroughput = args.bool("skip-throughput", false);
    workDir =
        args.path(
            "work-dir", Path.of(System.getProperty("java.io.tmpdir"), "filetables-kafka-bench"));
    args.checkNoUnknown();
  }

  public static void main(String[] args) throws Exception {
    KafkaClusterBenchmark bench = new KafkaClusterBenchmark(new BenchArgs(args));
    bench.run();
    System.exit(0); // the broker's and Kafka clients' threads must not keep the JVM alive
  }

  private void run() throws Exception {
    BenchJobs.deleteRecursively(workDir);
    Files.createDirectories(workDir);
    Path jar = SessionCluster.jobJar();
    long start = System.nanoTime();
    try (LocalKafkaBroker broker = LocalKafkaBroker.start(workDir.resolve("kafka"));
        SessionCluster cluster = SessionCluster.start(workDir.resolve("cluster"))) {
      System.out.printf(
          "Broker %s and session cluster %s up in %.1f s; job jar %s (%s)%n",
          broker.bootstrapServers(),
          cluster.master(),
          (System.nanoTime() - start) / 1e9,
          jar,
          BenchJobs.megabytes(Files.size(jar)));
      if (!skipThroughput) {
        throughput(broker, cluster, jar);
      }
      for (String trigger : triggers) {
        latency(broker, cluster, jar, trigger.strip());
      }
    }
    System.out.println();
    System.out.println(
        "Kafka → Parquet on the local session cluster (parallelism "
            + PARALLELISM
            + ", checkpoints every "
            + BenchJobs.seconds(checkpointMillis)
            + ", 2 cores shared with other work)");
    report.forEach(System.out::println);
  }

  // ---------------------------------------------------------------- throughput

  private void throughput(LocalKafkaBroker broker, SessionCluster cluster, Path jar)
      throws Exception {
    String topic = "bench-orders";
    broker.createTopic(topic, KAFKA_PARTITIONS);
    KafkaTableSpec source = KafkaTables.parse(ordersSourceDdl(topic, broker.bootstrapServers()));
    Orders orders = Orders.withPartitions(TABLE_PARTITIONS);
    long produceStart = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
      RowProducer.produce(
          producer,
          topic,
          RecordEncoder.of(source.format(), source.schema()),
          "order_id",
          orders::row,
          0,
          rows);
    }
    double produceSeconds = (System.nanoTime() - produceStart) / 1e9;
    System.out.printf(
        "Produced %,d orders (JSON) in %.1f s (%,.0f records/s)%n",
        rows, produceSeconds, rows / produceSeconds);

    Path tableDir = workDir.resolve("orders");
    Map<String, String> sinkOptions = new HashMap<>();
    sinkOptions.put("sink.rolling-policy.rollover-interval", "5 s");
    sinkOptions.put("sink.rolling-policy.inactivity-interval", "5 s");
    sinkOptions.put("sink.rolling-policy.check-interval", "1 s");
    sinkOptions.put("partition.time-extractor.timestamp-pattern", "$dt $hour:00:00");
    sinkOptions.put("sink.partition-commit.trigger", "partition-time");
    sinkOptions.put("sink.partition-commit.policy.kind", "success-file");
    TableSpec table = Orders.table("orders", tableDir.toString(), "parquet", sinkOptions);

    String jobName = "kafka-bench-throughput";
    FooterCounter counter = new FooterCounter(table);
    long submitted = System.currentTimeMillis();
    submit(cluster, jar, jobName, source, table);
    String job = cluster.awaitRunning(jobName, java.time.Duration.ofMinutes(3));
    long running = System.currentTimeMillis();
    long deadline = running + Math.max(600_000, rows / 2); // at least 10 min
    while (counter.poll() < rows) {
      if (System.currentTimeMillis() > deadline || !"RUNNING".equals(cluster.state(job))) {
        throw new IllegalStateException(
            "only "
                + counter.rows
                + " of "
                + rows
                + " rows visible; job "
                + cluster.state(job)
                + cluster.failure(job));
      }
      Thread.sleep(250);
    }
    long checkpoints = cluster.completedCheckpoints(job);
    cluster.cancel(job);
    long first = counter.firstVisibleMillis();
    long last = counter.lastVisibleMillis();
    long bytes = counter.bytes();
    report.add(
        String.format(
            "throughput: %,d rows (pre-produced, %d Kafka partitions) -> %d hourly Parquet partitions, %d files, %s;"
                + " submit -> running %.1f s; running -> first row visible %.1f s; first -> last row visible %.1f s = %,.0f rows/s;"
                + " running -> last row visible %.1f s = %,.0f rows/s; %d checkpoints",
            rows,
            KAFKA_PARTITIONS,
            TABLE_PARTITIONS,
            counter.files(),
            BenchJobs.megabytes(bytes),
            (running - submitted) / 1e3,
            (first - running) / 1e3,
            (last - first) / 1e3,
            rows * 1e3 / Math.max(1, last - first),
            (last - running) / 1e3,
            rows * 1e3 / Math.max(1, last - running),
            checkpoints));
    System.out.println(report.get(report.size() - 1));
  }

  private String ordersSourceDdl(String topic, String servers) {
    return String.join(
        "\n",
        "CREATE TABLE orders_kafka (",
        "  order_id BIGINT NOT NULL, customer STRING NOT NULL, product STRING NOT NULL,",
        "  quantity INT NOT NULL, price DECIMAL(10, 2) NOT NULL, order_time TIMESTAMP(3) NOT NULL,",
        "  dt STRING NOT NULL, `hour` STRING NOT NULL,",
        "  WATERMARK FOR order_time AS order_time - INTERVAL '1' SECOND",
        ") WITH (",
        "  'connector' = 'kafka', 'topic' = '" + topic + "',",
        "  'properties.bootstrap.servers' = '"
            + servers
            + "', 'properties.group.id' = '"
            + topic
            + "-bench',",
        "  'scan.startup.mode' = 'earliest-offset', 'format' = 'json', 'scan.watermark.idle-timeout' = '5 s'",
        ")");
  }

  /** Counts the rows of visible Parquet files from their footers; remembers when each appeared. */
  private static final class FooterCounter {
    private final TableSpec table;
    private final Map<String, long[]> files =
        new HashMap<>(); // path -> {rows, bytes, visible millis}
    long rows;

    FooterCounter(TableSpec table) {
      this.table = table;
    }

    long poll() throws IOException {
      long now = System.currentTimeMillis();
      for (DataFile file : listVisible(table)) {
        if (files.containsKey(file.path())) {
          continue;
        }
        Path path = TablePaths.of(file.path());
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
            ParquetFileReader reader =
                ParquetFileReader.open(new ChannelInputFile(channel, channel.size()))) {
          long count = reader.getRecordCount();
          files.put(file.path(), new long[] {count, channel.size(), visibleTime(path, now)});
          rows += count;
        }
      }
      return rows;
    }

    int files() {
      return files.size();
    }

    long bytes() {
      return files.values().stream().mapToLong(f -> f[1]).sum();
    }

    long firstVisibleMillis() {
      return files.values().stream().mapToLong(f -> f[2]).min().orElse(0);
    }

    long lastVisibleMillis() {
      return files.values().stream().mapToLong(f -> f[2]).max().orElse(0);
    }
  }

  // ---------------------------------------------------------------- latency

  private void latency(LocalKafkaBroker broker, SessionCluster cluster, Path jar, String trigger)
      throws Exception {
    String topic = "bench-latency-" + trigger;
    broker.createTopic(topic, KAFKA_PARTITIONS);
    KafkaTableSpec source =
        KafkaTables.parse(
            String.join(
                "\n",
                "CREATE TABLE events_kafka (",
                "  order_id BIGINT NOT NULL, produced TIMESTAMP(3) NOT NULL, payload STRING,",
                "  dt STRING NOT NULL, hh STRING NOT NULL, mm STRING NOT NULL, ss STRING NOT NULL,",
                "  WATERMARK FOR produced AS produced - INTERVAL '1' SECOND",
                ") WITH (",
                "  'connector' = 'kafka', 'topic' = '" + topic + "',",
                "  'properties.bootstrap.servers' = '"
                    + broker.bootstrapServers()
                    + "', 'properties.group.id' = '"
                    + topic
                    + "',",
                "  'scan.startup.mode' = 'earliest-offset', 'format' = 'json', 'scan.watermark.idle-timeout' = '2 s'",
                ")"));
    Path tableDir = workDir.resolve("latency-" + trigger);
    TableSpec table =
        DdlParser.parse(
            String.join(
                "\n",
                "CREATE TABLE events (",
                "  order_id BIGINT NOT NULL, produced TIMESTAMP(3) NOT NULL, payload STRING,",
                "  dt STRING NOT NULL, hh STRING NOT NULL, mm STRING NOT NULL, ss STRING NOT NULL",
                ") PARTITIONED BY (dt, hh, mm, ss) WITH (",
                "  'connector' = 'filesystem', 'path' = '" + tableDir + "', 'format' = 'parquet',",
                "  'sink.rolling-policy.rollover-interval' = '2 s', 'sink.rolling-policy.inactivity-interval' = '2 s',",
                "  'sink.rolling-policy.check-interval' = '1 s',",
                "  'partition.time-extractor.timestamp-pattern' = '$dt $hh:$mm:$ss',",
                "  'sink.partition-commit.trigger' = '"
                    + trigger
                    + "', 'sink.partition-commit.delay' = '10 s',",
                "  'sink.partition-commit.policy.kind' = 'success-file'",
                ")"));

    String jobName = "kafka-bench-latency-" + trigger;
    submit(cluster, jar, jobName, source, table);
    String job = cluster.awaitRunning(jobName, java.time.Duration.ofMinutes(3));
    // the first checkpoint: the job is up and reading before the clock starts
    long readyDeadline = System.currentTimeMillis() + 120_000;
    while (cluster.completedCheckpoints(job) < 1 && System.currentTimeMillis() < readyDeadline) {
      Thread.sleep(200);
    }

    int total = (int) Math.round(rate * seconds);
    long[] producedAt = new long[total];
    RecordEncoder encoder = RecordEncoder.of(source.format(), source.schema());
    String payload = "x".repeat(100);
    long produceStart;
    try (VisibilityWatcher watcher = VisibilityWatcher.start(table, 50, true);
        KafkaProducer<byte[], byte[]> producer = broker.producer()) {
      AtomicReference<Exception> failure = new AtomicReference<>();
      produceStart = System.currentTimeMillis();
      for (int i = 0; i < total; i++) {
        long due = produceStart + (long) (i * 1000 / rate);
        long wait = due - System.currentTimeMillis();
        if (wait > 0) {
          Thread.sleep(wait);
        }
        long now = System.currentTimeMillis();
        producedAt[i] = now;
        byte[] value = encoder.encode(eventRow(source, i, now, payload));
        producer.send(
            new ProducerRecord<>(topic, Long.toString(i).getBytes(StandardCharsets.UTF_8), value),
            (m, e) -> {
              if (e != null) {
                failure.compareAndSet(null, e);
              }
            });
        if (i % 50 == 0) {
          producer.flush(); // keep the records moving at the steady rate (linger would batch them)
        }
      }
      producer.flush();
      if (failure.get() != null) {
        throw new IllegalStateException("producing failed", failure.get());
      }
      long produceEnd = System.currentTimeMillis();
      // complete buckets: wholly inside the producing time
      long firstBucket = Math.floorDiv(produceStart, BUCKET_MILLIS) * BUCKET_MILLIS + BUCKET_MILLIS;
      long lastBucketEnd = Math.floorDiv(produceEnd, BUCKET_MILLIS) * BUCKET_MILLIS;
      long waitUntil =
          Math.max(produceEnd + 3 * checkpointMillis, lastBucketEnd + commitWaitSeconds * 1000);
      while (System.currentTimeMillis() < waitUntil) {
        if (watcher.rowsSeen() >= total
            && successFiles(tableDir).size() >= (lastBucketEnd - firstBucket) / BUCKET_MILLIS) {
          break;
        }
        if (!"RUNNING".equals(cluster.state(job))) {
          throw new IllegalStateException(
              "latency job ended " + cluster.state(job) + cluster.failure(job));
        }
        Thread.sleep(500);
      }
      cluster.cancel(job);
      watcher.close();

      long[] latencies = new long[total];
      int visible = 0;
      for (int i = 0; i < total; i++) {
        Long at = watcher.rowVisibleMillis().get((long) i);
        if (at != null) {
          latencies[visible++] = at - producedAt[i];
        }
      }
      long[] sorted = Arrays.copyOf(latencies, visible);
      Arrays.sort(sorted);
      Map<String, Long> success = successFiles(tableDir);
      List<Long> commitLatencies = new ArrayList<>();
      int completeBuckets = 0;
      for (long bucket = firstBucket; bucket < lastBucketEnd; bucket += BUCKET_MILLIS) {
        completeBuckets++;
        Long committedAt = success.get(bucketPath(bucket));
        if (committedAt != null) {
          commitLatencies.add(committedAt - (bucket + BUCKET_MILLIS));
        }
      }
      commitLatencies.sort(null);
      String visibleText =
          visible == 0
              ? "no row visible"
              : String.format(
                  "median %s, p99 %s, max %s",
                  BenchJobs.seconds(sorted[visible / 2]),
                  BenchJobs.seconds(sorted[Math.min(visible - 1, (int) (visible * 0.99))]),
                  BenchJobs.seconds(sorted[visible - 1]));
      String commitText =
          commitLatencies.isEmpty()
              ? "none of "
                  + completeBuckets
                  + " complete buckets committed within "
                  + commitWaitSeconds
                  + " s after the last bucket end"
              : String.format(
                  "%d of %d complete buckets committed; bucket end -> _SUCCESS median %s, max %s",
                  commitLatencies.size(),
                  completeBuckets,
                  BenchJobs.seconds(commitLatencies.get(commitLatencies.size() / 2)),
                  BenchJobs.seconds(commitLatencies.get(commitLatencies.size() - 1)));
      report.add(
          String.format(
              "latency (%s commit, 10 s buckets, delay 10 s, roll 2 s): %,d rows at %.0f rows/s for %d s; produce -> visible: %s (%,d of %,d visible);"
                  + " commit: %s",
              trigger, total, rate, seconds, visibleText, visible, total, commitText));
      System.out.println(report.get(report.size() - 1));
    }
  }

  private static Row eventRow(KafkaTableSpec source, long id, long millis, String payload) {
    LocalDateTime time =
        LocalDateTime.ofEpochSecond(
            Math.floorDiv(millis, 1000L),
            (int) Math.floorMod(millis, 1000L) * 1_000_000,
            ZoneOffset.UTC);
    return Row.withSchema(source.schema())
        .addValues(
            id,
            time,
            payload,
            time.toLocalDate().toString(),
            String.format("%02d", time.getHour()),
            String.format("%02d", time.getMinute()),
            String.format("%02d", time.getSecond() / 10 * 10))
        .build();
  }

  private static String bucketPath(long bucketStartMillis) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(bucketStartMillis / 1000, 0, ZoneOffset.UTC);
    return String.format(
        "dt=%s/hh=%02d/mm=%02d/ss=%02d",
        t.toLocalDate(), t.getHour(), t.getMinute(), t.getSecond());
  }

  /** Partition path (relative) → when its {@code _SUCCESS} appeared. */
  private static Map<String, Long> successFiles(Path root) throws IOException {
    Map<String, Long> found = new HashMap<>();
    if (!Files.isDirectory(root)) {
      return found;
    }
    long now = System.currentTimeMillis();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p :
          (Iterable<Path>)
              paths.filter(p -> p.getFileName().toString().equals("_SUCCESS"))::iterator) {
        found.put(root.relativize(p.getParent()).toString(), visibleTime(p, now));
      }
    }
    return found;
  }

  // ---------------------------------------------------------------- shared

  private void submit(
      SessionCluster cluster, Path jar, String jobName, KafkaTableSpec source, TableSpec table) {
    FlinkPipelineOptions options = PipelineOptionsFactory.create().as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster(cluster.master());
    options.setFilesToStage(List.of(jar.toString()));
    options.setAttachedMode(false);
    options.setJobName(jobName);
    options.setParallelism(PARALLELISM);
    options.setStreaming(true);
    options.setCheckpointingInterval(checkpointMillis);
    options.setCheckpointingMode("EXACTLY_ONCE");
    options.setFasterCopy(true);
    options.setObjectReuse(true);
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("ReadKafka", KafkaTableSource.of(source))
        .apply("WriteTable", FileTableIO.write(table));
    pipeline.run();
  }

  private static List<DataFile> listVisible(TableSpec table) throws IOException {
    Path root = table.options().rootPath();
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    return TableListing.list(
        root,
        table.partitionKeys(),
        table.options().partitionDefaultName(),
        PartitionFilter.all(),
        Optional.empty());
  }

  /** The rename that publishes a file sets its ctime; else the time it was seen. */
  private static long visibleTime(Path file, long polledAt) {
    try {
      Object ctime = Files.getAttribute(file, "unix:ctime");
      if (ctime instanceof FileTime && ((FileTime) ctime).toMillis() <= polledAt) {
        return ((FileTime) ctime).toMillis();
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // no ctime: the poll time
    }
    return polledAt;
  }
}
