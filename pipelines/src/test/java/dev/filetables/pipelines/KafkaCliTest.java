package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.RecordEncoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.pipelines.kafka.LocalKafkaBroker;
import dev.filetables.pipelines.kafka.RowProducer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line with Kafka: {@code run --from <kafka.sql> --to <table.sql>} streams a real
 * broker's topic into a table (in a child JVM, stopped once the table is complete, as a user would
 * press Ctrl-C) and, started again after more records came, resumes from its checkpoint with every
 * record once; {@code demo --kafka} runs end to end, and Kafka definitions fail clearly.
 */
@Tag("cluster")
class KafkaCliTest {
  @TempDir Path dir;

  @Test
  void runStreamsAKafkaTableIntoAFileTable() throws Exception {
    long rows = 3_000;
    try (LocalKafkaBroker broker = LocalKafkaBroker.start(dir.resolve("kafka"))) {
      broker.createTopic(KafkaDemo.TOPIC, 2);
      Path source = dir.resolve("orders_kafka.sql");
      Files.writeString(source, KafkaDemo.sourceDdl(broker.bootstrapServers()));
      Path table = dir.resolve("copy");
      Path sink = dir.resolve("copy.sql");
      Files.writeString(
          sink,
          String.join(
              "\n",
              "CREATE TABLE copy (order_id BIGINT NOT NULL, product STRING, order_ts TIMESTAMP(3), dt STRING, `hour` STRING)",
              "PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
                  + table
                  + "', 'format' = 'json',",
              "  'sink.rolling-policy.rollover-interval' = '1 s', 'sink.rolling-policy.inactivity-interval' = '1 s',",
              "  'sink.rolling-policy.check-interval' = '500 ms',",
              "  'partition.time-extractor.timestamp-pattern' = '$dt $hour:00:00', 'sink.partition-derive.time-column' = 'order_ts')"));
      KafkaTableSpec spec = TableFiles.loadKafka(source.toString());
      produce(broker, spec, 0, rows, 2 * rows);

      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(
          List.of(
              "--add-opens=java.base/java.util=ALL-UNNAMED",
              "--add-opens=java.base/java.lang=ALL-UNNAMED",
              "--add-opens=java.base/java.nio=ALL-UNNAMED",
              "-Xmx1g",
              "-cp",
              System.getProperty("java.class.path"),
              FileTablesCli.class.getName(),
              "run",
              "--from",
              source.toString(),
              "--to",
              sink.toString(),
              "--state-dir",
              dir.resolve("state").toString(),
              "--parallelism=1",
              "--checkpointingInterval=1000"));
      String first = streamUntil(command, dir.resolve("cli.log"), table, rows);
      assertTrue(
          first.contains("streaming Kafka topic orders at " + broker.bootstrapServers()), first);
      assertTrue(
          first.contains("checkpointing every 10 s") || first.contains("runs until stopped"),
          first);
      assertTrue(first.contains("filetables: stopping: cancelling job"), first);

      // produced while no job runs: the same command resumes from the stopped job's checkpoint
      produce(broker, spec, rows, 2 * rows, 2 * rows);
      String second = streamUntil(command, dir.resolve("cli-again.log"), table, 2 * rows);
      assertTrue(second.contains("filetables: resuming the run from its checkpoint"), second);
      Thread.sleep(3_000); // anything read twice would show by now
      assertEquals(2 * rows, jsonLines(table), second);
      assertEquals(2 * rows, distinctOrderIds(table), second);
    }
  }

