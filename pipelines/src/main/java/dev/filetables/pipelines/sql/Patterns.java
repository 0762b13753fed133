package dev.filetables.pipelines.sql;

import java.text.SimpleDateFormat;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Date-time patterns of Flink's functions, compiled once per pattern text. */
final class Patterns {
  /**
   * Flink's default pattern of FROM_UNIXTIME, UNIX_TIMESTAMP, TO_TIMESTAMP and DATE_FORMAT input.
   */
  static final String DEFAULT = "yyyy-MM-dd HH:mm:ss";

  private static final Map<String, DateTimeFormatter> FORMATTERS = new ConcurrentHashMap<>();

  private Patterns() {}

  /** A {@code java.time} formatter (Flink's DATE_FORMAT and TO_TIMESTAMP use these). */
  static DateTimeFormatter formatter(String pattern) {
    return FORMATTERS.computeIfAbsent(pattern, DateTimeFormatter::ofPattern);
  }

  /**
   * A {@link SimpleDateFormat} (Flink's FROM_UNIXTIME and UNIX_TIMESTAMP use these): not thread
   * safe, so a new one per call.
   */
  static SimpleDateFormat simple(String pattern) {
    return new SimpleDateFormat(pattern);
  }
}
