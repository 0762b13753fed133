package dev.filetables.pipelines.sql;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import org.apache.beam.sdk.extensions.sql.BeamSqlUdf;

/**
 * Flink's {@code DATE_FORMAT(timestamp, format)} and {@code DATE_FORMAT(string, format)}: the
 * timestamp's wall-clock time (a TIMESTAMP_LTZ's in the session zone, see {@link SqlTimes})
 * formatted with a {@code java.time} pattern; a string is first read as {@code yyyy-MM-dd
 * HH:mm:ss[.fraction]}. Null in, null out; a string that is not a timestamp gives null.
 */
final class DateFormatFunctions {
  private DateFormatFunctions() {}

  /** {@code DATE_FORMAT(TIMESTAMP, STRING)}. */
  public static final class OfTimestamp implements BeamSqlUdf {
    public static String eval(Timestamp value, String format) {
      if (value == null || format == null) {
        return null;
      }
      return SqlTimes.wallClock(value).format(Patterns.formatter(format));
    }
  }

  /** {@code DATE_FORMAT(STRING, STRING)}. */
  public static final class OfString implements BeamSqlUdf {
    public static String eval(String value, String format) {
      if (value == null || format == null) {
        return null;
      }
      LocalDateTime parsed = TimestampParseFunctions.parse(value, null);
      return parsed == null ? null : parsed.format(Patterns.formatter(format));
    }
  }
}
