package dev.filetables.pipelines.sql;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * The one place that knows how a time value looks inside the SQL engine.
 *
 * <p>Beam SQL (Calcite) has one timestamp type, {@code TIMESTAMP}, a wall-clock time without zone.
 * Flink has two: {@code TIMESTAMP} (wall clock) and {@code TIMESTAMP_LTZ} (an instant, shown and
 * computed on in the session time zone). Inside a script both are carried as wall-clock times: a
 * {@code TIMESTAMP_LTZ} value as its wall-clock time in the session zone, which is what every Flink
 * function, {@code EXTRACT}, {@code CAST} and window alignment see of it. The instant is restored
 * where it leaves SQL: a {@code TIMESTAMP_LTZ} sink column, the event time of a row.
 *
 * <p>Beam rows carry a wall-clock time as a Joda instant whose UTC fields are the wall clock; a
 * user function receives and returns {@link Timestamp}s, which Calcite converts with the JVM's
 * default zone (its {@code LOCAL_TZ}): {@link #wallClock(Timestamp)} and {@link
 * #toTimestamp(LocalDateTime)} undo exactly that conversion.
 */
final class SqlTimes {
  private SqlTimes() {}

  /** A wall-clock time as Beam SQL's rows carry it (Joda instant, UTC fields). */
  static org.joda.time.Instant toSqlValue(LocalDateTime wallClock) {
    return new org.joda.time.Instant(wallClock.toInstant(ZoneOffset.UTC).toEpochMilli());
  }

  static LocalDateTime fromSqlValue(org.joda.time.ReadableInstant value) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(value.getMillis()), ZoneOffset.UTC);
  }

  /** The wall-clock time of an instant in {@code zone}: how a TIMESTAMP_LTZ is carried. */
  static LocalDateTime wallClock(Instant instant, ZoneId zone) {
    return LocalDateTime.ofInstant(instant, zone);
  }

  /**
   * The instant of a wall-clock time in {@code zone}; in a daylight saving overlap the earlier
   * offset, in a gap the later one (as {@link java.time.ZonedDateTime#of} resolves them).
   */
  static Instant instant(LocalDateTime wallClock, ZoneId zone) {
    return wallClock.atZone(zone).toInstant();
  }

  /** The wall-clock time Calcite meant when it passed {@code value} to a function. */
  static LocalDateTime wallClock(Timestamp value) {
    long shifted = value.getTime();
    TimeZone local = TimeZone.getDefault();
    // Calcite made it as internal - offset(internal); find that internal value
    long internal = shifted + local.getOffset(shifted);
    if (internal - local.getOffset(internal) != shifted) {
      internal = shifted + local.getOffset(internal);
    }
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(internal), ZoneOffset.UTC);
  }

  /** The {@link Timestamp} a function returns for a wall-clock time (Calcite adds the offset). */
  static Timestamp toTimestamp(LocalDateTime wallClock) {
    long internal = wallClock.toInstant(ZoneOffset.UTC).toEpochMilli();
    TimeZone local = TimeZone.getDefault();
    long shifted = internal - local.getOffset(internal);
    if (shifted + local.getOffset(shifted) != internal) {
      shifted = internal - local.getOffset(shifted);
    }
    return new Timestamp(shifted);
  }
}
