package dev.filetables.transforms.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.transforms.JvmCollector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/** The steps after KafkaIO: replay dropping, decoding and its errors, and the KafkaIO read settings. */
class KafkaRecordStepsTest {
  private static final KafkaTableSpec TABLE =
      KafkaTables.parse(
          "CREATE TABLE t (id BIGINT NOT NULL, name STRING) WITH ('connector' = 'kafka', 'topic' = 'orders',"
              + " 'properties.bootstrap.servers' = 'localhost:9092', 'properties.group.id' = 'g',"
              + " 'format' = 'json')");

  private static KafkaRecord<byte[], byte[]> record(int partition, long offset, String value) {
    return new KafkaRecord<>(
        "orders", partition, offset, 0L, KafkaTimestampType.CREATE_TIME, null,
        KV.of(new byte[0], value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
  }

  private static PipelineOptions direct() {
    PipelineOptions options = PipelineOptionsFactory.create();
    options.setRunner(DirectRunner.class);
    return options;
  }

  @Test
  void dropsRecordsAtOrBelowTheHighestOffsetOfTheirPartition() {
    KafkaRecordCoder<byte[], byte[]> recordCoder = KafkaRecordCoder.of(ByteArrayCoder.of(), ByteArrayCoder.of());
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
    good.apply(Create.of(record(0, 5, "{\"id\": 1, \"name\": \"a\"}")).withCoder(KafkaRecordCoder.of(ByteArrayCoder.of(), ByteArrayCoder.of())))
        .apply(ParDo.of(new DecodeRecordFn(TABLE)))
        .setRowSchema(TABLE.schema())
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    good.run().waitUntilFinish();
    List<Row> rows = JvmCollector.collected(collector);
    assertEquals(1, rows.size());
    assertEquals(1L, rows.get(0).getInt64("id"));

    Pipeline bad = Pipeline.create(direct());
    bad.apply(Create.of(record(2, 17, "{\"id\": \"seven\"}")).withCoder(KafkaRecordCoder.of(ByteArrayCoder.of(), ByteArrayCoder.of())))
        .apply(ParDo.of(new DecodeRecordFn(TABLE)))
        .setRowSchema(TABLE.schema());
    Throwable failure = assertThrows(RuntimeException.class, () -> bad.run().waitUntilFinish());
    String message = rootMessage(failure);
    assertTrue(message.contains("Kafka table `t`: bad record in topic 'orders' partition 2 offset 17"), message);
    assertTrue(message.contains("id"), message);
    assertTrue(message.contains("json.ignore-parse-errors"), message);
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
