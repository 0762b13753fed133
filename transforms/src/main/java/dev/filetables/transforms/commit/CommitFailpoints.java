package dev.filetables.transforms.commit;

import org.apache.beam.sdk.annotations.Internal;

/**
 * Test hook: lets a test make a partition commit fail at a chosen step, to check that the retry
 * after the failure still commits every partition once all of its rows are visible. Production code
 * never sets it; the default does nothing. Static because the Flink mini-cluster of a test runs in
 * the test's JVM.
 */
@Internal
public final class CommitFailpoints {
  private CommitFailpoints() {}

  /** The steps of one partition commit after which a failure is interesting. */
  public enum Point {
    /** The partition is due; no policy has run yet (no success file written). */
    BEFORE_POLICIES,
    /** Every policy ran (the success file is written); the commit step has not recorded it yet. */
    AFTER_POLICIES
  }

  /** Called at every point with the partition path; may throw to simulate a crash. */
  public interface Hook {
    void reached(Point point, String partitionPath);
  }

  private static volatile Hook hook = (point, partition) -> {};

  /** Installs a hook (tests only); {@link #reset} removes it. */
  public static void set(Hook newHook) {
    hook = newHook;
  }

  public static void reset() {
    hook = (point, partition) -> {};
  }

  static void reached(Point point, String partitionPath) {
    hook.reached(point, partitionPath);
  }
}
