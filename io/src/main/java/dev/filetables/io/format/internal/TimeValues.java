package dev.filetables.io.format.internal;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Conversions between the Java values of DATE / TIMESTAMP / TIMESTAMP_LTZ columns and the epoch
 * numbers files store. A TIMESTAMP (no time zone) is stored as its wall-clock time read in UTC, the
 * convention of Parquet's {@code isAdjustedToUTC=false} and Avro's {@code local-timestamp-*}.
 */
@Internal
public final class TimeValues {
  private TimeValues() {}

  static final long MILLIS_PER_DAY = 86_400_000L;

  /** Julian day number of 1970-01-01, the epoch of INT96 timestamps' day part. */
  private static final long JULIAN_EPOCH_DAY = 2_440_588L;

  public static long epochMillis(LocalDateTime value) {
    return value.toEpochSecond(ZoneOffset.UTC) * 1000L + value.getNano() / 1_000_000;
  }

  public static LocalDateTime localDateTime(long epochMillis) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(epochMillis, 1000L),
        (int) Math.floorMod(epochMillis, 1000L) * 1_000_000,
        ZoneOffset.UTC);
  }

  /** Wall-clock time of an instant in a zone (Flink's non-UTC reading of INT96 timestamps). */
  public static LocalDateTime localDateTime(long epochMillis, ZoneId zone) {
    return LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(epochMillis), zone);
  }

  static org.joda.time.Instant instant(long epochMillis) {
    return new org.joda.time.Instant(epochMillis);
  }

  public static long epochMillis(Object instant) {
    if (instant instanceof org.joda.time.ReadableInstant) {
      return ((org.joda.time.ReadableInstant) instant).getMillis();
    }
    return ((java.time.Instant) instant).toEpochMilli();
  }

  public static int epochDay(LocalDate date) {
    return Math.toIntExact(date.toEpochDay());
  }

  static LocalDate date(long epochDay) {
    return LocalDate.ofEpochDay(epochDay);
  }

  /** Truncates (floors) an epoch number of {@code unitsPerMilli}-sized units to millis. */
  static long toMillis(long value, long unitsPerMilli) {
    return unitsPerMilli == 1 ? value : Math.floorDiv(value, unitsPerMilli);
  }

  /**
   * Millis of a legacy INT96 timestamp (Impala/Hive/Spark/Flink): nanos of day and Julian day, read
   * from its 8 + 4 little-endian bytes.
   */
  public static long int96ToMillis(long nanosOfDay, int julianDay) {
    long epochDay = julianDay - JULIAN_EPOCH_DAY;
    return epochDay * MILLIS_PER_DAY + Math.floorDiv(nanosOfDay, 1_000_000L);
  }

  /** Encodes epoch millis as INT96 (used by tests and for symmetry with {@link #int96ToMillis}). */
  public static byte[] millisToInt96(long epochMillis) {
    long epochDay = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
    long nanosOfDay = Math.floorMod(epochMillis, MILLIS_PER_DAY) * 1_000_000L;
    long julianDay = epochDay + JULIAN_EPOCH_DAY;
    byte[] out = new byte[12];
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (nanosOfDay >>> (8 * i));
    }
    for (int i = 0; i < 4; i++) {
      out[8 + i] = (byte) (julianDay >>> (8 * i));
    }
    return out;
  }
}
