package dev.filetables.transforms.sink.streaming;

import org.apache.beam.sdk.annotations.Internal;

/**
 * Test hook: lets a test make the streaming writer fail at a chosen step of closing files at a
 * bundle end (roll at the commit point) or of combining the segment files of an open file, to check
 * that the restore after it still leaves every row visible exactly once. Production code never sets
 * it; the default does nothing. Static because the Flink mini-cluster of a test runs in the test's
 * JVM.
 */
@Internal
public final class SinkFailpoints {
  private SinkFailpoints() {}

  /** The steps after which a failure is interesting. */
  public enum Point {
    /** A file marked to close at the bundle end is merged (hidden), not yet emitted. */
    BUNDLE_END_MERGED,
    /** Every marked file of the bundle is merged and emitted; the state is not yet snapshotted. */
    BUNDLE_END_EMITTED,
    /**
     * Segment files of an open file are combined into a new one; the state does not name it yet.
     */
    COMBINE_WRITTEN,
    /** The state names the combined file (not yet in a checkpoint); the replaced files are kept. */
    COMBINE_RECORDED,
    /**
     * The checkpoint holding the state that names the combined file completed; its inputs are about
     * to be deleted (in the bundle finalizer).
     */
    COMBINE_DELETING
  }

  /** Called at every point; may throw to simulate a crash. */
  public interface Hook {
    void reached(Point point, String file);
  }

  private static final Hook NONE = (point, file) -> {};
  private static volatile Hook hook = NONE;

  /** Installs a hook (tests only); {@link #reset} removes it. */
  public static void set(Hook newHook) {
    hook = newHook;
  }

  public static void reset() {
    hook = NONE;
  }

  static void reached(Point point, String file) {
    hook.reached(point, file);
  }
}
