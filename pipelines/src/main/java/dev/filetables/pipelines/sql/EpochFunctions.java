package dev.filetables.pipelines.sql;

import java.sql.Timestamp;
import java.text.ParsePosition;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.TimeZone;
import org.apache.beam.sdk.extensions.sql.BeamSqlUdf;

/**
 * Flink's functions between epoch numbers and times, in the session time zone, which {@link
 * FlinkSqlRewriter} passes as the last argument:
 *
 * <ul>
 *   <li>{@code TO_TIMESTAMP_LTZ(epoch, precision)}: precision 0 = seconds, 3 = milliseconds; a
 *       TIMESTAMP_LTZ (carried as its wall-clock time in the zone, {@link SqlTimes});
 *   <li>{@code FROM_UNIXTIME(seconds[, format])}: the time formatted in the zone ({@code
 *       SimpleDateFormat} pattern, default {@code yyyy-MM-dd HH:mm:ss});
 *   <li>{@code UNIX_TIMESTAMP()}: now, in seconds; {@code UNIX_TIMESTAMP(string[, format])}: the
 *       string read in the zone, in seconds, {@code Long.MIN_VALUE} when it does not parse.
 * </ul>
 */
final class EpochFunctions {
  private EpochFunctions() {}

  /** {@code TO_TIMESTAMP_LTZ(BIGINT, INT)} + zone. */
  public static final class ToTimestampLtz implements BeamSqlUdf {
    public static Timestamp eval(Long epoch, Integer precision, String zone) {
      if (epoch == null || precision == null) {
        return null;
      }
      Instant instant;
      if (precision == 3) {
        instant = Instant.ofEpochMilli(epoch);
      } else if (precision == 0) {
        instant = Instant.ofEpochSecond(epoch);
      } else {
        throw new IllegalArgumentException(
            "TO_TIMESTAMP_LTZ: precision must be 0 (seconds) or 3 (milliseconds), not "
                + precision);
      }
      return SqlTimes.toTimestamp(SqlTimes.wallClock(instant, ZoneId.of(zone)));
    }
  }

  /** {@code FROM_UNIXTIME(BIGINT, STRING)} + zone (the one-argument form gets the default). */
  public static final class FromUnixtime implements BeamSqlUdf {
    public static String eval(Long seconds, String format, String zone) {
      if (seconds == null || format == null) {
        return null;
      }
      java.text.SimpleDateFormat formatter = Patterns.simple(format);
      formatter.setTimeZone(TimeZone.getTimeZone(ZoneId.of(zone)));
      return formatter.format(new Date(seconds * 1000));
    }
  }

  /** {@code UNIX_TIMESTAMP(STRING, STRING)} + zone (the one-argument form gets the default). */
  public static final class UnixTimestamp implements BeamSqlUdf {
    public static Long eval(String text, String format, String zone) {
      if (text == null || format == null) {
        return null;
      }
      java.text.SimpleDateFormat parser = Patterns.simple(format);
      parser.setTimeZone(TimeZone.getTimeZone(ZoneId.of(zone)));
      Date parsed = parser.parse(text, new ParsePosition(0));
      return parsed == null ? Long.MIN_VALUE : parsed.getTime() / 1000;
    }
  }

  /** {@code UNIX_TIMESTAMP()}: the current time in seconds (the zone argument is unused). */
  public static final class UnixTimestampNow implements BeamSqlUdf {
    public static Long eval(String zone) {
      return System.currentTimeMillis() / 1000;
    }
  }
}
