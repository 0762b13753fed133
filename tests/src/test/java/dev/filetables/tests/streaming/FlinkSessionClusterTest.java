package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.RecordEncoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.FileTablesCli;
import dev.filetables.pipelines.kafka.LocalKafkaBroker;
import dev.filetables.pipelines.kafka.RowProducer;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 7, points 4 and 5: the job jar on a real Flink session cluster. The scripted cluster
 * (JobManager and TaskManager in their own JVMs) and a real Kafka broker (child JVM) are started;
 * orders are produced into a topic; a client JVM started from the job jar submits {@code filetables
 * run --from kafka.sql --to table.sql} (Kafka → hourly Parquet table with partition-time commit);
 * once data is visible the job is stopped with a savepoint through the REST API; more orders are
 * produced; the same command is submitted again from the savepoint; and the table must end up
 * holding every produced record exactly once, with the group's offsets committed and, after the job
 * is drained, every partition committed with {@code _SUCCESS}. Cluster and broker are stopped
 * whatever happens.
 */
class FlinkSessionClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkSessionClusterTest.class);
  private static final long ROWS = 6_000;
  private static final int PARTITIONS = 4;
  private static final int KAFKA_PARTITIONS = 2;
  private static final String TOPIC = "orders";
  private static final String GROUP = "orders-to-table";
  private static final Orders ORDERS = Orders.withPartitions(PARTITIONS);

  @TempDir Path dir;

  /**
   * The job the cluster runs: main class and its arguments (the table it writes is {@link
   * #sinkDdl}): the command line's {@code run}, as an operator submits it from the job jar.
   */
  private static String jobMainClass() {
    return FileTablesCli.class.getName();
  }

  private static List<String> jobArgs(Path sourceDdl, Path sinkDdl) {
    return List.of(
        "run",
        "--from",
        sourceDdl.toString(),
        "--to",
        sinkDdl.toString(),
        "--state-dir",
        sinkDdl.resolveSibling("run-state").toString(),
        // nothing beyond what users give: the sink needs no stable-input drain (it has no
        // @RequiresStableInput step), a drained stop publishes at its synchronous savepoint
        "--checkpointingInterval=1000");
  }

  /**
   * Orders as JSON; event time from order_time, 1 s out of orderness, idle partitions after 2 s.
   */
  private static String sourceDdl(String bootstrapServers) {
    return String.join(
        "\n",
        "CREATE TABLE orders_kafka (",
        "  order_id BIGINT NOT NULL, customer STRING NOT NULL, product STRING NOT NULL,",
        "  quantity INT NOT NULL, price DECIMAL(10, 2) NOT NULL, order_time TIMESTAMP(3) NOT NULL,",
        "  dt STRING NOT NULL, `hour` STRING NOT NULL,",
        "  WATERMARK FOR order_time AS order_time - INTERVAL '1' SECOND",
        ") WITH (",
        "  'connector' = 'kafka', 'topic' = '" + TOPIC + "',",
        "  'properties.bootstrap.servers' = '" + bootstrapServers + "',",
        "  'properties.group.id' = '" + GROUP + "',",
        "  'scan.startup.mode' = 'earliest-offset', 'format' = 'json',",
        "  'scan.watermark.idle-timeout' = '2 s'",
        ")");
  }

  /** The hourly Parquet table of {@link Orders}: files roll every second, partition-time commit. */
  private static String sinkDdl(Path table) {
    return String.join(
        "\n",
        "CREATE TABLE orders (",
        "  order_id BIGINT NOT NULL, customer STRING NOT NULL, product STRING NOT NULL,",
        "  quantity INT NOT NULL, price DECIMAL(10, 2) NOT NULL, order_time TIMESTAMP(3) NOT NULL,",
        "  dt STRING NOT NULL, `hour` STRING NOT NULL",
        ") PARTITIONED BY (dt, `hour`) WITH (",
        "  'connector' = 'filesystem', 'path' = '" + table + "', 'format' = 'parquet',",
        "  'sink.rolling-policy.rollover-interval' = '1 s', 'sink.rolling-policy.inactivity-interval' = '1 s',",
        "  'sink.rolling-policy.check-interval' = '500 ms',",
        "  'partition.time-extractor.timestamp-pattern' = '$dt $hour:00:00',",
        "  'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.policy.kind' = 'success-file'",
        ")");
  }

  @Test
  void kafkaToTableStopWithSavepointAndRestoreOnSessionCluster() throws Exception {
    Path tableDir = dir.resolve("orders");
    Path sourceDdl = dir.resolve("orders_kafka.sql");
    Path sinkDdl = dir.resolve("orders.sql");
    Files.writeString(sinkDdl, sinkDdl(tableDir));
    TableSpec table = DdlParser.parse(Files.readString(sinkDdl));
    long start = System.nanoTime();
    try (LocalKafkaBroker broker = LocalKafkaBroker.start(dir.resolve("kafka"));
        ScriptedFlinkCluster cluster = ScriptedFlinkCluster.start(dir.resolve("cluster"))) {
      LOG.info(
          "Broker {} and cluster up in {} s (REST port {})",
          broker.bootstrapServers(),
          seconds(start),
          cluster.restPort());
      Files.writeString(sourceDdl, sourceDdl(broker.bootstrapServers()));
      KafkaTableSpec source = KafkaTables.parse(Files.readString(sourceDdl));
      broker.createTopic(TOPIC, KAFKA_PARTITIONS);
      produce(broker, source, 0, ROWS / 2);

      String first = cluster.submit(jobMainClass(), jobArgs(sourceDdl, sinkDdl), "kafka-first");
      cluster.awaitCheckpoints(first, 1, Duration.ofMinutes(3));
      awaitVisibleRows(cluster, first, table, ROWS / 10, Duration.ofMinutes(3));
      String savepoint =
          cluster.stopWithSavepoint(
              first, cluster.workDir().resolve("savepoints"), false, Duration.ofMinutes(2));
      assertEquals(
          "FINISHED",
          cluster.awaitTermination(first, Duration.ofMinutes(1)),
          cluster.failure(first));
      ExactlyOnceCheck afterStop = ExactlyOnceCheck.of(table, ORDERS, ROWS);
      LOG.info("First job stopped with savepoint {}: {}", savepoint, afterStop);
      assertEquals(List.of(), afterStop.consistencyProblems(), "after stop: " + afterStop);
      assertTrue(afterStop.visibleRows <= ROWS / 2, "only produced rows are visible: " + afterStop);

      // produced while no job runs: the restored job must take them up from the savepoint's offsets
      produce(broker, source, ROWS / 2, ROWS);
      List<String> restoreArgs = new ArrayList<>(jobArgs(sourceDdl, sinkDdl));
      restoreArgs.add("--savepointPath=" + savepoint);
      String second = cluster.submit(jobMainClass(), restoreArgs, "kafka-restored");
      awaitVisibleRows(cluster, second, table, ROWS, Duration.ofMinutes(3));
      awaitCommittedOffsets(broker, ROWS, Duration.ofMinutes(1));
      // drained: the watermark reaches the end of time, so every partition is committed
      cluster.stopWithSavepoint(
          second, cluster.workDir().resolve("savepoints"), true, Duration.ofMinutes(2));
      assertEquals(
          "FINISHED",
          cluster.awaitTermination(second, Duration.ofMinutes(1)),
          cluster.failure(second));

      ExactlyOnceCheck afterRestore = ExactlyOnceCheck.of(table, ORDERS, ROWS);
      LOG.info("Restored job drained: {} ({} s in all)", afterRestore, seconds(start));
      assertEquals(List.of(), afterRestore.exactlyOnceProblems(), "after restore: " + afterRestore);
      assertEquals(ROWS, afterRestore.visibleRows, afterRestore.toString());
      assertEquals(List.of(), StreamingTables.strangeVisibleFiles(afterRestore.contents));
      assertEquals(PARTITIONS, partitions(tableDir).size(), "partitions " + partitions(tableDir));
      assertEquals(List.of(), uncommittedPartitions(tableDir), "partitions without _SUCCESS");
      assertEquals(
          ROWS, committedTotal(broker), "committed offsets " + broker.committedOffsets(GROUP));
    }
  }

  private static void produce(LocalKafkaBroker broker, KafkaTableSpec source, long from, long to) {
    RecordEncoder encoder = RecordEncoder.of(source.format(), source.schema());
    try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
      RowProducer.produce(producer, TOPIC, encoder, "order_id", ORDERS::row, from, to);
    }
  }

  private static long committedTotal(LocalKafkaBroker broker) {
    return broker.committedOffsets(GROUP).values().stream().mapToLong(Long::longValue).sum();
  }

  /** Offsets are committed with checkpoints: waits until they cover every produced record. */
  private static void awaitCommittedOffsets(LocalKafkaBroker broker, long rows, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (committedTotal(broker) < rows) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "committed offsets "
                + broker.committedOffsets(GROUP)
                + " < "
                + rows
                + " after "
                + timeout);
      }
      Thread.sleep(500);
    }
  }

  /** Waits until readers see at least {@code rows} rows of the table while the job runs. */
  private static void awaitVisibleRows(
      ScriptedFlinkCluster cluster, String job, TableSpec table, long rows, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long visible = 0;
    while (System.nanoTime() < deadline) {
      String state = cluster.state(job);
      if (ScriptedFlinkCluster.isTerminal(state)) {
        throw new AssertionError(
            "job "
                + job
                + " ended "
                + state
                + " with "
                + visible
                + " visible rows"
                + cluster.failure(job));
      }
      visible = TableContents.scan(table).rowCount();
      if (visible >= rows) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("only " + visible + " < " + rows + " visible rows after " + timeout);
  }

  /** Partition directories dt=…/hour=…. */
  private static List<Path> partitions(Path tableDir) throws Exception {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> days = Files.list(tableDir)) {
      for (Path day :
          (Iterable<Path>)
              days.filter(p -> p.getFileName().toString().startsWith("dt="))::iterator) {
        try (Stream<Path> hours = Files.list(day)) {
          hours.filter(p -> p.getFileName().toString().startsWith("hour=")).forEach(found::add);
        }
      }
    }
    return found;
  }

  /** Partition directories without a success file. */
  private static List<Path> uncommittedPartitions(Path tableDir) throws Exception {
    List<Path> missing = new ArrayList<>();
    for (Path partition : partitions(tableDir)) {
      if (!Files.exists(partition.resolve("_SUCCESS"))) {
        missing.add(partition);
      }
    }
    return missing;
  }

  private static long seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000_000;
  }
}
