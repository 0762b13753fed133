package dev.filetables.pipelines.orders;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/**
 * A synthetic orders table whose row {@code i} is a pure function of {@code i}, so the exact
 * content a write must produce is known without storing it.
 *
 * <p>Rows go round-robin over {@code partitions} hourly partitions ({@code dt}/{@code hour}): row
 * {@code i} belongs to partition {@code p = i % partitions}, which is hour {@code p % 24} of day
 * {@code p / 24} after {@link #BASE}. Its event time is that hour's start plus {@code i /
 * partitions} milliseconds (capped inside the hour), so event time and partition agree and every
 * partition is open at once, as in a stream that mixes many keys.
 *
 * <p>{@link #hourByHour} lays the same partitions out one after the other instead: the first {@code
 * rowsPerPartition} rows are hour 0, the next hour 1, and so on, each hour's rows spread evenly
 * over it, so event time (and the watermark of {@link OrdersSource}) moves through the hours and
 * each partition is complete once the watermark passes its end, as partition commits expect.
 */
@Internal
public final class Orders implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Event time of partition 0's first row: 2024-01-01T00:00Z. */
  static final LocalDateTime BASE = LocalDateTime.of(2024, 1, 1, 0, 0);

  private static final long BASE_MILLIS = BASE.toInstant(ZoneOffset.UTC).toEpochMilli();
  private static final long HOUR_MILLIS = 3_600_000L;
  private static final String[] PRODUCTS = {
    "keyboard", "monitor", "mouse", "laptop stand", "usb-c cable", "headset", "webcam", "desk lamp"
  };

  public static final Schema SCHEMA =
      Schema.builder()
          .addInt64Field("order_id")
          .addStringField("customer")
          .addStringField("product")
          .addInt32Field("quantity")
          .addField("price", ColumnType.decimal(10, 2))
          .addField("order_time", FieldType.logicalType(SqlTypes.DATETIME))
          .addStringField("dt")
          .addStringField("hour")
          .build();

  static final List<String> PARTITION_KEYS = List.of("dt", "hour");

  private final int partitions;

  /** 0: round-robin over the partitions; otherwise rows per partition, hour after hour. */
  private final long rowsPerPartition;

  // dt and hour strings by partition: computed once, rows are generated at high rates
  private transient String[] dtValues;
  private transient String[] hourValues;

  private Orders(int partitions, long rowsPerPartition) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    if (rowsPerPartition < 0) {
      throw new IllegalArgumentException("rowsPerPartition must be >= 0, got " + rowsPerPartition);
    }
    this.partitions = partitions;
    this.rowsPerPartition = rowsPerPartition;
  }

  private void initPartitionValues() {
    String[] dt = new String[partitions];
    String[] hour = new String[partitions];
    for (int p = 0; p < partitions; p++) {
      LocalDateTime start = BASE.plusHours(p);
      dt[p] = start.toLocalDate().toString();
      hour[p] = String.format("%02d", start.getHour());
    }
    hourValues = hour;
    dtValues = dt;
  }

  /** Rows spread round-robin over {@code partitions} hourly partitions. */
  public static Orders withPartitions(int partitions) {
    return new Orders(partitions, 0);
  }

  /**
   * Rows {@code 0 .. partitions*rowsPerPartition-1} fill hourly partitions one after the other,
   * {@code rowsPerPartition} each, with event times spread evenly over each hour (later ids wrap
   * around to hour 0 again).
   */
  public static Orders hourByHour(int partitions, long rowsPerPartition) {
    if (rowsPerPartition < 1) {
      throw new IllegalArgumentException(
          "rowsPerPartition must be at least 1, got " + rowsPerPartition);
    }
    return new Orders(partitions, rowsPerPartition);
  }

  private int partitionOf(long index) {
    return (int)
        (rowsPerPartition == 0 ? index % partitions : (index / rowsPerPartition) % partitions);
  }

  public int partitions() {
    return partitions;
  }

  /** Event time of row {@code index}, in epoch milliseconds. */
  long eventTimeMillis(long index) {
    long partition = partitionOf(index);
    long intoHour =
        rowsPerPartition == 0
            ? Math.min(index / partitions, HOUR_MILLIS - 1)
            : (index % rowsPerPartition) * (HOUR_MILLIS / Math.max(rowsPerPartition, 1));
    return BASE_MILLIS + partition * HOUR_MILLIS + Math.min(intoHour, HOUR_MILLIS - 1);
  }

  public Instant eventTime(long index) {
    return new Instant(eventTimeMillis(index));
  }

  /**
   * A lower bound on the event time of every row from {@code index} on: each later row is at least
   * {@code index / partitions} milliseconds into its hour, and the earliest hour is partition 0's
   * ({@link #hourByHour}: the event time of row {@code index} itself, as event time grows with the
   * id).
   */
  long eventTimeLowerBoundMillis(long index) {
    if (rowsPerPartition > 0) {
      // event time grows with the id until the ids wrap around to hour 0
      return index < partitions * rowsPerPartition ? eventTimeMillis(index) : BASE_MILLIS;
    }
    return BASE_MILLIS + Math.min(index / partitions, HOUR_MILLIS - 1);
  }

  /** The row with id {@code index}. */
  public Row row(long index) {
    if (dtValues == null) {
      initPartitionValues();
    }
    int partition = partitionOf(index);
    long millis = eventTimeMillis(index);
    LocalDateTime time =
        LocalDateTime.ofEpochSecond(
            Math.floorDiv(millis, 1000L),
            (int) Math.floorMod(millis, 1000L) * 1_000_000,
            ZoneOffset.UTC);
    // attachValues skips the builder's per-value type checks; the values match SCHEMA by
    // construction
    return Row.withSchema(SCHEMA)
        .attachValues(
            index,
            "customer-" + (index * 7919 % 100_000),
            PRODUCTS[(int) (index % PRODUCTS.length)],
            (int) (1 + index % 9),
            BigDecimal.valueOf(100 + (index * 31 % 99_900), 2),
            time,
            dtValues[partition],
            hourValues[partition]);
  }

  /** The relative partition directory of row {@code index}, e.g. {@code dt=2024-01-01/hour=07}. */
  public String partitionPath(long index) {
    Row row = row(index);
    return "dt=" + row.getString("dt") + "/hour=" + row.getString("hour");
  }

  /** An orders table at {@code path} in {@code format}, with extra connector options. */
  public static TableSpec table(
      String name, String path, String format, Map<String, String> extra) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(TableOptions.CONNECTOR, "filesystem");
    options.put(TableOptions.PATH, path);
    options.put(TableOptions.FORMAT, format);
    options.putAll(extra);
    return TableSpec.builder()
        .setName(name)
        .setSchema(SCHEMA)
        .setPartitionKeys(PARTITION_KEYS)
        .setOptions(TableOptions.of(options))
        .build();
  }
}