  /**
   * Runs the CLI in a child JVM until the table shows {@code rows} lines, then stops it as Ctrl-C
   * would (SIGTERM runs the same shutdown hook); returns what it printed.
   */
  private static String streamUntil(List<String> command, Path log, Path table, long rows)
      throws Exception {
    Process cli =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      long lines = 0;
      while (System.nanoTime() < deadline && cli.isAlive()) {
        lines = jsonLines(table);
        if (lines >= rows) {
          break;
        }
        Thread.sleep(500);
      }
      assertTrue(cli.isAlive(), "the streaming run ended by itself:\n" + Files.readString(log));
      assertEquals(rows, lines, Files.readString(log));
      cli.destroy();
      assertTrue(cli.waitFor(60, TimeUnit.SECONDS), "the CLI ends after SIGTERM");
      return Files.readString(log);
    } finally {
      cli.destroyForcibly();
    }
  }

  private static long distinctOrderIds(Path table) throws Exception {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(
              p ->
                  p.getFileName().toString().endsWith(".json")
                      && !p.getFileName().toString().startsWith("."))
          .flatMap(
              f -> {
                try {
                  return Files.readAllLines(f, StandardCharsets.UTF_8).stream();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .filter(l -> !l.isBlank())
          .map(l -> l.replaceFirst(".*\"order_id\":\\s*(\\d+).*", "$1"))
          .distinct()
          .count();
    }
  }

  @Test
  void demoKafkaProducesStreamsCommitsAndStops() throws Exception {
    CliRunner run = CliRunner.run("demo", "--kafka", "--rows", "3000", "--output", dir.toString());
    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.out.contains("rows        3,000 (every record once)"), run.toString());
    assertTrue(run.out.contains("committed   48 partitions with _SUCCESS"), run.toString());
    assertTrue(
        run.out.contains("offsets     3,000 committed to Kafka with checkpoints"), run.toString());
    assertEquals(48, KafkaDemo.successFiles(dir.resolve(KafkaDemo.SINK_NAME)).size());
  }

  @Test
  void kafkaDefinitionsFailClearly() throws Exception {
    Path source = dir.resolve("k.sql");
    Files.writeString(
        source,
        "CREATE TABLE k (id BIGINT) WITH ('connector' = 'kafka', 'properties.bootstrap.servers' = 'h:1',\n"
            + " 'properties.group.id' = 'g', 'format' = 'json')");
    Path sink = dir.resolve("t.sql");
    Files.writeString(
        sink,
        "CREATE TABLE t (id BIGINT) WITH ('path' = '" + dir.resolve("t") + "', 'format' = 'csv')");
    CliRunner missingTopic =
        CliRunner.run("run", "--from", source.toString(), "--to", sink.toString());
    assertEquals(1, missingTopic.exitCode, missingTopic.toString());
    assertTrue(
        missingTopic.err.contains("missing required option 'topic'"), missingTopic.toString());

    Files.writeString(
        source,
        "CREATE TABLE k (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'h:1',\n"
            + " 'properties.group.id' = 'g', 'format' = 'json', 'scan.startup-mode' = 'latest-offset')");
    CliRunner typo = CliRunner.run("run", "--from", source.toString(), "--to", sink.toString());
    assertTrue(typo.err.contains("Did you mean 'scan.startup.mode'?"), typo.toString());

    Files.writeString(
        source,
        "CREATE TABLE k (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 'x', 'properties.bootstrap.servers' = 'h:1',\n"
            + " 'properties.group.id' = 'g', 'format' = 'json')");
    CliRunner where =
        CliRunner.run(
            "run", "--from", source.toString(), "--to", sink.toString(), "--where", "dt='x'");
    assertTrue(where.err.contains("is a Kafka table"), where.toString());

    CliRunner flagWithValue = CliRunner.run("demo", "--kafka=yes");
    assertEquals(CliException.USAGE, flagWithValue.exitCode, flagWithValue.toString());
  }

  /** Orders {@code from .. to-1} of a data set of {@code total}. */
  private static void produce(
      LocalKafkaBroker broker, KafkaTableSpec spec, long from, long to, long total) {
    Schema schema = spec.schema();
    try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
      RowProducer.produce(
          producer,
          KafkaDemo.TOPIC,
          RecordEncoder.of(spec.format(), schema),
          "order_id",
          i -> {
            Row order = OrdersDataset.order(i, total, 7);
            List<Object> values = new ArrayList<>();
            schema.getFieldNames().forEach(name -> values.add(order.getValue(name)));
            return Row.withSchema(schema).attachValues(values);
          },
          from,
          to);
    }
  }

  /**
   * Lines in the visible JSON files; the job renames and deletes hidden files meanwhile, so a walk
   * may retry.
   */
  private static long jsonLines(Path table) throws Exception {
    if (!Files.isDirectory(table)) {
      return 0;
    }
    for (int attempt = 0; ; attempt++) {
      long lines = 0;
      try (Stream<Path> files = Files.walk(table)) {
        for (Path f :
            (Iterable<Path>)
                files.filter(
                        p ->
                            p.getFileName().toString().endsWith(".json")
                                && !p.getFileName().toString().startsWith("."))
                    ::iterator) {
          lines +=
              Files.readAllLines(f, StandardCharsets.UTF_8).stream()
                  .filter(l -> !l.isBlank())
                  .count();
        }
        return lines;
      } catch (java.io.UncheckedIOException e) {
        if (!(e.getCause() instanceof java.nio.file.NoSuchFileException) || attempt >= 10) {
          throw e;
        }
      }
    }
  }
}
