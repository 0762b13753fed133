package dev.filetables.pipelines.sql;

import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import org.apache.beam.sdk.extensions.sql.BeamSqlUdf;

/**
 * Flink's {@code TO_TIMESTAMP(string[, format])}: a TIMESTAMP(3) read with a {@code java.time}
 * pattern ({@code yyyy-MM-dd HH:mm:ss} by default, where a fraction of a second may follow); null
 * when the string does not match. The one-argument form is rewritten to the two-argument one.
 */
final class TimestampParseFunctions {
  private TimestampParseFunctions() {}

  /** {@code TO_TIMESTAMP(STRING, STRING)}. */
  public static final class ToTimestamp implements BeamSqlUdf {
    public static Timestamp eval(String value, String format) {
      LocalDateTime parsed = value == null || format == null ? null : parse(value, format);
      return parsed == null ? null : SqlTimes.toTimestamp(parsed);
    }
  }

  /**
   * The wall-clock time in {@code text}, or null; a null {@code format} means Flink's default
   * ({@code yyyy-MM-dd HH:mm:ss} with an optional fraction, or a date alone).
   */
  static LocalDateTime parse(String text, String format) {
    String trimmed = text.trim();
    try {
      if (format == null || format.equals(Patterns.DEFAULT)) {
        return parseDefault(trimmed);
      }
      TemporalAccessor parsed = Patterns.formatter(format).parse(trimmed);
      LocalDate date =
          LocalDate.of(
              field(parsed, ChronoField.YEAR, 1970),
              field(parsed, ChronoField.MONTH_OF_YEAR, 1),
              field(parsed, ChronoField.DAY_OF_MONTH, 1));
      return date.atTime(
          field(parsed, ChronoField.HOUR_OF_DAY, 0),
          field(parsed, ChronoField.MINUTE_OF_HOUR, 0),
          field(parsed, ChronoField.SECOND_OF_MINUTE, 0),
          field(parsed, ChronoField.NANO_OF_SECOND, 0));
    } catch (java.time.DateTimeException e) {
      return null;
    }
  }

  private static final DateTimeFormatter DEFAULT_WITH_FRACTION =
      new java.time.format.DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd")
          .optionalStart()
          .appendLiteral(' ')
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .optionalEnd()
          .toFormatter();

  private static LocalDateTime parseDefault(String text) {
    TemporalAccessor parsed = DEFAULT_WITH_FRACTION.parse(text);
    LocalDate date = LocalDate.from(parsed);
    if (!parsed.isSupported(ChronoField.HOUR_OF_DAY)) {
      return date.atStartOfDay();
    }
    return date.atTime(
        parsed.get(ChronoField.HOUR_OF_DAY),
        parsed.get(ChronoField.MINUTE_OF_HOUR),
        parsed.get(ChronoField.SECOND_OF_MINUTE),
        field(parsed, ChronoField.NANO_OF_SECOND, 0));
  }

  private static int field(TemporalAccessor parsed, ChronoField field, int otherwise) {
    return parsed.isSupported(field) ? parsed.get(field) : otherwise;
  }
}
