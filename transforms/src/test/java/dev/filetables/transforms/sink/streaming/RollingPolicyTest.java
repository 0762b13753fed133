package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.junit.jupiter.api.Test;

class RollingPolicyTest {
  // file size 1000, rollover 60 s, inactivity 10 s, check every 1 s, buffer 100
  private final RollingPolicy policy = new RollingPolicy(1000, 60_000, 10_000, 1_000, 100);

  @Test
  void dueAfterRolloverOrInactivity() {
    assertFalse(policy.isDue(5_000, 0, 0));
    assertTrue(policy.isDue(10_000, 0, 0), "idle for the inactivity interval");
    assertFalse(policy.isDue(59_999, 0, 55_000), "written recently, not open long enough");
    assertTrue(policy.isDue(60_000, 0, 59_000), "open for the rollover interval");
  }

  @Test
  void nextCheckIsTheEarliestDeadlineRoundedUpToTheCheckGrid() {
    assertEquals(10_000, policy.nextCheck(0, 0), "inactivity first, already on the grid");
    assertEquals(16_000, policy.nextCheck(0, 5_500), "rounded up to the next check");
    assertEquals(60_000, policy.nextCheck(0, 55_000), "rollover first");
    // the Direct runner's test clock starts at the minimum instant: no overflow, still on the grid
    long start = BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis();
    long next = policy.nextCheck(start, start);
    assertTrue(next >= start + 10_000 && next < start + 11_000, Long.toString(next));
    assertEquals(0, Math.floorMod(next, 1_000));
    // far-away deadlines saturate instead of wrapping around
    assertEquals(
        Long.MAX_VALUE,
        new RollingPolicy(1, Long.MAX_VALUE, Long.MAX_VALUE, 1_000, 1).nextCheck(5, 5));
  }

  @Test
  void alignedRollsComeShortlyBeforeTheCommitNearestToTheDeadline() {
    // commits every 2 s, the last one completed at 10_000; rolls 500 ms before a commit
    assertEquals(500, RollingPolicy.alignMargin(2_000));
    assertEquals(2_000, RollingPolicy.alignMargin(60_000));
    long commitInterval = 2_000;
    assertEquals(13_500, RollingPolicy.alignedInstant(13_000, 0, 10_000, commitInterval, 500));
    assertEquals(13_500, RollingPolicy.alignedInstant(14_400, 0, 10_000, commitInterval, 500));
    assertEquals(15_500, RollingPolicy.alignedInstant(14_600, 0, 10_000, commitInterval, 500));
    assertEquals(
        7_500,
        RollingPolicy.alignedInstant(7_000, 0, 10_000, commitInterval, 500),
        "earlier commits too");
    assertEquals(
        14_000,
        RollingPolicy.alignedInstant(13_000, 14_000, 10_000, commitInterval, 500),
        "never in the past");

    // rollover = inactivity = commit interval: a file opened just after a roll rolls one interval
    // later
    RollingPolicy latency = new RollingPolicy(1 << 20, 2_000, 2_000, 1_000, 1 << 20);
    assertTrue(latency.alignsTo(2_000));
    assertTrue(latency.alignsTo(4_000));
    assertFalse(latency.alignsTo(5_000), "a roll may not move by more than the intervals");
    assertFalse(latency.alignsTo(0));
    long opened = 11_600; // just after the roll at 11_500
    assertEquals(13_500, latency.nextAligned(opened, opened, opened, 10_000, 2_000));
    assertFalse(latency.isDueAligned(12_000, opened, opened, 2_000));
    assertTrue(latency.isDueAligned(13_500, opened, opened, 2_000));
  }

  @Test
  void readsTheTableOptionsAndCapsTheSegmentSizeAtTheFileSize() {
    TableOptions options =
        TableOptions.of(
            TableOptions.CONNECTOR, "filesystem",
            TableOptions.PATH, "/tmp/t",
            TableOptions.FORMAT, "csv",
            TableOptions.ROLLING_FILE_SIZE, "1kb",
            TableOptions.ROLLING_ROLLOVER_INTERVAL, "2 s",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
            TableOptions.ROLLING_CHECK_INTERVAL, "100 ms");
    RollingPolicy fromOptions = RollingPolicy.of(options, 1 << 20);
    assertEquals(1024, fromOptions.fileSize());
    assertEquals(1024, fromOptions.segmentSize());
    assertEquals(1_100, fromOptions.nextCheck(50, 50));
    assertEquals(
        "RollingPolicy{fileSize=1024, rollover=2000ms, inactivity=1000ms, check=100ms, segment=1024}",
        fromOptions.toString());
  }
}
