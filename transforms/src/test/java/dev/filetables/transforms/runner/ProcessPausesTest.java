package dev.filetables.transforms.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * This very JVM is frozen with {@code SIGSTOP} by a child process, which wakes it with {@code
 * SIGCONT} 2 s later: an attempt begun before the pause is stale, one begun after it is not.
 */
class ProcessPausesTest {
  @AfterEach
  void restoreBound() {
    System.clearProperty(ProcessPauses.PROPERTY);
  }

  @Test
  void anAttemptBegunBeforeALongPauseIsStaleAndOneBegunAfterIsNot() throws Exception {
    System.setProperty(ProcessPauses.PROPERTY, "1 s");
    ProcessPauses.Attempt before = ProcessPauses.begin();
    before.checkCurrent("writing"); // no pause yet

    long pid = ProcessHandle.current().pid();
    Process freezer =
        new ProcessBuilder("sh", "-c", "kill -STOP " + pid + "; sleep 2; kill -CONT " + pid)
            .start();
    assertEquals(0, freezer.waitFor());

    IllegalStateException stale =
        assertThrows(IllegalStateException.class, () -> before.checkCurrent("writing"));
    assertTrue(
        stale.getMessage().startsWith("Not writing: this process was paused"), stale.getMessage());
    ProcessPauses.begin().checkCurrent("writing");
  }

  @Test
  void zeroTurnsTheCheckOff() throws Exception {
    System.setProperty(ProcessPauses.PROPERTY, "0 s");
    ProcessPauses.Attempt attempt = ProcessPauses.begin();
    long pid = ProcessHandle.current().pid();
    Process freezer =
        new ProcessBuilder("sh", "-c", "kill -STOP " + pid + "; sleep 2; kill -CONT " + pid)
            .start();
    assertEquals(0, freezer.waitFor());
    attempt.checkCurrent("writing");
  }
}
