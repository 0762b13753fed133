package dev.filetables.io.partition.time;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Places a partition's local time in {@code sink.partition-commit.watermark-time-zone}.
 *
 * <p>The local time is converted to an instant (never the watermark to local time): instants are
 * ordered the same in every zone, local times are not around a daylight-saving change. A local time
 * in a gap (spring forward, e.g. 02:30 on 2021-03-14 in America/New_York) moves forward by the
 * length of the gap (03:30 EDT); a local time in an overlap (fall back, 01:30 on 2021-11-07) takes
 * the earlier offset (01:30 EDT, the first of the two 01:30s), so the commit never waits for the
 * later one.
 */
@Internal
public final class PartitionTimes {
  private PartitionTimes() {}

  public static Instant toInstant(LocalDateTime partitionTime, ZoneId zone) {
    return ZonedDateTime.ofLocal(partitionTime, zone, null).toInstant();
  }

  /** Epoch milliseconds of {@link #toInstant}. */
  public static long toEpochMillis(LocalDateTime partitionTime, ZoneId zone) {
    return toInstant(partitionTime, zone).toEpochMilli();
  }
}
