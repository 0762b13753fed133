package dev.filetables.transforms.sink.compact;

import org.apache.beam.sdk.annotations.Internal;

/**
 * Test hook: lets a test make a compaction fail at a chosen step, to check that a retry after the
 * failure still leaves every row visible exactly once. Production code never sets it; the default
 * does nothing. Static because the Flink mini-cluster of a test runs in the test's JVM.
 */
@Internal
public final class CompactionFailpoints {
  private CompactionFailpoints() {}

  /** The steps of one compaction after which a failure is interesting. */
  public enum Point {
    /**
     * Uncompacted publish: the file is visible under its final name (the argument); its segment
     * files are not deleted yet and its group is still in the publish step's state.
     */
    AFTER_RENAME,
    /** The merged file is written, still hidden. */
    AFTER_MERGE,
    /** The merged file is visible; its inputs still exist (hidden). */
    AFTER_PUBLISH,
    /** The inputs are deleted; the merged file has not reached the partition commit yet. */
    AFTER_DELETE,
    /**
     * The group is published; its visible file is about to be handed to the partition commit and
     * the group is still in the compaction step's state.
     */
    BEFORE_EMIT,
    /**
     * End of the input on Flink: an intent (the argument is its path) was written for groups that
     * wait for the final checkpoint; nothing of them is visible yet.
     */
    END_OF_INPUT_PREPARED,
    /**
     * The final checkpoint's callback published one group of an intent (the argument is the
     * intent's path); the intent is still there.
     */
    END_OF_INPUT_PUBLISHED
  }

  /** Called at every point; may throw to simulate a crash. */
  public interface Hook {
    void reached(Point point, String mergedFile);
  }

  private static volatile Hook hook = (point, file) -> {};

  /** Installs a hook (tests only); {@link #reset} removes it. */
  public static void set(Hook newHook) {
    hook = newHook;
  }

  public static void reset() {
    hook = (point, file) -> {};
  }

  /** Called by the compactor and the publish step at each point. */
  public static void reached(Point point, String mergedFile) {
    hook.reached(point, mergedFile);
  }
}
