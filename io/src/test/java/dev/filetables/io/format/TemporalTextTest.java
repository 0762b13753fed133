package dev.filetables.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TemporalTextTest {
  private final TemporalText parser = new TemporalText();
  private final char[] buf = new char[TemporalText.MAX_CHARS];

  private String date(LocalDate d) {
    return new String(buf, 0, TemporalText.formatDate(d, buf, 0));
  }

  private String ts(LocalDateTime t, char sep) {
    return new String(buf, 0, TemporalText.formatTimestamp(t, sep, buf, 0));
  }

  private String instant(long millis, char sep) {
    return new String(buf, 0, TemporalText.formatInstant(millis, sep, buf, 0));
  }

  private LocalDate parseDate(String s) {
    return parser.parseDate(s.toCharArray(), 0, s.length());
  }

  private LocalDateTime parseTs(String s) {
    return parser.parseTimestamp(s.toCharArray(), 0, s.length());
  }

  private long parseInstant(String s) {
    return parser.parseInstantMillis(s.toCharArray(), 0, s.length());
  }

  @Test
  void formats() {
    assertEquals("2024-02-29", date(LocalDate.of(2024, 2, 29)));
    assertEquals("0001-01-01", date(LocalDate.of(1, 1, 1)));
    assertEquals("+10000-01-01", date(LocalDate.of(10000, 1, 1)));
    assertEquals("-0001-12-31", date(LocalDate.of(-1, 12, 31)));
    assertEquals("2024-01-02 03:04:05.000", ts(LocalDateTime.of(2024, 1, 2, 3, 4, 5), ' '));
    assertEquals(
        "2024-01-02T03:04:05.120", ts(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000), 'T'));
    assertEquals(
        "2024-01-02 03:04:05.000001", ts(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 1_000), ' '));
    assertEquals(
        "2024-01-02 03:04:05.000000001", ts(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 1), ' '));
    assertEquals("1970-01-01 00:00:00.000Z", instant(0, ' '));
    assertEquals("1969-12-31T23:59:59.999Z", instant(-1, 'T'));
    assertEquals("1900-01-01 00:00:00.001Z", instant(-2_208_988_799_999L, ' '));
  }

  @Test
  void formatsByColumnType() {
    assertEquals(
        "2024-02-29",
        new String(
            buf, 0, TemporalText.format(ColumnType.DATE, LocalDate.of(2024, 2, 29), 'T', buf)));
    assertEquals(
        "2024-01-02T03:04:05.000",
        new String(
            buf,
            0,
            TemporalText.format(
                ColumnType.TIMESTAMP, LocalDateTime.of(2024, 1, 2, 3, 4, 5), 'T', buf)));
    assertEquals(
        "1970-01-01 00:00:00.001Z",
        new String(
            buf,
            0,
            TemporalText.format(ColumnType.TIMESTAMP_LTZ, new org.joda.time.Instant(1), ' ', buf)));
    assertThrows(
        IllegalArgumentException.class, () -> TemporalText.format(ColumnType.INT, 1, ' ', buf));
  }

  @Test
  void parsesLenientForms() {
    assertEquals(LocalDate.of(2024, 1, 2), parseDate(" 2024-1-2 "));
    assertEquals(LocalDate.of(10000, 1, 1), parseDate("+10000-01-01"));
    assertEquals(LocalDate.of(-1, 12, 31), parseDate("-0001-12-31"));
    assertEquals(LocalDateTime.of(2024, 1, 2, 0, 0), parseTs("2024-01-02"));
    assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4), parseTs("2024-01-02 03:04"));
    assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5), parseTs("2024-01-02T03:04:05"));
    assertEquals(
        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 100_000_000), parseTs("2024-01-02 03:04:05.1"));
    assertEquals(
        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_789),
        parseTs("2024-01-02 03:04:05.123456789"));
    assertEquals(0L, parseInstant("1970-01-01 00:00:00"));
    assertEquals(0L, parseInstant("1970-01-01T00:00:00.000Z"));
    assertEquals(0L, parseInstant("1970-01-01 08:00:00+08:00"));
    assertEquals(0L, parseInstant("1970-01-01 08:00:00+0800"));
    assertEquals(0L, parseInstant("1969-12-31 23:00:00-01"));
    assertEquals(-1L, parseInstant("1969-12-31 23:59:59.999999Z"), "truncates to millis");
  }

  @Test
  void rejectsBadText() {
    for (String bad :
        new String[] {
          "", "2024", "2024-01", "24-01-02", "2024/01/02", "2024-13-01", "2024-02-30", "x"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> parseDate(bad), bad);
      assertTrue(
          e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("DATE"),
          e.getMessage());
    }
    for (String bad :
        new String[] {
          "2024-01-02 25:00",
          "2024-01-02 03",
          "2024-01-02 03:04:05.1234567890",
          "2024-01-02 03:04:05Z",
          "2024-01-02X03:04"
        }) {
      assertThrows(IllegalArgumentException.class, () -> parseTs(bad), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> parseInstant("2024-01-02 03:04:05+25:00"));
    assertThrows(IllegalArgumentException.class, () -> parseInstant("2024-01-02 03:04:05 UTC"));
  }

  @Test
  void randomValuesRoundTrip() {
    Random random = new Random(5);
    for (int i = 0; i < 20_000; i++) {
      long millis = random.nextLong() % 400_000_000_000_000L;
      char sep = random.nextBoolean() ? ' ' : 'T';
      assertEquals(millis, parseInstant(instant(millis, sep)));
      LocalDateTime t =
          LocalDateTime.ofEpochSecond(millis / 1000, random.nextInt(1_000_000_000), ZoneOffset.UTC);
      assertEquals(t, parseTs(ts(t, sep)));
      assertEquals(t.toLocalDate(), parseDate(date(t.toLocalDate())));
    }
  }
}
