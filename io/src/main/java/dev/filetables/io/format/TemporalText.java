package dev.filetables.io.format;

import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.table.ColumnType;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Text forms of DATE, TIMESTAMP and TIMESTAMP_LTZ values shared by the row formats, written and
 * parsed by hand because a {@code DateTimeFormatter} per value is the main cost of a text row
 * format.
 *
 * <p>Written: {@code yyyy-MM-dd}, {@code yyyy-MM-dd HH:mm:ss.SSS} (Flink's SQL form; more fraction
 * digits only when the value has sub-millisecond precision) and, for instants, the same in UTC
 * followed by {@code Z}. The separator between date and time is a parameter ({@code 'T'} for
 * ISO-8601).
 *
 * <p>Read leniently: {@code ' '} or {@code 'T'} between date and time, 1-2 digit fields, optional
 * seconds, 0-9 fraction digits, surrounding spaces; a bare date means midnight. Instants take
 * {@code Z}, an offset ({@code +08:00}, {@code +0800}, {@code +08}) or nothing (UTC). Years outside
 * 0000-9999 use a sign, as in ISO-8601 ({@code +10000-01-01}, {@code -0001-01-01}).
 *
 * <p>A parser instance holds scratch state and is not thread-safe; formatting methods are static.
 */
final class TemporalText {
  /** Enough room for any value this class writes. */
  static final int MAX_CHARS = 48;

  // Fields of the last parse.
  private int year;
  private int month;
  private int day;
  private int hour;
  private int minute;
  private int second;
  private int nano;
  private boolean hasOffset;
  private int offsetSeconds;

  private char[] c;
  private int inputOffset;
  private int inputLength;
  private int pos;
  private int end;

  // ------------------------------------------------------------------ formatting

  /**
   * Writes a DATE, TIMESTAMP or TIMESTAMP_LTZ value into {@code out} from index 0 and returns its
   * length; {@code separator} goes between date and time.
   */
  static int format(ColumnType type, Object value, char separator, char[] out) {
    switch (type) {
      case DATE:
        return formatDate((LocalDate) value, out, 0);
      case TIMESTAMP:
        return formatTimestamp((LocalDateTime) value, separator, out, 0);
      case TIMESTAMP_LTZ:
        return formatInstant(TimeValues.epochMillis(value), separator, out, 0);
      default:
        throw new IllegalArgumentException(type + " is not a temporal type");
    }
  }

  static int formatDate(LocalDate date, char[] out, int p) {
    return formatDate(date.getYear(), date.getMonthValue(), date.getDayOfMonth(), out, p);
  }

  private static int formatDate(int year, int month, int day, char[] out, int p) {
    if (year >= 0 && year <= 9999) {
      p = digits(year, 4, out, p);
    } else {
      // ISO-8601 expanded year: sign and at least four digits.
      out[p++] = year < 0 ? '-' : '+';
      String abs = Long.toString(Math.abs((long) year));
      for (int i = abs.length(); i < 4; i++) {
        out[p++] = '0';
      }
      abs.getChars(0, abs.length(), out, p);
      p += abs.length();
    }
    out[p++] = '-';
    p = digits(month, 2, out, p);
    out[p++] = '-';
    return digits(day, 2, out, p);
  }

