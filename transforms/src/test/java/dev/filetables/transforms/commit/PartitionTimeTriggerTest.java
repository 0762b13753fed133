package dev.filetables.transforms.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.partition.time.PartitionTimeException;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionTimeTriggerTest {
  private static final String HOUR_12 = "dt=2020-05-20/hour=12";

  @TempDir Path root;

  private TableSpec table() {
    return CommitTestSupport.hourly(
        root,
        TableOptions.COMMIT_TRIGGER,
        "partition-time",
        TableOptions.TIME_EXTRACTOR_PATTERN,
        "$dt $hour:00:00",
        TableOptions.COMMIT_DELAY,
        "30 min",
        TableOptions.COMMIT_WATERMARK_TIME_ZONE,
        "Asia/Shanghai");
  }

  private PartitionTimeTrigger trigger() {
    TableSpec table = table();
    return (PartitionTimeTrigger) CommitTrigger.of(table.options(), new PartitionCommitter(table));
  }

  @Test
  void chosenByTheTriggerOption() {
    TableSpec table = table();
    CommitTrigger trigger = CommitTrigger.of(table.options(), new PartitionCommitter(table));
    assertInstanceOf(PartitionTimeTrigger.class, trigger);
    assertEquals("partition-time", trigger.name());
  }

  @Test
  void thresholdIsPartitionTimeInZonePlusDelay() {
    PartitionTimeTrigger trigger = trigger();
    assertEquals(Instant.parse("2020-05-20T04:30:00Z"), trigger.threshold(HOUR_12));
    PartitionTimeException e =
        assertThrows(PartitionTimeException.class, () -> trigger.threshold("dt=2020-05-20/hour=x"));
    assertTrue(e.getMessage().contains("'dt=2020-05-20/hour=x'"), e.getMessage());
    assertTrue(e.getMessage().contains("timestamp-pattern '$dt $hour:00:00'"), e.getMessage());
  }

  @Test
  void commitsOnlyOnceTheWatermarkHasPassed() {
    PartitionTimeTrigger trigger = trigger();
    TriggerState state = TriggerStateFake.empty();
    state.setThreshold(trigger.threshold(HOUR_12));
    assertFalse(trigger.mayCommitNow(state), "a commitNow firing before that is stale");
    assertEquals(Optional.of(Instant.parse("2020-05-20T04:30:00Z")), trigger.watermark(state));
    assertEquals(
        Optional.of(Instant.parse("2020-05-20T04:30:00Z")),
        trigger.expectedCommit(Instant.EPOCH, state));
    assertEquals(
        Optional.of(
            "the watermark has not passed 2020-05-20T04:30:00Z yet (partition time in"
                + " Asia/Shanghai + delay PT30M); check the watermark of the input"),
        trigger.waitingFor(state));
    state.markDue();
    assertTrue(trigger.mayCommitNow(state));
    assertEquals(Optional.empty(), trigger.waitingFor(state));
  }

  @Test
  void unknownThresholdMeansUnknownExpectation() {
    TriggerState state = TriggerStateFake.empty();
    assertEquals(Optional.empty(), trigger().expectedCommit(Instant.EPOCH, state));
    assertEquals(Optional.empty(), trigger().waitingFor(state));
  }

  @Test
  void endOfInputRecordsTheThresholdIfItCanBeRead() {
    PartitionTimeTrigger trigger = trigger();
    TriggerState state = TriggerStateFake.empty();
    trigger.atEndOfInput(HOUR_12, state);
    assertEquals(Optional.of(Instant.parse("2020-05-20T04:30:00Z")), state.threshold());
    TriggerState unreadable = TriggerStateFake.empty();
    trigger.atEndOfInput("dt=2020-05-20/hour=x", unreadable);
    assertEquals(Optional.empty(), unreadable.threshold(), "committed all the same, no error");
  }
}
