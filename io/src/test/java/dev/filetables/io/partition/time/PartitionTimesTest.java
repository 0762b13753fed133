package dev.filetables.io.partition.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class PartitionTimesTest {
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  @Test
  void sameLocalTimeIsEightHoursEarlierInShanghai() {
    LocalDateTime noon = LocalDateTime.of(2020, 5, 20, 12, 0);
    assertEquals(
        Instant.parse("2020-05-20T12:00:00Z"), PartitionTimes.toInstant(noon, ZoneId.of("UTC")));
    assertEquals(
        Instant.parse("2020-05-20T04:00:00Z"),
        PartitionTimes.toInstant(noon, ZoneId.of("Asia/Shanghai")));
    assertEquals(
        Instant.parse("2020-05-20T04:00:00Z"),
        PartitionTimes.toInstant(noon, ZoneId.of("GMT+08:00")));
  }

  @Test
  void gapTimeMovesForward() {
    // 02:30 does not exist on 2021-03-14 in New York: clocks jump from 02:00 EST to 03:00 EDT
    assertEquals(
        Instant.parse("2021-03-14T07:30:00Z"), // 03:30 EDT
        PartitionTimes.toInstant(LocalDateTime.of(2021, 3, 14, 2, 30), NEW_YORK));
    assertEquals(
        Instant.parse("2021-03-14T07:00:00Z"), // 03:00 EDT == 02:00 EST + 1 h
        PartitionTimes.toInstant(LocalDateTime.of(2021, 3, 14, 3, 0), NEW_YORK));
  }

  @Test
  void overlapTimeTakesTheEarlierOffset() {
    // 01:30 happens twice on 2021-11-07 in New York: first at EDT (-4), then at EST (-5)
    assertEquals(
        Instant.parse("2021-11-07T05:30:00Z"),
        PartitionTimes.toInstant(LocalDateTime.of(2021, 11, 7, 1, 30), NEW_YORK));
    assertEquals(
        Instant.parse("2021-11-07T07:00:00Z"),
        PartitionTimes.toInstant(LocalDateTime.of(2021, 11, 7, 2, 0), NEW_YORK));
  }

  @Test
  void hourlyPartitionTimesStayOrderedAcrossDaylightSaving() {
    for (LocalDateTime day :
        new LocalDateTime[] {
          LocalDateTime.of(2021, 3, 14, 0, 0), LocalDateTime.of(2021, 11, 7, 0, 0)
        }) {
      long previous = Long.MIN_VALUE;
      for (int hour = 0; hour < 24; hour++) {
        long millis = PartitionTimes.toEpochMillis(day.withHour(hour), NEW_YORK);
        // spring: hour 2 does not exist and commits with hour 3; never does a later hour commit
        // first
        assertTrue(millis >= previous, day.toLocalDate() + " hour " + hour);
        previous = millis;
      }
    }
  }
}
