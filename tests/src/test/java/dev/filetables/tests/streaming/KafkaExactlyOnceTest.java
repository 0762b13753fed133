package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.format.RecordEncoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.kafka.LocalKafkaBroker;
import dev.filetables.pipelines.kafka.RowProducer;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.transforms.kafka.KafkaTableSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 7, point 3: Kafka → hourly Parquet table on the Flink runner with EXACTLY_ONCE checkpoints,
 * from a real broker (child JVM, KRaft). With injected task failures, and with a
 * stop-with-savepoint and a new job restored from it (where Beam 2.62 reads restored Kafka splits
 * again next to fresh ones, apache/beam#31313), every produced record is in the table exactly once,
 * the group's committed offsets reach the end of every partition (committed with checkpoints only:
 * auto-commit is off), and once the job is drained every hourly partition is committed with {@code
 * _SUCCESS}.
 */
class KafkaExactlyOnceTest {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaExactlyOnceTest.class);
  private static final int KAFKA_PARTITIONS = 3;
  private static final Orders ORDERS = Orders.withPartitions(4);

  @TempDir static Path brokerDir;
  private static LocalKafkaBroker broker;

  @TempDir Path dir;

  @BeforeAll
  static void startBroker() throws Exception {
    broker = LocalKafkaBroker.start(brokerDir);
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void everyRecordOnceDespiteInjectedFailures(TestInfo test) throws Exception {
    long rows = 12_000;
    String topic = "orders-failures";
    String group = "failures-to-table";
    broker.createTopic(topic, KAFKA_PARTITIONS);
    KafkaTableSpec source = kafkaTable(topic, group);
    produce(source, topic, 0, rows);

    TableSpec table = sinkTable("orders_failures");
    FailureInjector.Plan plan =
        FailureInjector.random(FailureSeeds.seed(test), 4, rows / 10, rows * 8 / 10);
    LOG.info("Failure plan: {}", plan);
    LiveReader live = LiveReader.start(List.of(table), ORDERS, rows);
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      JobID job =
          cluster.submit(
              pipeline(StreamingScenarios.options(cluster, "kafka-failures"), source, plan, table));
      awaitTable(cluster, job, table, group, rows, Duration.ofSeconds(150));
      drain(cluster, job);
      live.stopAndAssertNothingWrong("Kafka to table, " + plan);
    } finally {
      live.close();
      FailureInjector.forget(plan);
    }
    assertEquals(plan.planned(), plan.injected(), "every planned failure injected once: " + plan);
    assertExactlyOnceAndCommitted(table, group, rows);
  }

  @Test
  void everyRecordOnceAcrossStopWithSavepointAndRestore() throws Exception {
    long rows = 10_000;
    String topic = "orders-savepoint";
    String group = "savepoint-to-table";
    broker.createTopic(topic, KAFKA_PARTITIONS);
    KafkaTableSpec source = kafkaTable(topic, group);
    produce(source, topic, 0, rows / 2);

    TableSpec table = sinkTable("orders_savepoint");
    FailureInjector.Plan none = FailureInjector.none();
    // The drained stop commits every partition with the first half of its rows (the watermark
    // jumps to the end); the second half arrives later as late data. So success files are not
    // judged here, only that no row shows twice, disappears or sits in a partial file.
    LiveReader live = LiveReader.start(table, IndependentReader::rowsOf);
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), 2 * StreamingScenarios.PARALLELISM)) {
      JobID first =
          cluster.submit(
              pipeline(StreamingScenarios.options(cluster, "kafka-first"), source, none, table));
      cluster.awaitAllTasksRunning(first, Duration.ofSeconds(60));
      awaitVisible(table, rows / 4, Duration.ofSeconds(90));
      String savepoint = cluster.stopWithSavepoint(first);
      cluster.awaitTermination(first, Duration.ofSeconds(60));
      ExactlyOnceCheck afterStop = ExactlyOnceCheck.of(table, ORDERS, rows);
      LOG.info("After stop-with-savepoint {}: {}", savepoint, afterStop);
      assertEquals(List.of(), afterStop.consistencyProblems(), afterStop.toString());

      produce(source, topic, rows / 2, rows);
      FlinkPipelineOptions restored = StreamingScenarios.options(cluster, "kafka-second");
      restored.setSavepointPath(savepoint);
      restored.setAllowNonRestoredState(false);
      JobID second = cluster.submit(pipeline(restored, source, none, table));
      awaitTable(cluster, second, table, group, rows, Duration.ofSeconds(150));
      drain(cluster, second);
      live.stopAndAssertNothingWrong("Kafka to table across stop-with-savepoint and restore");
    } finally {
      live.close();
      FailureInjector.forget(none);
    }
    assertExactlyOnceAndCommitted(table, group, rows);
  }

  /** Orders as JSON records; event time from order_time, 1 s out of orderness, idle after 2 s. */
  private static KafkaTableSpec kafkaTable(String topic, String group) {
    return KafkaTables.parse(
        String.join(
            "\n",
            "CREATE TABLE orders_in (",
            "  order_id BIGINT NOT NULL, customer STRING NOT NULL, product STRING NOT NULL,",
            "  quantity INT NOT NULL, price DECIMAL(10, 2) NOT NULL, order_time TIMESTAMP(3) NOT NULL,",
            "  dt STRING NOT NULL, `hour` STRING NOT NULL,",
            "  WATERMARK FOR order_time AS order_time - INTERVAL '1' SECOND",
            ") WITH (",
            "  'connector' = 'kafka', 'topic' = '" + topic + "',",
            "  'properties.bootstrap.servers' = '" + broker.bootstrapServers() + "',",
            "  'properties.group.id' = '" + group + "',",
            "  'scan.startup.mode' = 'earliest-offset', 'format' = 'json',",
            "  'scan.watermark.idle-timeout' = '2 s'",
            ")"));
  }

  private TableSpec sinkTable(String name) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("sink.rolling-policy.rollover-interval", "1 s");
    options.put("sink.rolling-policy.inactivity-interval", "1 s");
    options.put("sink.rolling-policy.check-interval", "500 ms");
    options.put("partition.time-extractor.timestamp-pattern", "$dt $hour:00:00");
    options.put("sink.partition-commit.trigger", "partition-time");
    options.put("sink.partition-commit.policy.kind", "success-file");
    return Orders.table(
        name, StreamingScenarios.tablePath(dir, name).toString(), "parquet", options);
  }

  private static void produce(KafkaTableSpec source, String topic, long from, long to) {
    RecordEncoder encoder = RecordEncoder.of(source.format(), source.schema());
    try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
      RowProducer.produce(producer, topic, encoder, "order_id", ORDERS::row, from, to);
    }
  }

  private static Pipeline pipeline(
      FlinkPipelineOptions options,
      KafkaTableSpec source,
      FailureInjector.Plan plan,
      TableSpec table) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("ReadOrders", KafkaTableSource.of(source))
        .apply("InjectFailures", ParDo.of(new FailureInjector(plan)))
        .setRowSchema(source.schema())
        .apply("Write " + table.name(), StreamingTables.write(table));
    return pipeline;
  }

  /**
   * Waits until the table shows {@code rows} rows, the group's committed offsets add up to {@code
   * rows} and every hourly partition has its success file; fails early if the job ends.
   */
  private static void awaitTable(
      LocalFlinkCluster cluster,
      JobID job,
      TableSpec table,
      String group,
      long rows,
      Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String state = "";
    while (System.nanoTime() < deadline) {
      JobStatus status = cluster.status(job);
      if (status.isGloballyTerminalState()) {
        throw new AssertionError(
            "job " + job + " ended " + status + " before the table was complete; " + state);
      }
      long visible = TableContents.scan(table).rowCount();
      long committed = committedTotal(group);
      state =
          visible
              + " visible rows, "
              + committed
              + " committed offsets, success files "
              + successFiles(table);
      if (visible >= rows && committed >= rows) {
        LOG.info("Table complete: {}", state);
        return;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("table not complete within " + timeout + ": " + state);
  }

  /**
   * Stops the job draining it (the watermark reaches the end of time), which commits the partitions
   * still pending: on the Flink runner the sink's watermark stays behind the source's while the job
   * runs (a hold of the streaming sink; see the report), so not every hour commits before.
   */
  private static void drain(LocalFlinkCluster cluster, JobID job) throws Exception {
    String savepoint = cluster.drainWithSavepoint(job);
    cluster.awaitTermination(job, Duration.ofSeconds(60));
    LOG.info("Drained job {} with savepoint {}", job, savepoint);
  }

  private static void awaitVisible(TableSpec table, long rows, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (TableContents.scan(table).rowCount() < rows) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("fewer than " + rows + " rows visible within " + timeout);
      }
      Thread.sleep(500);
    }
  }

  private static void assertExactlyOnceAndCommitted(TableSpec table, String group, long rows)
      throws Exception {
    ExactlyOnceCheck check = ExactlyOnceCheck.of(table, ORDERS, rows);
    LOG.info("{}", check);
    assertEquals(List.of(), check.exactlyOnceProblems(), check.toString());
    assertEquals(rows, check.visibleRows, check.toString());
    assertEquals(List.of(), StreamingTables.strangeVisibleFiles(check.contents), table.name());
    assertEquals(
        rows,
        committedTotal(group),
        "committed offsets of " + group + ": " + broker.committedOffsets(group));
    assertEquals(
        ORDERS.partitions(), successFiles(table).size(), "success files " + successFiles(table));
  }

  private static long committedTotal(String group) {
    return broker.committedOffsets(group).values().stream().mapToLong(Long::longValue).sum();
  }

  private static List<String> successFiles(TableSpec table) throws Exception {
    Path root = table.options().rootPath();
    List<String> found = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return found;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .filter(p -> p.getFileName().toString().equals("_SUCCESS"))
          .forEach(p -> found.add(root.relativize(p.getParent()).toString()));
    }
    found.sort(null);
    return found;
  }
}
