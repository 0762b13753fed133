package dev.filetables.transforms.kafka;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.RecordDecoder;
import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.WatermarkSpec;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.common.TopicPartition;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * The {@code WATERMARK FOR col AS col - INTERVAL d} of a Kafka table, per topic partition: a
 * record's timestamp is its {@code col} value ({@code TIMESTAMP(3)} read as UTC, as Flink does),
 * and the partition's watermark is the largest timestamp seen minus {@code d}, never going back.
 *
 * <p>With {@code scan.watermark.idle-timeout}, a partition that has no backlog and received nothing
 * for that long lets its watermark advance with the wall clock (minus {@code d}), so an idle
 * partition does not hold the watermark of the whole source back — and a drained topic of old data
 * eventually commits its last partitions.
 *
 * <p>A record whose value does not decode, or whose column is null, keeps the largest timestamp
 * seen so far (or the Kafka record timestamp before any): the decode step reports or skips it.
 */
final class EventTimePolicy extends TimestampPolicy<byte[], byte[]> {
  private final RecordDecoder decoder;
  private final String column;
  private final boolean localTimestamp;
  private final long delayMillis;
  private final long idleMillis; // < 0: never idle
  private Instant maxEventTime;
  private Instant watermark;
  private long lastRecordWallMillis = System.currentTimeMillis();

  EventTimePolicy(KafkaTableSpec table, Optional<Instant> previousWatermark) {
    WatermarkSpec spec = table.watermark().orElseThrow();
    this.decoder = RecordDecoder.of(table.format(), table.schema());
    this.column = spec.column();
    this.localTimestamp =
        ColumnType.of(table.schema().getField(spec.column()).getType()) == ColumnType.TIMESTAMP;
    this.delayMillis = spec.delay().toMillis();
    this.idleMillis = table.idleTimeout().map(java.time.Duration::toMillis).orElse(-1L);
    this.watermark = previousWatermark.orElse(BoundedWindow.TIMESTAMP_MIN_VALUE);
  }

  /** KafkaIO's factory: one policy per topic partition, restored with its last watermark. */
  static final class Factory implements TimestampPolicyFactory<byte[], byte[]> {
    private static final long serialVersionUID = 1L;
    private final KafkaTableSpec table;

    Factory(KafkaTableSpec table) {
      this.table = table;
    }

    @Override
    public TimestampPolicy<byte[], byte[]> createTimestampPolicy(
        TopicPartition partition, Optional<Instant> previousWatermark) {
      return new EventTimePolicy(table, previousWatermark);
    }
  }

  @Override
  public Instant getTimestampForRecord(
      PartitionContext context, KafkaRecord<byte[], byte[]> record) {
    lastRecordWallMillis = System.currentTimeMillis();
    Instant eventTime = eventTime(record.getKV().getValue());
    if (eventTime == null) {
      return maxEventTime != null ? maxEventTime : new Instant(record.getTimestamp());
    }
    if (maxEventTime == null || eventTime.isAfter(maxEventTime)) {
      maxEventTime = eventTime;
    }
    return eventTime;
  }

  @Override
  public Instant getWatermark(PartitionContext context) {
    if (maxEventTime != null) {
      advanceTo(maxEventTime.minus(org.joda.time.Duration.millis(delayMillis)));
    }
    if (idleMillis >= 0) {
      long now = System.currentTimeMillis();
      boolean drained = context.getMessageBacklog() == 0;
      if (drained && now - lastRecordWallMillis >= idleMillis) {
        advanceTo(new Instant(now - delayMillis));
      }
    }
    return watermark;
  }

  private void advanceTo(Instant candidate) {
    if (candidate.isAfter(watermark)) {
      watermark = candidate;
    }
  }

  private @Nullable Instant eventTime(byte @Nullable [] value) {
    if (value == null) {
      return null;
    }
    Row row;
    try {
      row = decoder.decode(value);
    } catch (BadRecordException e) {
      return null;
    }
    if (row == null) {
      return null;
    }
    Object time = row.getValue(column);
    if (time == null) {
      return null;
    }
    return localTimestamp
        ? new Instant(((LocalDateTime) time).toInstant(ZoneOffset.UTC).toEpochMilli())
        : (Instant) time;
  }
}
