package dev.filetables.io.partition;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;

/**
 * Typed partition values ↔ their directory strings, per {@link ColumnType}.
 *
 * <p>{@code format(value, type)} gives the string written in the directory name (before escaping;
 * null stays null); {@code parse(text, type)} the typed value back (null stays null), failing with
 * an {@link IllegalArgumentException} that names the value, the type and the expected form.
 *
 * <pre>
 * STRING          as is
 * BOOLEAN         true / false (parse ignores case)
 * INT, BIGINT     decimal
 * FLOAT, DOUBLE   Java toString (1.5, NaN, Infinity)
 * DECIMAL         toPlainString (no exponent)
 * DATE            yyyy-MM-dd
 * TIMESTAMP       yyyy-MM-dd HH:mm:ss, plus .SSS when the millis are not 0 (parse: 'T' or ' ', any fraction)
 * TIMESTAMP_LTZ   the same form, in UTC (parse also accepts a trailing 'Z')
 * </pre>
 */
@Internal
public final class PartitionValues {
  private PartitionValues() {}

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);

  private static final DateTimeFormatter TIMESTAMP_PARSER =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .appendValue(ChronoField.HOUR_OF_DAY, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter()
          .withResolverStyle(ResolverStyle.STRICT);

  public static String format(Object value, FieldType type) {
    if (value == null) {
      return null;
    }
    ColumnType columnType = ColumnType.of(type);
    if (!columnType.javaClass().isInstance(value)) {
      throw new IllegalArgumentException(
          "Partition value "
              + value
              + " of class "
              + value.getClass().getName()
              + " does not fit column type "
              + columnType
              + ", which holds "
              + columnType.javaClass().getName());
    }
    switch (columnType) {
      case STRING:
        return (String) value;
      case BOOLEAN:
      case INT:
      case BIGINT:
      case FLOAT:
      case DOUBLE:
        return value.toString();
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case DATE:
        return ((LocalDate) value).format(DateTimeFormatter.ISO_LOCAL_DATE);
      case TIMESTAMP:
        return formatTimestamp((LocalDateTime) value);
      case TIMESTAMP_LTZ:
        long millis = ((org.joda.time.Instant) value).getMillis();
        return formatTimestamp(
            LocalDateTime.ofEpochSecond(
                Math.floorDiv(millis, 1000L),
                (int) Math.floorMod(millis, 1000L) * 1_000_000,
                ZoneOffset.UTC));
      default:
        throw new AssertionError(columnType);
    }
  }

  public static Object parse(String text, FieldType type) {
    if (text == null) {
      return null;
    }
    ColumnType columnType = ColumnType.of(type);
    try {
      switch (columnType) {
        case STRING:
          return text;
        case BOOLEAN:
          if (text.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
          }
          if (text.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
          }
          throw failure(text, columnType, null);
        case INT:
          return Integer.valueOf(text);
        case BIGINT:
          return Long.valueOf(text);
        case FLOAT:
          checkFloatingPoint(text, columnType);
          return Float.valueOf(text);
        case DOUBLE:
          checkFloatingPoint(text, columnType);
          return Double.valueOf(text);
        case DECIMAL:
          return parseDecimal(text, type);
        case DATE:
          return LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE);
        case TIMESTAMP:
          return parseTimestamp(text);
        case TIMESTAMP_LTZ:
          String local = text.endsWith("Z") ? text.substring(0, text.length() - 1) : text;
          LocalDateTime utc = parseTimestamp(local);
          if (utc.getNano() % 1_000_000 != 0) {
            throw failure(text, columnType, "TIMESTAMP_LTZ holds milliseconds, not finer");
          }
          return new org.joda.time.Instant(utc.toInstant(ZoneOffset.UTC).toEpochMilli());
        default:
          throw new AssertionError(columnType);
      }
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      throw failure(text, columnType, e.getMessage());
    }
  }

  /** The form {@link #parse} expects for a column type, for error messages. */
  static String expectedForm(ColumnType type) {
    switch (type) {
      case STRING:
        return "any text";
      case BOOLEAN:
        return "true or false";
      case INT:
        return "a decimal integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
      case BIGINT:
        return "a decimal integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
      case FLOAT:
      case DOUBLE:
        return "a number such as 1.5, -2, 1.0E10, NaN or Infinity";
      case DECIMAL:
        return "a decimal number such as 12.34";
      case DATE:
        return "yyyy-MM-dd";
      case TIMESTAMP:
        return "yyyy-MM-dd HH:mm:ss[.fraction] ('T' may replace the space)";
      case TIMESTAMP_LTZ:
        return "yyyy-MM-dd HH:mm:ss[.SSS] in UTC ('T' may replace the space, a trailing 'Z' is allowed)";
      default:
        throw new AssertionError(type);
    }
  }

  private static String formatTimestamp(LocalDateTime value) {
    String seconds = value.format(SECONDS);
    int nanos = value.getNano();
    if (nanos == 0) {
      return seconds;
    }
    if (nanos % 1_000_000 == 0) {
      return seconds + "." + threeDigits(nanos / 1_000_000);
    }
    // Finer than TIMESTAMP(3): keep every digit rather than silently truncating a directory value.
    String fraction = String.format("%09d", nanos);
    int end = fraction.length();
    while (fraction.charAt(end - 1) == '0') {
      end--;
    }
    return seconds + "." + fraction.substring(0, end);
  }

  private static String threeDigits(int millis) {
    return millis < 10 ? "00" + millis : millis < 100 ? "0" + millis : Integer.toString(millis);
  }

  private static LocalDateTime parseTimestamp(String text) {
    int t = text.indexOf('T');
    String spaced = t < 0 ? text : text.substring(0, t) + ' ' + text.substring(t + 1);
    return LocalDateTime.parse(spaced, TIMESTAMP_PARSER);
  }

  private static void checkFloatingPoint(String text, ColumnType type) {
    // Java also accepts surrounding blanks, a type suffix (1d, 2f) and hex floats: not in a
    // directory.
    if (text.isEmpty()
        || Character.isWhitespace(text.charAt(0))
        || Character.isWhitespace(text.charAt(text.length() - 1))
        || "dDfF".indexOf(text.charAt(text.length() - 1)) >= 0
        || text.contains("x")
        || text.contains("X")) {
      throw failure(text, type, null);
    }
  }

  private static BigDecimal parseDecimal(String text, FieldType type) {
    BigDecimal value = new BigDecimal(text);
    if (type.getTypeName() != TypeName.LOGICAL_TYPE) {
      return value; // plain DECIMAL carries no precision or scale
    }
    int precision = ColumnType.decimalPrecision(type);
    int scale = ColumnType.decimalScale(type);
    if (value.scale() > scale) {
      try {
        value = value.setScale(scale, RoundingMode.UNNECESSARY); // drops trailing zeros only
      } catch (ArithmeticException e) {
        throw failure(
            text,
            ColumnType.DECIMAL,
            "more than "
                + scale
                + " digits after the point for DECIMAL("
                + precision
                + ", "
                + scale
                + ")");
      }
    }
    if (value.precision() > precision) {
      throw failure(
          text,
          ColumnType.DECIMAL,
          "more than " + precision + " digits for DECIMAL(" + precision + ", " + scale + ")");
    }
    return value;
  }

  private static IllegalArgumentException failure(String text, ColumnType type, String detail) {
    return new IllegalArgumentException(
        "Cannot read partition value '"
            + text
            + "' as "
            + type
            + ": expected "
            + expectedForm(type)
            + (detail == null ? "" : " (" + detail + ")"));
  }
}
