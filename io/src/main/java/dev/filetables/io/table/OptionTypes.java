package dev.filetables.io.table;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The standard {@link OptionType}s. Enumerated, numeric, boolean, duration, size and time-zone
 * values are trimmed and case-insensitive; free-form strings are taken exactly as given.
 */
final class OptionTypes {
  private OptionTypes() {}

  /** Reads one option value; throws {@link InvalidValueException} naming key and value. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(String key, String value);
  }

  /** A type from its documentation name, parser and formatter. */
  static <T> OptionType<T> of(String name, Parser<T> parser, Function<T, String> formatter) {
    return new OptionType<>() {
      @Override
      public String displayName() {
        return name;
      }

      @Override
      public T parse(String key, String value) {
        return parser.parse(key, value);
      }

      @Override
      public String format(T value) {
        return formatter.apply(value);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  /** Any text, exactly as given. */
  static final OptionType<String> STRING = of("string", (key, value) -> value, v -> v);

  /** Text that is not blank, exactly as given; {@code expected} says what it names. */
  static OptionType<String> notBlank(String expected) {
    return of(
        "string",
        (key, value) -> {
          if (value.isBlank()) {
            throw InvalidValueException.of(key, value, "must not be blank; expected " + expected);
          }
          return value;
        },
        v -> v);
  }

  static final OptionType<Boolean> BOOLEAN =
      of(
          "boolean",
          (key, value) -> {
            String v = value.trim();
            if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
              return Boolean.valueOf(v.equalsIgnoreCase("true"));
            }
            throw InvalidValueException.of(key, value, "expected true or false");
          },
          String::valueOf);

  /** A whole number {@code >= min}. */
  static OptionType<Integer> intAtLeast(int min) {
    return of(
        "int",
        (key, value) -> {
          int v;
          try {
            v = Integer.parseInt(value.trim());
          } catch (NumberFormatException e) {
            throw InvalidValueException.of(key, value, "expected a whole number >= " + min);
          }
          if (v < min) {
            throw InvalidValueException.of(key, value, "must be >= " + min);
          }
          return v;
        },
        String::valueOf);
  }

  /** A duration in Flink's forms ({@link Durations}); never negative, may be 0. */
  static final OptionType<Duration> DURATION =
      of("duration", OptionTypes::duration, Durations::format);

  /** A duration greater than 0: an interval that 0 would turn into a busy loop. */
  static final OptionType<Duration> POSITIVE_DURATION =
      of(
          "duration",
          (key, value) -> {
            Duration d = duration(key, value);
            if (d.isZero()) {
              throw InvalidValueException.of(key, value, "must be greater than 0, e.g. '30 min'");
            }
            return d;
          },
          Durations::format);

  private static Duration duration(String key, String value) {
    try {
      return Durations.parse(value);
    } catch (TableDefinitionException e) {
      throw InvalidValueException.of(key, value, "expected " + Durations.ACCEPTED_FORMS);
    }
  }

  /**
   * A memory size greater than 0 in bytes, in Flink's forms ({@link MemorySizes}); written upper
   * case ({@code 128MB}) as Flink's documentation writes sizes.
   */
  static final OptionType<Long> POSITIVE_SIZE =
      of(
          "size",
          (key, value) -> {
            long bytes;
            try {
              bytes = MemorySizes.parse(value);
            } catch (TableDefinitionException e) {
              throw InvalidValueException.of(key, value, "expected " + MemorySizes.ACCEPTED_FORMS);
            }
            if (bytes <= 0) {
              throw InvalidValueException.of(key, value, "must be greater than 0, e.g. '128MB'");
            }
            return bytes;
          },
          bytes -> MemorySizes.format(bytes).toUpperCase(Locale.ROOT));

  /** One of {@code allowed} (any case, trimmed); the value is the allowed spelling. */
  static OptionType<String> oneOf(String... allowed) {
    return oneOf(List.of(allowed), Function.identity());
  }

  /**
   * One of {@code values}, written as {@code spelling} gives it (any case, trimmed), e.g. the
   * constants of an enum.
   */
  static <E> OptionType<E> oneOf(List<E> values, Function<E, String> spelling) {
    String expected =
        "expected one of " + values.stream().map(spelling).collect(Collectors.joining(", "));
    return of(
        "string",
        (key, value) -> {
          String v = value.trim().toLowerCase(Locale.ROOT);
          for (E e : values) {
            if (spelling.apply(e).equals(v)) {
              return e;
            }
          }
          throw InvalidValueException.of(key, value, expected);
        },
        spelling);
  }

  /** A Java regular expression, exactly as given. */
  static final OptionType<String> REGEX =
      of(
          "string",
          (key, value) -> {
            try {
              Pattern.compile(value);
              return value;
            } catch (PatternSyntaxException e) {
              throw InvalidValueException.of(
                  key,
                  value,
                  "not a valid Java regular expression: "
                      + e.getDescription()
                      + " near index "
                      + e.getIndex());
            }
          },
          v -> v);

  /** A {@code java.time} formatter pattern such as {@code yyyyMMdd}, exactly as given. */
  static final OptionType<String> JAVA_TIME_PATTERN =
      of(
          "string",
          (key, value) -> {
            try {
              DateTimeFormatter.ofPattern(value);
              return value;
            } catch (IllegalArgumentException e) {
              throw InvalidValueException.of(
                  key,
                  value,
                  "not a valid java.time pattern (" + e.getMessage() + "); e.g. 'yyyyMMdd'");
            }
          },
          v -> v);

  /** A time zone id: a region, {@code UTC} or an offset such as {@code GMT+08:00}. */
  static final OptionType<ZoneId> TIME_ZONE =
      of(
          "string",
          (key, value) -> {
            try {
              return ZoneId.of(value.trim());
            } catch (DateTimeException e) {
              throw InvalidValueException.of(
                  key,
                  value,
                  "not a time zone id; use a region such as 'Asia/Shanghai' or"
                      + " 'America/Los_Angeles', 'UTC', or an offset such as 'GMT+08:00'");
            }
          },
          ZoneId::getId);

  /** A comma list, entries trimmed and lower-cased, empty entries dropped. */
  static List<String> splitList(String value) {
    return Arrays.stream(value.split(","))
        .map(s -> s.trim().toLowerCase(Locale.ROOT))
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toList());
  }
}
