package dev.filetables.io.partition.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DefaultPartitionTimeExtractorTest {
  private static final List<String> DT_HOUR = List.of("dt", "hour");

  private static LocalDateTime extract(
      String pattern, String formatter, List<String> keys, String... values) {
    return new DefaultPartitionTimeExtractor(pattern, formatter)
        .extract(keys, Arrays.asList(values));
  }

  @Test
  void noPatternReadsTheFirstValueLeniently() {
    List<String> keys = List.of("dt", "other");
    assertEquals(LocalDateTime.of(2020, 5, 20, 0, 0), extract(null, null, keys, "2020-05-20", "x"));
    assertEquals(LocalDateTime.of(2020, 5, 2, 0, 0), extract(null, null, keys, "2020-5-2", "x"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 12, 3, 4),
        extract(null, null, keys, "2020-05-20 12:03:04", "x"));
    assertEquals(
        LocalDateTime.of(2020, 5, 2, 1, 2, 3), extract(null, null, keys, "2020-5-2 1:2:3", "x"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 12, 0, 0, 123_456_789),
        extract(null, null, keys, "2020-05-20 12:00:00.123456789", "x"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 12, 0, 0, 500_000_000),
        extract(null, null, keys, "2020-05-20 12:00:00.5", "x"));
  }

  @Test
  void hourlyPattern() {
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 12, 0),
        extract("$dt $hour:00:00", null, DT_HOUR, "2020-05-20", "12"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 5, 0),
        extract("$dt $hour:00:00", null, DT_HOUR, "2020-05-20", "5"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 5, 0),
        extract("$dt $hour:00:00", null, DT_HOUR, "2020-05-20", "05"));
  }

  @Test
  void dailyPartitionsMeanMidnight() {
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0), extract("$dt", null, List.of("dt"), "2020-05-20"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0),
        extract("$year-$month-$day", null, List.of("year", "month", "day"), "2020", "5", "20"));
  }

  @Test
  void formatterYyyyMmDd() {
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0), extract(null, "yyyyMMdd", List.of("dt"), "20200520"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0), extract("$dt", "yyyyMMdd", List.of("dt"), "20200520"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 7, 0),
        extract("$dt$hour", "yyyyMMddHH", DT_HOUR, "20200520", "07"));
  }

  @Test
  void formatterMonthFirstWithTime() {
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 12, 0),
        extract(
            "$date $hour:00:00",
            "MM-dd-yyyy HH:mm:ss",
            List.of("date", "hour"),
            "05-20-2020",
            "12"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 12, 30, 15),
        extract(null, "MM-dd-yyyy HH:mm:ss", List.of("ts"), "05-20-2020 12:30:15"));
    // a bare date with a date-only formatter is midnight
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0),
        extract(null, "MM-dd-yyyy", List.of("date"), "05-20-2020"));
  }

  @Test
  void longestKeyWinsSoDollarDtIsNotDollarDPlusT() {
    // Flink replaces $d first (key order) and turns "$dt" into "7t"
    List<String> keys = List.of("d", "dt");
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 7, 0),
        extract("$dt 0$d:00:00", null, keys, "7", "2020-05-20"));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 7, 0),
        extract("$dt 0$d:00:00", null, List.of("dt", "d"), "2020-05-20", "7"));
  }

  @Test
  void valuesAreInsertedAsPlainText() {
    // Flink's replaceAll reads "$1" as a group reference and "\" as an escape: both fail there
    List<String> keys = List.of("tag", "dt");
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0),
        extract("$tag $dt", "'$1\\' yyyy-MM-dd", keys, "$1\\", "2020-05-20"));
    // a value is never substituted again
    TimestampPattern pattern = TimestampPattern.parse("$a/$dt", List.of("a", "dt"));
    assertEquals("$dt/2020", pattern.substitute(List.of("$dt", "2020")));
    assertEquals(
        "x$1\\y", TimestampPattern.parse("x$v", List.of("v")).substitute(List.of("$1\\y")));
  }

  @Test
  void dollarWithoutKeyStaysLiteral() {
    TimestampPattern pattern = TimestampPattern.parse("$$dt $x", List.of("dt"));
    assertEquals("$2020 $x", pattern.substitute(List.of("2020")));
    assertEquals(List.of("dt"), pattern.keysUsed());
  }

  @Test
  void unreadableTextNamesTextPatternAndFormatter() {
    PartitionTimeException e =
        assertThrows(
            PartitionTimeException.class,
            () -> extract("$dt $hour:00:00", null, DT_HOUR, "2020-13-45", "12"));
    assertTrue(e.getMessage().contains("'2020-13-45 12:00:00'"), e.getMessage());
    assertTrue(e.getMessage().contains("'$dt $hour:00:00'"), e.getMessage());
    assertTrue(e.getMessage().contains("lenient default"), e.getMessage());

    e =
        assertThrows(
            PartitionTimeException.class,
            () -> extract(null, "yyyyMMdd", List.of("dt"), "2020-05-20"));
    assertTrue(e.getMessage().contains("'yyyyMMdd'"), e.getMessage());
    assertTrue(e.getMessage().contains("'2020-05-20'"), e.getMessage());
  }

  @Test
  void impossibleDatesFailInsteadOfBending() {
    // Flink's default parser reads 2021-02-30 as 2021-02-28
    assertThrows(
        PartitionTimeException.class, () -> extract(null, null, List.of("dt"), "2021-02-30"));
    assertThrows(
        PartitionTimeException.class,
        () -> extract(null, null, List.of("dt"), "2021-02-28 24:00:00"));
    assertEquals(
        LocalDateTime.of(2020, 2, 29, 0, 0), extract(null, null, List.of("dt"), "2020-02-29"));
  }

  @Test
  void defaultPartitionHasNoTime() {
    PartitionTimeException e =
        assertThrows(
            PartitionTimeException.class,
            () -> extract("$dt $hour:00:00", null, DT_HOUR, "2020-05-20", null));
    assertTrue(e.getMessage().contains("'hour' has no value"), e.getMessage());
  }
}
