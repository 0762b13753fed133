package dev.filetables.io.table;

import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Parses and formats durations in Flink's forms: {@code 10 s}, {@code 10s}, {@code 1min}, {@code 1
 * h}, {@code 30 min}, {@code 1d}, {@code 500 ms}; a plain number means milliseconds.
 *
 * <p>Same grammar as Flink's {@code TimeUtils}: a non-negative whole number, optional whitespace,
 * an optional unit label (case-insensitive). Fractions and negative values are not accepted.
 */
@Internal
public final class Durations {
  private Durations() {}

  /** One unit with its labels; the first label is the one {@link #format} prints. */
  private enum Unit {
    DAYS(ChronoUnit.DAYS, "d", "day", "days"),
    HOURS(ChronoUnit.HOURS, "h", "hour", "hours"),
    MINUTES(ChronoUnit.MINUTES, "min", "m", "minute", "minutes"),
    SECONDS(ChronoUnit.SECONDS, "s", "sec", "secs", "second", "seconds"),
    MILLIS(ChronoUnit.MILLIS, "ms", "milli", "millis", "millisecond", "milliseconds"),
    MICROS(
        ChronoUnit.MICROS,
        "us",
        "\u00b5s",
        "\u03bcs",
        "micro",
        "micros",
        "microsecond",
        "microseconds"),
    NANOS(ChronoUnit.NANOS, "ns", "nano", "nanos", "nanosecond", "nanoseconds");

    final ChronoUnit chronoUnit;
    final List<String> labels;

    Unit(ChronoUnit chronoUnit, String... labels) {
      this.chronoUnit = chronoUnit;
      this.labels = List.of(labels);
    }

    long nanos() {
      return chronoUnit.getDuration().toNanos();
    }
  }

  static final String ACCEPTED_FORMS =
      "a whole number with an optional unit, e.g. '10 s', '10s', '1min', '1 h', '1d', '500 ms'"
          + " (a plain number means milliseconds); units: ns|nano(s)|nanosecond(s),"
          + " us|µs|micro(s)|microsecond(s), ms|milli(s)|millisecond(s), s|sec(s)|second(s),"
          + " min|m|minute(s), h|hour(s), d|day(s)";

  /**
   * Parses a duration; throws {@link TableDefinitionException} naming the text and the accepted
   * forms.
   */
  public static Duration parse(String text) {
    if (text == null) {
      throw new TableDefinitionException("Invalid duration: null; expected " + ACCEPTED_FORMS);
    }
    String trimmed = text.trim();
    int end = 0;
    while (end < trimmed.length() && isAsciiDigit(trimmed.charAt(end))) {
      end++;
    }
    String number = trimmed.substring(0, end);
    String label = trimmed.substring(end).trim().toLowerCase(Locale.ROOT);
    if (number.isEmpty()) {
      throw invalid(text, "");
    }
    Unit unit = label.isEmpty() ? Unit.MILLIS : unitOf(label);
    if (unit == null) {
      throw invalid(text, " (unknown unit '" + label + "')");
    }
    // BigInteger so that an overflow is reported instead of silently wrapping.
    BigInteger nanos = new BigInteger(number).multiply(BigInteger.valueOf(unit.nanos()));
    try {
      return Duration.ofNanos(nanos.longValueExact());
    } catch (ArithmeticException e) {
      // Durations beyond ~292 years of nanoseconds: still representable in whole units.
      try {
        return Duration.of(new BigInteger(number).longValueExact(), unit.chronoUnit);
      } catch (ArithmeticException e2) {
        throw invalid(text, " (too large)");
      }
    }
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static Unit unitOf(String label) {
    for (Unit unit : Unit.values()) {
      if (unit.labels.contains(label)) {
        return unit;
      }
    }
    return null;
  }

  private static TableDefinitionException invalid(String text, String why) {
    return new TableDefinitionException(
        "Invalid duration '" + text + "'" + why + "; expected " + ACCEPTED_FORMS);
  }

  /**
   * Formats a duration in the largest unit that represents it exactly, e.g. {@code 30 min}, {@code
   * 1 h}, {@code 1500 ms}, {@code 0 s}; the result parses back to the same duration.
   */
  static String format(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("Negative duration " + duration + " cannot be formatted");
    }
    if (duration.isZero()) {
      return "0 s";
    }
    BigInteger nanos =
        BigInteger.valueOf(duration.getSeconds())
            .multiply(BigInteger.valueOf(1_000_000_000L))
            .add(BigInteger.valueOf(duration.getNano()));
    for (Unit unit : Unit.values()) {
      BigInteger[] quotientAndRemainder =
          nanos.divideAndRemainder(BigInteger.valueOf(unit.nanos()));
      if (quotientAndRemainder[1].signum() == 0) {
        return quotientAndRemainder[0] + " " + unit.labels.get(0);
      }
    }
    throw new IllegalArgumentException("Duration " + duration + " cannot be formatted");
  }
}
