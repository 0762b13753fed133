package dev.filetables.io.partition.time;

import static java.time.temporal.ChronoField.DAY_OF_MONTH;
import static java.time.temporal.ChronoField.HOUR_OF_DAY;
import static java.time.temporal.ChronoField.MINUTE_OF_HOUR;
import static java.time.temporal.ChronoField.MONTH_OF_YEAR;
import static java.time.temporal.ChronoField.NANO_OF_SECOND;
import static java.time.temporal.ChronoField.SECOND_OF_MINUTE;
import static java.time.temporal.ChronoField.YEAR;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.annotations.Internal;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Flink's default partition time extractor, without its traps.
 *
 * <ul>
 *   <li>The timestamp text is the {@code timestamp-pattern} with each {@code $key} replaced by the
 *       partition's value, or the first partition value when there is no pattern. Substitution is
 *       plain text, longest key first ({@link TimestampPattern}).
 *   <li>Without a {@code timestamp-formatter} the text is read leniently as {@code yyyy-M-d[
 *       H:m:s[.fraction]]} (one or two digits per field, any fraction up to nanoseconds); with one
 *       it is read with that {@code java.time} pattern ({@code Locale.ROOT}).
 *   <li>Text that holds only a date means midnight of that date.
 * </ul>
 *
 * <p>For valid input the result equals Flink's. Where Flink silently bends an impossible date (its
 * default parser turns {@code 2021-02-30} into {@code 2021-02-28}) this one fails: the default form
 * is resolved strictly. A text that cannot be read fails with a {@link PartitionTimeException}
 * naming the text, the values, the pattern and the formatter.
 */
@Internal
public final class DefaultPartitionTimeExtractor implements PartitionTimeExtractor {

  /** Flink's lenient default form {@code yyyy-M-d[ H:m:s[.fraction]]}, resolved strictly. */
  static final DateTimeFormatter LENIENT_DEFAULT =
      new DateTimeFormatterBuilder()
          .appendValue(YEAR, 1, 10, SignStyle.NORMAL)
          .appendLiteral('-')
          .appendValue(MONTH_OF_YEAR, 1, 2, SignStyle.NORMAL)
          .appendLiteral('-')
          .appendValue(DAY_OF_MONTH, 1, 2, SignStyle.NORMAL)
          .optionalStart()
          .appendLiteral(' ')
          .appendValue(HOUR_OF_DAY, 1, 2, SignStyle.NORMAL)
          .appendLiteral(':')
          .appendValue(MINUTE_OF_HOUR, 1, 2, SignStyle.NORMAL)
          .appendLiteral(':')
          .appendValue(SECOND_OF_MINUTE, 1, 2, SignStyle.NORMAL)
          .optionalStart()
          .appendFraction(NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .optionalEnd()
          .toFormatter(Locale.ROOT)
          .withResolverStyle(ResolverStyle.STRICT);

  private final @Nullable String pattern;
  private final @Nullable String formatterPattern;
  private final DateTimeFormatter formatter;

  // The resolved pattern for the keys of the last call: a table's keys never change.
  private transient @Nullable List<String> resolvedKeys;
  private transient @Nullable TimestampPattern resolved;

  /**
   * @param pattern the timestamp pattern, e.g. {@code $dt $hour:00:00}; null: the first partition
   *     value
   * @param formatterPattern a {@code java.time} pattern, e.g. {@code yyyyMMdd}; null: the lenient
   *     default form
   * @throws IllegalArgumentException if the formatter pattern is not a valid {@code java.time}
   *     pattern
   */
  DefaultPartitionTimeExtractor(@Nullable String pattern, @Nullable String formatterPattern) {
    this.pattern = pattern;
    this.formatterPattern = formatterPattern;
    this.formatter =
        formatterPattern == null
            ? LENIENT_DEFAULT
            : DateTimeFormatter.ofPattern(formatterPattern, Locale.ROOT);
  }

  public @Nullable String pattern() {
    return pattern;
  }

  public @Nullable String formatterPattern() {
    return formatterPattern;
  }

  @Override
  public LocalDateTime extract(List<String> partitionKeys, List<String> partitionValues) {
    TimestampPattern timestampPattern = resolve(partitionKeys);
    String text;
    try {
      text = timestampPattern.substitute(partitionValues);
    } catch (PartitionTimeException e) {
      throw new PartitionTimeException(
          "Cannot extract the time of partition "
              + partitionValues
              + " with timestamp-pattern "
              + timestampPattern.describe()
              + ": "
              + e.getMessage());
    }
    return parse(text, partitionValues, timestampPattern);
  }

  /** The pattern resolved against these keys (cached: a table's keys do not change). */
  TimestampPattern resolve(List<String> partitionKeys) {
    TimestampPattern cached = resolved;
    if (cached != null && partitionKeys.equals(resolvedKeys)) {
      return cached;
    }
    TimestampPattern fresh =
        pattern == null
            ? TimestampPattern.firstKey(partitionKeys)
            : TimestampPattern.parse(pattern, partitionKeys);
    resolvedKeys = List.copyOf(partitionKeys);
    resolved = fresh;
    return fresh;
  }

  /** The text read as a date-time, or as a date meaning midnight. */
  LocalDateTime parse(String text) {
    try {
      return LocalDateTime.parse(text, formatter);
    } catch (DateTimeException dateTime) {
      try {
        return LocalDateTime.of(LocalDate.parse(text, formatter), LocalTime.MIDNIGHT);
      } catch (DateTimeException dateOnly) {
        throw dateTime;
      }
    }
  }

  private LocalDateTime parse(String text, List<String> values, TimestampPattern timestampPattern) {
    try {
      return parse(text);
    } catch (DateTimeException e) {
      throw new PartitionTimeException(
          "Cannot extract the time of partition "
              + values
              + ": timestamp text '"
              + text
              + "' (timestamp-pattern "
              + timestampPattern.describe()
              + ") does not match the timestamp-formatter "
              + describeFormatter()
              + " ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  String describeFormatter() {
    return formatterPattern != null
        ? "'" + formatterPattern + "'"
        : "(none: the lenient default yyyy-M-d[ H:m:s[.fraction]])";
  }

  @Override
  public String toString() {
    return "DefaultPartitionTimeExtractor{pattern="
        + pattern
        + ", formatter="
        + formatterPattern
        + "}";
  }
}
