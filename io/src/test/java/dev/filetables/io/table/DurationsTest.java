package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "10 s|PT10S",
        "10s|PT10S",
        "1min|PT1M",
        "1 h|PT1H",
        "30 min|PT30M",
        "1d|PT24H",
        "500 ms|PT0.5S",
        "500|PT0.5S",
        "0|PT0S",
        "0 s|PT0S",
        "  7  SECONDS  |PT7S",
        "2 Minutes|PT2M",
        "3m|PT3M",
        "1 minute|PT1M",
        "2 hours|PT2H",
        "1 hour|PT1H",
        "2 days|PT48H",
        "1 day|PT24H",
        "4 sec|PT4S",
        "4 secs|PT4S",
        "1 second|PT1S",
        "1 milli|PT0.001S",
        "2 millis|PT0.002S",
        "3 millisecond|PT0.003S",
        "3 milliseconds|PT0.003S",
        "5 MS|PT0.005S",
        "7 us|PT0.000007S",
        "7 µs|PT0.000007S",
        "7 micro|PT0.000007S",
        "7 micros|PT0.000007S",
        "7 microsecond|PT0.000007S",
        "7 microseconds|PT0.000007S",
        "9 ns|PT0.000000009S",
        "9 nano|PT0.000000009S",
        "9 nanos|PT0.000000009S",
        "9 nanosecond|PT0.000000009S",
        "9 nanoseconds|PT0.000000009S",
      })
  void parsesFlinkForms(String text, String expected) {
    assertEquals(Duration.parse(expected), Durations.parse(text));
  }

  @Test
  void parsesLargeDaysBeyondNanosecondRange() {
    assertEquals(Duration.ofDays(200_000), Durations.parse("200000 d"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "  ", "s", "ten s", "-1 s", "1.5 s", "10 parsecs", "10 mins", "1 s 2", "+1 s"})
  void rejectsBadTextNamingItAndTheForms(String text) {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> Durations.parse(text));
    assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    assertTrue(e.getMessage().contains("'10 s'"), e.getMessage());
    assertTrue(e.getMessage().contains("min|m|minute(s)"), e.getMessage());
  }

  @Test
  void rejectsNullAndOverflow() {
    assertThrows(TableDefinitionException.class, () -> Durations.parse(null));
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class, () -> Durations.parse("99999999999999999999999 d"));
    assertTrue(e.getMessage().contains("too large"), e.getMessage());
  }

  @Test
  void unknownUnitIsNamed() {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> Durations.parse("10 weeks"));
    assertTrue(e.getMessage().contains("unknown unit 'weeks'"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "PT30M|30 min",
        "PT1M|1 min",
        "PT1H|1 h",
        "PT24H|1 d",
        "PT48H|2 d",
        "PT90M|90 min",
        "PT10S|10 s",
        "PT1.5S|1500 ms",
        "PT0S|0 s",
        "PT0.000007S|7 us",
        "PT0.000000009S|9 ns",
      })
  void formatsInLargestExactUnit(String duration, String expected) {
    assertEquals(expected, Durations.format(Duration.parse(duration)));
  }

  @Test
  void formatRoundTrips() {
    for (Duration d :
        new Duration[] {
          Duration.ofMillis(1),
          Duration.ofMillis(123_456),
          Duration.ofDays(3),
          Duration.ofNanos(1001)
        }) {
      assertEquals(d, Durations.parse(Durations.format(d)));
    }
  }

  @Test
  void formatRejectsNegative() {
    assertThrows(IllegalArgumentException.class, () -> Durations.format(Duration.ofSeconds(-1)));
  }
}
