package dev.filetables.io.format.internal;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * How values a file stores (integers, epoch numbers, decimals, floating point) become the Java
 * value of a requested column type, shared by the bulk formats' readers. Each method returns null
 * when the stored kind cannot be read as the requested type; the returned functions throw {@link
 * IllegalArgumentException} for a value that does not fit (e.g. an INT64 beyond INT).
 */
@Internal
public final class ValueConversions {
  private ValueConversions() {}

  /** A stored integer (any width) as {@code type}; TIMESTAMP types take it as epoch millis. */
  public static LongFunction<Object> fromInteger(ColumnType type, FieldType target) {
    switch (type) {
      case INT:
        return v -> {
          if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(v + " is out of the range of INT");
          }
          return (int) v;
        };
      case BIGINT:
        return Long::valueOf;
      case FLOAT:
        return v -> (float) v;
      case DOUBLE:
        return v -> (double) v;
      case DECIMAL:
        {
          int precision = ColumnType.decimalPrecision(target);
          int scale = ColumnType.decimalScale(target);
          return v -> Decimals.fit(BigDecimal.valueOf(v), precision, scale);
        }
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return fromEpochMillis(type, null);
      default:
        return null;
    }
  }

  /**
   * Epoch millis as TIMESTAMP (the wall clock in UTC, or in {@code zone} when given), TIMESTAMP_LTZ
   * or DATE (the UTC day).
   */
  public static LongFunction<Object> fromEpochMillis(ColumnType type, ZoneId zone) {
    switch (type) {
      case TIMESTAMP:
        return zone == null ? TimeValues::localDateTime : ms -> TimeValues.localDateTime(ms, zone);
      case TIMESTAMP_LTZ:
        return TimeValues::instant;
      case DATE:
        return ms -> TimeValues.date(Math.floorDiv(ms, TimeValues.MILLIS_PER_DAY));
      default:
        return null;
    }
  }

  /** Epoch numbers in units of {@code unitsPerMilli} (1 millis, 1000 micros, 10^6 nanos). */
  public static LongFunction<Object> fromEpochUnits(ColumnType type, long unitsPerMilli) {
    LongFunction<Object> millis = fromEpochMillis(type, null);
    if (millis == null || unitsPerMilli == 1) {
      return millis;
    }
    return v -> millis.apply(TimeValues.toMillis(v, unitsPerMilli));
  }

  /** Days since 1970-01-01 as DATE, or as midnight UTC for the timestamp types. */
  public static LongFunction<Object> fromEpochDay(ColumnType type) {
    switch (type) {
      case DATE:
        return TimeValues::date;
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        LongFunction<Object> millis = fromEpochMillis(type, null);
        return d -> millis.apply(d * TimeValues.MILLIS_PER_DAY);
      default:
        return null;
    }
  }

  /** A stored DECIMAL(filePrecision, fileScale) as {@code type}. */
  public static Function<BigDecimal, Object> fromDecimal(
      ColumnType type, FieldType target, int filePrecision, int fileScale) {
    switch (type) {
      case DECIMAL:
        int precision = ColumnType.decimalPrecision(target);
        int scale = ColumnType.decimalScale(target);
        if (scale == fileScale && filePrecision <= precision) {
          return d -> d;
        }
        return d -> Decimals.fit(d, precision, scale);
      case DOUBLE:
        return BigDecimal::doubleValue;
      case FLOAT:
        return BigDecimal::floatValue;
      default:
        return null;
    }
  }

  /** A stored float or double as {@code type}. */
  public static DoubleFunction<Object> fromFloating(ColumnType type, FieldType target) {
    switch (type) {
      case FLOAT:
        return v -> (float) v;
      case DOUBLE:
        return v -> v;
      case DECIMAL:
        int precision = ColumnType.decimalPrecision(target);
        int scale = ColumnType.decimalScale(target);
        return v -> Decimals.fit(BigDecimal.valueOf(v), precision, scale);
      default:
        return null;
    }
  }
}
