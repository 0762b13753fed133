package dev.filetables.transforms.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessTimeTriggerTest {
  @TempDir Path root;

  private CommitTrigger trigger(String... options) {
    TableSpec table = CommitTestSupport.hourly(root, options);
    return CommitTrigger.of(table.options(), new PartitionCommitter(table));
  }

  @Test
  void theDefaultTrigger() {
    CommitTrigger trigger = trigger();
    assertInstanceOf(ProcessTimeTrigger.class, trigger);
    assertEquals("process-time", trigger.name());
  }

  @Test
  void dueDelayAfterTheFirstFile() {
    CommitTrigger trigger = trigger(TableOptions.COMMIT_DELAY, "10 min");
    TriggerState state = TriggerStateFake.empty();
    Instant first = Instant.parse("2020-05-20T12:00:00Z");
    assertEquals(
        Optional.of(Instant.parse("2020-05-20T12:10:00Z")), trigger.expectedCommit(first, state));
    assertTrue(trigger.mayCommitNow(state), "its commitNow timer is what makes it due");
    assertEquals(Optional.empty(), trigger.watermark(state));
    assertEquals(Optional.empty(), trigger.waitingFor(state));
  }
}
