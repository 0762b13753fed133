package dev.filetables.transforms.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.transforms.JvmCollector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecordCoder;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps after KafkaIO: replay dropping, decoding and its errors, and the KafkaIO read settings.
 */
class KafkaRecordStepsTest {
  private static final KafkaTableSpec TABLE =
      KafkaTables.parse(
          "CREATE TABLE t (id BIGINT NOT NULL, name STRING) WITH ('connector' = 'kafka', 'topic' = 'orders',"
              + " 'properties.bootstrap.servers' = 'localhost:9092', 'properties.group.id' = 'g',"
              + " 'format' = 'json')");

  private static KafkaRecord<byte[], byte[]> record(int partition, long offset, String value) {
    return new KafkaRecord<>(
        "orders",
        partition,
        offset,
        0L,
        KafkaTimestampType.CREATE_TIME,
        null,
        KV.of(new byte[0], value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
  }

  private static PipelineOptions direct() {
    PipelineOptions options = PipelineOptionsFactory.create();
    options.setRunner(DirectRunner.class);
    return options;
  }

  @Test
  void dropsRecordsAtOrBelowTheHighestOffsetOfTheirPartition() {
    KafkaRecordCoder<byte[], byte[]> recordCoder =
        KafkaRecordCoder.of(ByteArrayCoder.of(), ByteArrayCoder.of());
    // arrival order of one partition's records, as after a restore: a fresh split re-reads 0..2
    TestStream<KV<String, KafkaRecord<byte[], byte[]>>> stream =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), recordCoder))
            .addElements(KV.of("orders-0", record(0, 0, "a")), KV.of("orders-0", record(0, 1, "b")))
            .addElements(KV.of("orders-1", record(1, 0, "x")))
            .addElements(KV.of("orders-0", record(0, 2, "c")))
            .addElements(KV.of("orders-0", record(0, 0, "a")), KV.of("orders-0", record(0, 1, "b")))
            .addElements(KV.of("orders-0", record(0, 2, "c")), KV.of("orders-0", record(0, 3, "d")))
            .addElements(KV.of("orders-1", record(1, 1, "y")))
            .advanceWatermarkToInfinity();
    String collector = JvmCollector.newCollector();
    Pipeline pipeline = Pipeline.create(direct());
    pipeline
        .apply(stream)
        .apply(ParDo.of(new DropReplayedOffsetsFn()))
        .setCoder(recordCoder)
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    pipeline.run().waitUntilFinish();
    List<String> passed = new ArrayList<>();
    for (Object o : JvmCollector.collected(collector)) {
      @SuppressWarnings("unchecked")
      KafkaRecord<byte[], byte[]> r = (KafkaRecord<byte[], byte[]>) o;
      passed.add(r.getPartition() + "@" + r.getOffset());
    }
    passed.sort(null);
    assertEquals(List.of("0@0", "0@1", "0@2", "0@3", "1@0", "1@1"), passed);
  }

  @Test
  void decodesValuesAndNamesTopicPartitionOffsetOfABadOne() {
    String collector = JvmCollector.newCollector();
    Pipeline good = Pipeline.create(direct());
    good.apply(
            Create.of(record(0, 5, "{\"id\": 1, \"name\": \"a\"}"))
                .withCoder(KafkaRecordCoder.of(ByteArrayCoder.of(), ByteArrayCoder.of())))
        .apply(KafkaTableSource.decodeValues(TABLE))
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    good.run().waitUntilFinish();
    List<Row> rows = JvmCollector.collected(collector);
    assertEquals(1, rows.size());
    assertEquals(1L, rows.get(0).getInt64("id"));

    Pipeline bad = Pipeline.create(direct());
    bad.apply(
            Create.of(record(2, 17, "{\"id\": \"seven\"}"))
                .withCoder(KafkaRecordCoder.of(ByteArrayCoder.of(), ByteArrayCoder.of())))
        .apply(KafkaTableSource.decodeValues(TABLE));
    Throwable failure = assertThrows(RuntimeException.class, () -> bad.run().waitUntilFinish());
    String message = rootMessage(failure);
    assertTrue(
        message.contains("Kafka table `t`: bad record in topic 'orders' partition 2 offset 17"),
        message);
    assertTrue(message.contains("id"), message);
    assertTrue(message.contains("json.ignore-parse-errors"), message);
    assertTrue(message.contains("'source.bad-records' = 'skip'"), message);
  }

  private static KafkaTableSpec table(String badRecordOptions) {
    return KafkaTables.parse(
        "CREATE TABLE t (id BIGINT NOT NULL, name STRING) WITH ('connector' = 'kafka', 'topic' = 'orders',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'properties.group.id' = 'g',"
            + " 'format' = 'json', "
            + badRecordOptions
            + ")");
  }

  /** Good, unparsable, wrong-typed, non-UTF-8 and tombstone records of topic orders. */
  private static List<KafkaRecord<byte[], byte[]>> dirtyRecords() {
    KafkaRecord<byte[], byte[]> notUtf8 =
        new KafkaRecord<>(
            "orders",
            1,
            9,
            0L,
            KafkaTimestampType.CREATE_TIME,
            null,
            KV.of(new byte[0], new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'}));
    return List.of(
        record(0, 0, "{\"id\": 1, \"name\": \"a\"}"),
        record(0, 1, "{\"id\": 2"),
        record(0, 2, "{\"id\": 3, \"name\": \"c\"}"),
        record(1, 7, "{\"id\": \"seven\"}"),
        notUtf8,
        record(2, 4, null));
  }

  private static List<Long> decodedIds(KafkaTableSpec table) {
    String collector = JvmCollector.newCollector();
    Pipeline pipeline = Pipeline.create(direct());
    pipeline
        .apply(Create.of(dirtyRecords()).withCoder(KafkaTableSource.RECORD_CODER))
        .apply(KafkaTableSource.decodeValues(table))
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    pipeline.run().waitUntilFinish();
    List<Long> ids = new ArrayList<>();
    for (Object o : JvmCollector.collected(collector)) {
      ids.add(((Row) o).getInt64("id"));
    }
    ids.sort(null);
    return ids;
  }

  @Test
  void skipPolicyDropsBadRecordsAndKeepsTheRest() {
    assertEquals(List.of(1L, 3L), decodedIds(table("'source.bad-records' = 'skip'")));
    // Flink's switch means the same
    assertEquals(List.of(1L, 3L), decodedIds(table("'json.ignore-parse-errors' = 'true'")));
  }

  @Test
  void deadLetterPolicyWritesEveryBadRecordWithTopicPartitionOffsetAndRawBytes(@TempDir Path dir)
      throws Exception {
    Path deadLetters = dir.resolve("dead");
    KafkaTableSpec table =
        table(
            "'source.bad-records' = 'dead-letter', 'source.bad-records.dead-letter.path' = '"
                + deadLetters
                + "'");
    assertEquals(List.of(1L, 3L), decodedIds(table));

    List<JsonNode> rows = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    try (Stream<Path> files = Files.walk(deadLetters)) {
      for (Path file :
          (Iterable<Path>)
              files.filter(p -> p.getFileName().toString().endsWith(".json"))::iterator) {
        assertTrue(file.getParent().getFileName().toString().startsWith("dt="), file.toString());
        for (String line : Files.readAllLines(file)) {
          rows.add(json.readTree(line));
        }
      }
    }
    rows.sort(
        java.util.Comparator.comparing(
            r -> r.get("source_file").asText() + "@" + r.get("byte_offset").asLong()));
    assertEquals(4, rows.size(), rows.toString());
    List<String> where = new ArrayList<>();
    for (JsonNode r : rows) {
      where.add(
          r.get("source_file").asText()
              + "@"
              + r.get("byte_offset").asLong()
              + " "
              + r.get("position").asText());
      assertEquals("record", r.get("kind").asText());
      assertFalse(r.get("error_message").asText().isEmpty(), r.toString());
    }
    assertEquals(
        List.of(
            "kafka://orders/0@1 offset 1",
            "kafka://orders/1@7 offset 7",
            "kafka://orders/1@9 offset 9",
            "kafka://orders/2@4 offset 4"),
        where);
    assertEquals("{\"id\": 2", rows.get(0).get("raw_text").asText());
    assertEquals(
        "{\"id\": 2",
        new String(
            Base64.getDecoder().decode(rows.get(0).get("raw_base64").asText()),
            StandardCharsets.UTF_8));
    // not UTF-8: no text, the bytes as base64
    assertTrue(
        rows.get(2).path("raw_text").isNull() || rows.get(2).path("raw_text").isMissingNode(),
        rows.get(2).toString());
    assertArrayEquals(
        new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'},
        Base64.getDecoder().decode(rows.get(2).get("raw_base64").asText()));
    // a tombstone has no bytes at all
    assertTrue(
        rows.get(3).path("raw_base64").isNull() || rows.get(3).path("raw_base64").isMissingNode(),
        rows.get(3).toString());
    assertTrue(
        rows.get(3).get("error_message").asText().contains("tombstone"), rows.get(3).toString());
  }

  @Test
  void readsWithOffsetsCommittedInFinalizeAndAutoCommitOff() {
    KafkaIO.Read<byte[], byte[]> read = KafkaTableSource.of(TABLE).kafkaRead();
    assertTrue(read.isCommitOffsetsInFinalizeEnabled());
    Map<String, Object> config = read.getConsumerConfig();
    assertEquals(false, config.get("enable.auto.commit"));
    assertEquals("g", config.get("group.id"));
    assertEquals("localhost:9092", config.get("bootstrap.servers"));
    assertEquals(List.of("orders"), read.getTopics());
  }

  private static String rootMessage(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append(" | ");
    }
    return all.toString();
  }
}
