package dev.filetables.pipelines.kafka;

import dev.filetables.io.format.RecordEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Produces rows into a Kafka topic, one row per record value encoded with a table format; the key
 * is a caller-chosen column, so the records of one key keep their order in one partition.
 */
public final class RowProducer {
  private RowProducer() {}

  /**
   * Sends rows {@code from .. to-1} ({@code rows.apply(i)}) to {@code topic}, keyed by the value of
   * {@code keyColumn}, and waits until the broker has acknowledged all of them.
   */
  public static void produce(
      KafkaProducer<byte[], byte[]> producer,
      String topic,
      RecordEncoder encoder,
      String keyColumn,
      LongFunction<Row> rows,
      long from,
      long to) {
    Future<RecordMetadata> last = null;
    for (long i = from; i < to; i++) {
      Row row = rows.apply(i);
      Object key = row.getValue(keyColumn);
      byte[] keyBytes = key == null ? null : key.toString().getBytes(StandardCharsets.UTF_8);
      last = producer.send(new ProducerRecord<>(topic, keyBytes, encoder.encode(row)));
    }
    producer.flush();
    if (last != null) {
      try {
        last.get(60, TimeUnit.SECONDS); // surfaces a send failure
      } catch (Exception e) {
        throw new IllegalStateException("producing to Kafka topic '" + topic + "' failed: " + e, e);
      }
    }
  }
}
