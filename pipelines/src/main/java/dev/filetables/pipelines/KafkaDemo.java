package dev.filetables.pipelines;

import dev.filetables.io.format.RecordEncoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.kafka.LocalKafkaBroker;
import dev.filetables.pipelines.kafka.RowProducer;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.kafka.KafkaTableSource;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.flink.api.common.JobID;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * {@code demo --kafka [--rows N] [--output DIR] [--seed S]}: starts a Kafka broker (KRaft,
 * loopback, a child JVM), produces N realistic orders as JSON into topic {@value #TOPIC}, and
 * streams them into a dt/hour-partitioned Parquet table on an embedded Flink cluster with
 * checkpoints, partition-time commits and {@code _SUCCESS} files; once every record is in the table
 * (the group's committed offsets reach the end of the topic) it stops the job with a drained
 * savepoint, which commits the last partitions, prints what was committed and stops the broker.
 */
final class KafkaDemo {
  static final long DEFAULT_ROWS = 100_000;
  static final String TOPIC = "orders";
  static final String GROUP = "orders-to-table";
  static final String SOURCE_NAME = "orders_kafka";
  static final String SINK_NAME = "orders_from_kafka";
  static final int KAFKA_PARTITIONS = 4;
  static final int PARALLELISM = 2;
  static final long CHECKPOINT_MILLIS = 2_000;
  private static final Duration TIMEOUT = Duration.ofMinutes(20);

  private KafkaDemo() {}

  static int run(long rows, long seed, Path output, CliContext context) throws Exception {
    Path tableDir = output.resolve(SINK_NAME);
    Path work = output.resolve(".kafka-demo");
    DemoCommand.clearPreviousDemo(tableDir);
    deleteTree(work);
    Files.createDirectories(work);
    PrintStream err = context.err();

    err.println("filetables demo --kafka: starting a Kafka broker (KRaft, child JVM) ...");
    try (LocalKafkaBroker broker = LocalKafkaBroker.start(work.resolve("kafka"))) {
      Path sourceDdl = output.resolve(SOURCE_NAME + ".sql");
      Path sinkDdl = output.resolve(SINK_NAME + ".sql");
      Files.writeString(sourceDdl, sourceDdl(broker.bootstrapServers()), StandardCharsets.UTF_8);
      Files.writeString(sinkDdl, sinkDdl(tableDir.toString()), StandardCharsets.UTF_8);
      KafkaTableSpec source = TableFiles.loadKafka(sourceDdl.toString());
      TableSpec sink = TableFiles.load(sinkDdl.toString());
      ColumnMatch columns = ColumnMatch.between(source.name(), source.schema(), sink);

      broker.createTopic(TOPIC, KAFKA_PARTITIONS);
      long produceStart = System.nanoTime();
      produce(broker, source, rows, seed);
      long produceMillis = (System.nanoTime() - produceStart) / 1_000_000;
      err.println(
          "filetables demo --kafka: produced "
              + Human.count(rows)
              + " orders into topic '"
              + TOPIC
              + "' at "
              + broker.bootstrapServers()
              + " in "
              + Human.duration(produceMillis)
              + "; streaming them into "
              + tableDir
              + " ...");

      long jobStart = System.nanoTime();
      try (LocalFlinkCluster cluster =
          LocalFlinkCluster.start(work.resolve("flink"), PARALLELISM)) {
        FlinkPipelineOptions options = cluster.options("kafka-demo-" + System.currentTimeMillis());
        options.setParallelism(PARALLELISM);
        options.setCheckpointingInterval(CHECKPOINT_MILLIS);
        options.setCheckpointingMode("EXACTLY_ONCE");
        options.setStreaming(true);
        options.setFasterCopy(true);
        Pipeline pipeline = Pipeline.create(options);
        String writeUuid = java.util.UUID.randomUUID().toString(); // for the post-job publish
        pipeline
            .apply("ReadKafka", KafkaTableSource.of(source))
            .apply("MatchSinkColumns", columns)
            .apply("WriteOrders", FileTableIO.write(sink).withWriteUuid(writeUuid));
        JobID job = cluster.submit(pipeline);

        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String last = "";
        while (true) {
          long offsets = committedOffsets(broker);
          // reading the table competes with the job: only once every record has been read
          long visible = offsets >= rows ? TableSummary.of(sink).rows : 0;
          String progress =
              "  "
                  + Human.count(offsets)
                  + " of "
                  + Human.count(rows)
                  + " records read (committed offsets), "
                  + (offsets >= rows ? Human.count(visible) + " rows visible in the table, " : "")
                  + successFiles(tableDir).size()
                  + " partition(s) committed (_SUCCESS)";
          if (!progress.equals(last)) {
            err.println(progress);
            last = progress;
          }
          if (visible >= rows) {
            break;
          }
          if (cluster.status(job).isGloballyTerminalState()) {
            throw new CliException("the Kafka demo job ended early: " + cluster.status(job));
          }
          if (System.nanoTime() > deadline) {
            throw new CliException(
                "the Kafka demo job did not write every record within " + TIMEOUT);
          }
          Thread.sleep(2000);
        }
        err.println(
            "filetables demo --kafka: every record is in the table; stopping the job with a drained savepoint"
                + " (the watermark reaches the end, the last partitions commit) ...");
        String savepoint = cluster.drainWithSavepoint(job);
        cluster.awaitTermination(job, Duration.ofSeconds(300));
        if (cluster.status(job) == org.apache.flink.api.common.JobStatus.FINISHED) {
          PublishLeftoversCommand.afterJob(
              sink, writeUuid, org.apache.beam.sdk.PipelineResult.State.DONE, err);
        }
        long jobMillis = (System.nanoTime() - jobStart) / 1_000_000;

        TableSummary contents = TableSummary.of(sink);
        List<String> committed = successFiles(tableDir);
        PrintStream out = context.out();
        out.println(
            "FileTables demo --kafka: Kafka topic -> Parquet table, partition-time commits");
        out.println(
            "  topic       "
                + TOPIC
                + " ("
                + KAFKA_PARTITIONS
                + " partitions) at "
                + broker.bootstrapServers()
                + ", group "
                + GROUP);
        out.println(
            "  produced    "
                + Human.count(rows)
                + " orders (JSON) in "
                + Human.duration(produceMillis));
        out.println(
            "  table       " + tableDir + "  (Parquet, PARTITIONED BY dt, hour from order_ts)");
        out.println(
            "  runner      embedded Flink cluster, parallelism "
                + PARALLELISM
                + ", checkpoints every "
                + CHECKPOINT_MILLIS / 1000
                + " s");
        out.println(
            "  rows        "
                + Human.count(contents.rows)
                + (contents.rows == rows
                    ? " (every record once)"
                    : " (expected " + Human.count(rows) + ")"));
        out.println(
            "  files       "
                + Human.count(contents.files)
                + " ("
                + Human.bytes(contents.bytes)
                + ")");
        out.println(
            "  committed   "
                + committed.size()
                + " partitions with _SUCCESS, e.g. "
                + String.join(", ", committed.subList(0, Math.min(3, committed.size()))));
        out.println(
            "  offsets     "
                + Human.count(committedOffsets(broker))
                + " committed to Kafka with checkpoints");
        out.println(
            "  elapsed     "
                + Human.duration(jobMillis)
                + " (job), "
                + Human.rate(contents.rows, jobMillis)
                + " rows/s");
        out.println("  savepoint   " + savepoint);
        out.println("  DDL         " + sourceDdl + " (Kafka source), " + sinkDdl + " (table)");
        out.println("Query it next, e.g.:");
        out.println(
            "  "
                + System.getProperty("filetables.launcher", "bin/filetables")
                + " query "
                + sinkDdl
                + " --where \"dt='2020-05-20' AND hour='12'\" --limit 5");
        if (contents.rows != rows) {
          throw new CliException(
              "the table holds " + contents.rows + " rows, not the " + rows + " produced");
        }
      }
    }
    return 0;
  }

  /** The Kafka source: orders as JSON, event time order_ts with 5 s out of orderness. */
  static String sourceDdl(String bootstrapServers) {
    return String.join(
        "\n",
        "-- Kafka source of `filetables demo --kafka`: one JSON order per record.",
        "CREATE TABLE " + SOURCE_NAME + " (",
        OrdersDataset.ORDER_COLUMNS,
        "  WATERMARK FOR order_ts AS order_ts - INTERVAL '5' SECOND",
        ") WITH (",
        "  'connector' = 'kafka',",
        "  'topic' = '" + TOPIC + "',",
        "  'properties.bootstrap.servers' = '" + bootstrapServers + "',",
        "  'properties.group.id' = '" + GROUP + "',",
        "  'scan.startup.mode' = 'earliest-offset',",
        "  'scan.watermark.idle-timeout' = '5 s',",
        "  'format' = 'json'",
        ");",
        "");
  }

  /** The table: hourly Parquet partitions derived from order_ts, committed by partition time. */
  static String sinkDdl(String path) {
    return String.join(
        "\n",
        "-- Table written by `filetables demo --kafka`.",
        "CREATE TABLE " + SINK_NAME + " (",
        OrdersDataset.ORDER_COLUMNS,
        "  dt STRING,",
        "  `hour` STRING",
        ") PARTITIONED BY (dt, `hour`) WITH (",
        "  'connector' = 'filesystem',",
        "  'path' = '" + path.replace("'", "''") + "',",
        "  'format' = 'parquet',",
        "  'sink.rolling-policy.rollover-interval' = '10 s',",
        "  'sink.rolling-policy.inactivity-interval' = '5 s',",
        "  'sink.rolling-policy.check-interval' = '1 s',",
        "  'partition.time-extractor.timestamp-pattern' = '$dt $hour:00:00',",
        "  'sink.partition-derive.time-column' = 'order_ts',",
        "  'sink.partition-commit.trigger' = 'partition-time',",
        "  'sink.partition-commit.delay' = '1 h',",
        "  'sink.partition-commit.policy.kind' = 'success-file'",
        ");",
        "");
  }

  private static void produce(
      LocalKafkaBroker broker, KafkaTableSpec source, long rows, long seed) {
    Schema schema = source.schema();
    RecordEncoder encoder = RecordEncoder.of(source.format(), schema);
    try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
      RowProducer.produce(
          producer,
          TOPIC,
          encoder,
          "order_id",
          i -> {
            Row order = OrdersDataset.order(i, rows, seed);
            List<Object> values = new ArrayList<>(schema.getFieldCount());
            for (Schema.Field field : schema.getFields()) {
              values.add(order.getValue(field.getName()));
            }
            return Row.withSchema(schema).attachValues(values);
          },
          0,
          rows);
    }
  }

  private static long committedOffsets(LocalKafkaBroker broker) {
    return broker.committedOffsets(GROUP).values().stream().mapToLong(Long::longValue).sum();
  }

  static List<String> successFiles(Path tableDir) throws Exception {
    List<String> found = new ArrayList<>();
    if (!Files.isDirectory(tableDir)) {
      return found;
    }
    try (Stream<Path> paths = Files.walk(tableDir)) {
      paths
          .filter(p -> p.getFileName().toString().equals("_SUCCESS"))
          .forEach(p -> found.add(tableDir.relativize(p.getParent()).toString()));
    }
    found.sort(null);
    return found;
  }

  private static void deleteTree(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
