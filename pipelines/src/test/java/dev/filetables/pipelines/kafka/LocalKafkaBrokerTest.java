package dev.filetables.pipelines.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The child-process broker starts, takes records and hands them back, and stops. */
@Tag("cluster")
class LocalKafkaBrokerTest {
  @TempDir Path dir;

  @Test
  void producesAndConsumesThroughARealBroker() throws Exception {
    try (LocalKafkaBroker broker = LocalKafkaBroker.start(dir)) {
      broker.createTopic("t", 2);
      try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
        for (int i = 0; i < 10; i++) {
          producer.send(
              new ProducerRecord<>("t", i % 2, null, ("v" + i).getBytes(StandardCharsets.UTF_8)));
        }
      }
      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      p.put(ConsumerConfig.GROUP_ID_CONFIG, "g");
      List<String> values = new ArrayList<>();
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        consumer.subscribe(List.of("t"));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (values.size() < 10 && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
            values.add(new String(r.value(), StandardCharsets.UTF_8));
          }
        }
        consumer.commitSync();
      }
      values.sort(null);
      assertEquals(List.of("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"), values);
      assertEquals(
          10L, broker.committedOffsets("g").values().stream().mapToLong(Long::longValue).sum());
    }
  }
}