  static int formatTimestamp(LocalDateTime t, char separator, char[] out, int p) {
    p = formatDate(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), out, p);
    out[p++] = separator;
    return formatTime(t.getHour(), t.getMinute(), t.getSecond(), t.getNano(), out, p);
  }

  /** An instant in UTC with a trailing {@code Z}. */
  static int formatInstant(long epochMillis, char separator, char[] out, int p) {
    p = formatTimestamp(TimeValues.localDateTime(epochMillis), separator, out, p);
    out[p++] = 'Z';
    return p;
  }

  private static int formatTime(int hour, int minute, int second, int nano, char[] out, int p) {
    p = digits(hour, 2, out, p);
    out[p++] = ':';
    p = digits(minute, 2, out, p);
    out[p++] = ':';
    p = digits(second, 2, out, p);
    out[p++] = '.';
    p = digits(nano / 1_000_000, 3, out, p);
    int subMillis = nano % 1_000_000;
    if (subMillis != 0) {
      // TIMESTAMP(3) values never get here; wider values keep their precision instead of losing it.
      p =
          subMillis % 1000 == 0
              ? digits(subMillis / 1000, 3, out, p)
              : digits(subMillis, 6, out, p);
    }
    return p;
  }

  private static int digits(int value, int width, char[] out, int p) {
    for (int i = p + width - 1; i >= p; i--) {
      out[i] = (char) ('0' + value % 10);
      value /= 10;
    }
    return p + width;
  }

  // ------------------------------------------------------------------ parsing

  LocalDate parseDate(char[] chars, int offset, int length) {
    start(chars, offset, length);
    if (!date() || pos != end) {
      throw bad("DATE", "yyyy-MM-dd");
    }
    try {
      return LocalDate.of(year, month, day);
    } catch (DateTimeException e) {
      throw invalid("DATE", e.getMessage());
    }
  }

  LocalDateTime parseTimestamp(char[] chars, int offset, int length) {
    start(chars, offset, length);
    if (!dateTime() || pos != end) {
      throw bad("TIMESTAMP", "yyyy-MM-dd HH:mm:ss[.fraction]");
    }
    if (hasOffset) {
      throw invalid("TIMESTAMP", "it has a time zone; TIMESTAMP takes local date-times");
    }
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second, nano);
    } catch (DateTimeException e) {
      throw invalid("TIMESTAMP", e.getMessage());
    }
  }

  /** Epoch milliseconds of an instant (sub-millisecond digits are truncated). */
  long parseInstantMillis(char[] chars, int offset, int length) {
    start(chars, offset, length);
    if (!dateTime() || pos != end) {
      throw bad("TIMESTAMP_LTZ", "yyyy-MM-dd HH:mm:ss[.fraction][Z|+HH:mm]");
    }
    try {
      long days = LocalDate.of(year, month, day).toEpochDay();
      LocalDateTime.of(2000, 1, 1, hour, minute, second); // validates the time fields
      long seconds = days * 86400L + hour * 3600L + minute * 60L + second - offsetSeconds;
      return Math.addExact(Math.multiplyExact(seconds, 1000L), nano / 1_000_000);
    } catch (DateTimeException | ArithmeticException e) {
      throw invalid("TIMESTAMP_LTZ", e.getMessage());
    }
  }

  private void start(char[] chars, int offset, int length) {
    c = chars;
    inputOffset = offset;
    inputLength = length;
    pos = offset;
    end = offset + length;
    while (pos < end && c[pos] == ' ') {
      pos++;
    }
    while (end > pos && c[end - 1] == ' ') {
      end--;
    }
    hour = minute = second = nano = 0;
    hasOffset = false;
    offsetSeconds = 0;
  }

  private boolean date() {
    boolean negative = false;
    if (pos < end && (c[pos] == '+' || c[pos] == '-')) {
      negative = c[pos] == '-';
      pos++;
    }
    int yearStart = pos;
    long y = 0;
    while (pos < end && isDigit(c[pos]) && pos - yearStart < 10) {
      y = y * 10 + (c[pos++] - '0');
    }
    if (pos - yearStart < 4 || y > Integer.MAX_VALUE) {
      return false;
    }
    year = (int) (negative ? -y : y);
    if (!expect('-')) {
      return false;
    }
    month = number(1, 2);
    if (month < 0 || !expect('-')) {
      return false;
    }
    day = number(1, 2);
    return day >= 0;
  }

  private boolean dateTime() {
    if (!date()) {
      return false;
    }
    if (pos == end) {
      return true; // a bare date: midnight
    }
    char sep = c[pos];
    if (sep != ' ' && sep != 'T' && sep != 't') {
      return false;
    }
    pos++;
    hour = number(1, 2);
    if (hour < 0 || !expect(':')) {
      return false;
    }
    minute = number(1, 2);
    if (minute < 0) {
      return false;
    }
    if (pos < end && c[pos] == ':') {
      pos++;
      second = number(1, 2);
      if (second < 0) {
        return false;
      }
      if (pos < end && (c[pos] == '.' || c[pos] == ',')) {
        pos++;
        int fractionStart = pos;
        int value = 0;
        while (pos < end && isDigit(c[pos])) {
          if (pos - fractionStart == 9) {
            return false;
          }
          value = value * 10 + (c[pos++] - '0');
        }
        for (int i = pos - fractionStart; i < 9; i++) {
          value *= 10;
        }
        nano = value;
      }
    }
    return zone();
  }

  private boolean zone() {
    if (pos == end) {
      return true;
    }
    char z = c[pos];
    if (z == 'Z' || z == 'z') {
      pos++;
      hasOffset = true;
      return true;
    }
    if (z != '+' && z != '-') {
      return false;
    }
    pos++;
    int hours = number(2, 2);
    if (hours < 0 || hours > 18) {
      return false;
    }
    int minutes = 0;
    if (pos < end) {
      if (c[pos] == ':') {
        pos++;
      }
      minutes = number(2, 2);
      if (minutes < 0 || minutes > 59) {
        return false;
      }
    }
    offsetSeconds = (z == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
    hasOffset = true;
    return true;
  }

  private int number(int minDigits, int maxDigits) {
    int startPos = pos;
    int value = 0;
    while (pos < end && isDigit(c[pos]) && pos - startPos < maxDigits) {
      value = value * 10 + (c[pos++] - '0');
    }
    return pos - startPos < minDigits ? -1 : value;
  }

  private boolean expect(char ch) {
    if (pos < end && c[pos] == ch) {
      pos++;
      return true;
    }
    return false;
  }

  private static boolean isDigit(char ch) {
    return ch >= '0' && ch <= '9';
  }

  private IllegalArgumentException bad(String type, String expected) {
    return new IllegalArgumentException(
        "cannot parse '"
            + new String(c, inputOffset, inputLength)
            + "' as "
            + type
            + " (expected "
            + expected
            + ")");
  }

  private IllegalArgumentException invalid(String type, String reason) {
    return new IllegalArgumentException(
        "cannot parse '"
            + new String(c, inputOffset, inputLength)
            + "' as "
            + type
            + ": "
            + reason);
  }
}
