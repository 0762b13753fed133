package dev.filetables.transforms.kafka;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.RecordDecoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.transforms.source.BadRecordLog;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRangeReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Decodes a record value into a row of the table with the table's format ({@link #ROWS}). A value
 * that does not decode (or a record without value) is a bad record and follows the table's {@code
 * source.bad-records} policy, as for file tables: {@code fail} fails the job with {@link
 * BadKafkaRecordException} naming topic, partition and offset; {@code skip} (also {@code
 * <format>.ignore-parse-errors = true}) counts it ({@value #SKIPPED_COUNTER}, and {@code
 * filetables.source/bad-records}) and logs it with topic, partition and offset at a bounded rate;
 * {@code dead-letter} does the same and emits a {@link DeadLetterTable} row ({@link #DEAD_LETTERS})
 * with {@code source_file} = {@code kafka://<topic>/<partition>} and the offset as {@code
 * byte_offset}.
 */
final class DecodeRecordFn extends DoFn<KafkaRecord<byte[], byte[]>, Row> {
  private static final long serialVersionUID = 1L;
  static final String SKIPPED_COUNTER = "kafka-records-skipped";

  static final TupleTag<Row> ROWS = new TupleTag<Row>("rows") {};
  static final TupleTag<Row> DEAD_LETTERS = new TupleTag<Row>("deadLetters") {};

  private final KafkaTableSpec table;
  private final BadRecordPolicy policy;
  private final Counter skipped = Metrics.counter(DecodeRecordFn.class, SKIPPED_COUNTER);
  private final Counter badRecords =
      Metrics.counter(FileRangeReader.NAMESPACE, FileRangeReader.BAD_RECORDS);
  private final Counter deadLetters =
      Metrics.counter(FileRangeReader.NAMESPACE, FileRangeReader.DEAD_LETTERS);
  private transient RecordDecoder decoder;

  DecodeRecordFn(KafkaTableSpec table) {
    this.table = table;
    this.policy = table.badRecordPolicy();
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
    // strict: every bad value reaches onBadRecord, which knows topic, partition and offset
    decoder = RecordDecoder.of(table.strictFormat(), table.schema());
  }

  @ProcessElement
  public void process(@Element KafkaRecord<byte[], byte[]> record, MultiOutputReceiver out) {
    byte[] value = record.getKV().getValue();
    if (value == null) {
      onBadRecord(record, new BadRecordException("the record has no value (a tombstone)"), out);
      return;
    }
    Row row;
    try {
      row = decoder.decode(value);
    } catch (BadRecordException e) {
      onBadRecord(record, e, out);
      return;
    }
    if (row == null) {
      skipped.inc(); // a blank value
      return;
    }
    out.get(ROWS).output(row);
  }

  private void onBadRecord(
      KafkaRecord<byte[], byte[]> record, BadRecordException problem, MultiOutputReceiver out) {
    String where =
        "topic '"
            + record.getTopic()
            + "' partition "
            + record.getPartition()
            + " offset "
            + record.getOffset();
    byte[] value = record.getKV().getValue();
    if (policy == BadRecordPolicy.FAIL) {
      throw new BadKafkaRecordException(
          "Kafka table `"
              + table.name()
              + "`: bad record in "
              + where
              + " ("
              + table.formatName()
              + "): "
              + problem.getMessage()
              + "; value: "
              + preview(value)
              + ". Fix the producer, or set '"
              + KafkaTables.BAD_RECORDS
              + "' = 'skip' (or '"
              + table.formatName()
              + ".ignore-parse-errors' = 'true') to skip such records, or 'dead-letter' to keep them in a dead-letter table.",
          problem);
    }
    badRecords.inc();
    String reason = problem.reason();
    BadRecordLog.warn(
        "Kafka table `"
            + table.name()
            + "`: "
            + (policy == BadRecordPolicy.SKIP ? "skipped" : "dead-lettered")
            + " bad record in "
            + where
            + ": "
            + reason);
    if (policy == BadRecordPolicy.SKIP) {
      skipped.inc();
      return;
    }
    out.get(DEAD_LETTERS)
        .output(
            DeadLetterTable.row(
                "kafka://" + record.getTopic() + "/" + record.getPartition(),
                DeadLetterTable.KIND_RECORD,
                -1,
                record.getOffset(),
                "offset " + record.getOffset(),
                value,
                value == null ? null : strictUtf8(value),
                errorClass(problem),
                reason,
                Instant.now()));
    deadLetters.inc();
  }

  /**
   * The value as text when it is valid UTF-8 (what JSON and CSV values are); else null (base64
   * only).
   */
  private static @Nullable String strictUtf8(byte[] raw) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw))
          .toString();
    } catch (CharacterCodingException notText) {
      return null;
    }
  }

  /** The innermost cause's class: what actually went wrong (a parser's exception), else ours. */
  private static String errorClass(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getName();
  }

  private static String preview(byte @Nullable [] value) {
    if (value == null) {
      return "null";
    }
    String text = new String(value, 0, Math.min(value.length, 200), StandardCharsets.UTF_8);
    return "'" + text.replaceAll("\\p{Cntrl}", "?") + (value.length > 200 ? "…" : "") + "'";
  }
}
