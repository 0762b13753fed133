package dev.filetables.pipelines.kafka;

import dev.filetables.io.format.RecordEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Produces rows into a Kafka topic, one row per record value encoded with a table format; the key
 * is a caller-chosen column, so the records of one key keep their order in one partition.
 */
@Internal
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
    AtomicReference<Exception> failure = new AtomicReference<>();
    for (long i = from; i < to && failure.get() == null; i++) {
      Row row = rows.apply(i);
      Object key = row.getValue(keyColumn);
      byte[] keyBytes = key == null ? null : key.toString().getBytes(StandardCharsets.UTF_8);
      producer.send(
          new ProducerRecord<>(topic, keyBytes, encoder.encode(row)),
          (metadata, e) -> {
            if (e != null) {
              failure.compareAndSet(null, e);
            }
          });
    }
    producer.flush(); // every callback has run when flush returns
    if (failure.get() != null) {
      throw new IllegalStateException(
          "producing to Kafka topic '" + topic + "' failed: " + failure.get(), failure.get());
    }
  }
}
