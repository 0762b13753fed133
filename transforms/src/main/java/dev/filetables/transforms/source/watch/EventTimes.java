package dev.filetables.transforms.source.watch;

import dev.filetables.io.partition.time.PartitionTimes;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.table.WatermarkSpec;
import java.io.Serializable;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.apache.beam.sdk.values.Row;
import org.joda.time.ReadableInstant;

/**
 * Row timestamps and the delay of a table's {@code WATERMARK FOR col AS col - INTERVAL ...} clause.
 * A TIMESTAMP value (no zone) is placed in {@code sink.partition-commit.watermark-time-zone} (UTC
 * unless set, as Flink reads TIMESTAMP rowtimes), a TIMESTAMP_LTZ value is an instant already. A
 * null event time takes the file's time.
 */
final class EventTimes implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int column; // -1: no WATERMARK clause, rows carry their file's time
  private final long delayMillis;
  private final ZoneId zone;

  EventTimes(TableSpec table) {
    WatermarkSpec spec = table.watermark().orElse(null);
    this.column = spec == null ? -1 : table.schema().indexOf(spec.column());
    this.delayMillis = spec == null ? 0 : spec.delay().toMillis();
    this.zone = table.options().watermarkTimeZone();
  }

  /** True when rows carry their event-time column as timestamp and drive the watermark. */
  boolean fromData() {
    return column >= 0;
  }

  long delayMillis() {
    return delayMillis;
  }

  /**
   * The row's event time, or {@link WatchRestriction#UNSET} without a WATERMARK clause or value.
   */
  long eventMillis(Row row) {
    if (column < 0) {
      return WatchRestriction.UNSET;
    }
    Object value = row.getValue(column);
    if (value == null) {
      return WatchRestriction.UNSET;
    }
    if (value instanceof LocalDateTime) {
      return PartitionTimes.toEpochMillis((LocalDateTime) value, zone);
    }
    if (value instanceof ReadableInstant) {
      return ((ReadableInstant) value).getMillis();
    }
    throw new IllegalArgumentException(
        "Watermark column value "
            + value
            + " ("
            + value.getClass().getName()
            + ") is neither a TIMESTAMP nor a TIMESTAMP_LTZ");
  }
}
