package dev.filetables.transforms.kafka;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.RecordDecoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import java.nio.charset.StandardCharsets;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * Decodes a record value into a row of the table with the table's format. A value the format skips
 * ({@code <format>.ignore-parse-errors}) is counted ({@value #SKIPPED_COUNTER}) and dropped; any
 * other bad value fails the job with {@link BadKafkaRecordException} naming topic, partition and
 * offset. (When the file source gains a bad-record option, {@link #onBadRecord} is where to honour
 * it.)
 */
final class DecodeRecordFn extends DoFn<KafkaRecord<byte[], byte[]>, Row> {
  private static final long serialVersionUID = 1L;
  static final String SKIPPED_COUNTER = "kafka-records-skipped";

  private final KafkaTableSpec table;
  private final Counter skipped = Metrics.counter(DecodeRecordFn.class, SKIPPED_COUNTER);
  private transient RecordDecoder decoder;

  DecodeRecordFn(KafkaTableSpec table) {
    this.table = table;
  }

  /** A record value that does not decode into a row of the table. */
  public static final class BadKafkaRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadKafkaRecordException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  @Setup
  public void setup() {
    decoder = RecordDecoder.of(table.format(), table.schema());
  }

  @ProcessElement
  public void process(@Element KafkaRecord<byte[], byte[]> record, OutputReceiver<Row> out) {
    byte[] value = record.getKV().getValue();
    if (value == null) {
      onBadRecord(record, new BadRecordException("the record has no value (a tombstone)"));
      return;
    }
    Row row;
    try {
      row = decoder.decode(value);
    } catch (BadRecordException e) {
      onBadRecord(record, e);
      return;
    }
    if (row == null) {
      skipped.inc(); // the format's ignore-parse-errors (or a blank value)
      return;
    }
    out.output(row);
  }

  private void onBadRecord(KafkaRecord<byte[], byte[]> record, BadRecordException problem) {
    throw new BadKafkaRecordException(
        "Kafka table `" + table.name() + "`: bad record in topic '" + record.getTopic() + "' partition "
            + record.getPartition() + " offset " + record.getOffset() + " (" + table.formatName() + "): "
            + problem.getMessage() + "; value: " + preview(record.getKV().getValue())
            + ". Fix the producer, or set '" + table.formatName() + ".ignore-parse-errors' = 'true' to skip such records.",
        problem);
  }

  private static String preview(byte[] value) {
    if (value == null) {
      return "null";
    }
    String text = new String(value, 0, Math.min(value.length, 200), StandardCharsets.UTF_8);
    return "'" + text.replaceAll("\\p{Cntrl}", "?") + (value.length > 200 ? "…" : "") + "'";
  }
}
