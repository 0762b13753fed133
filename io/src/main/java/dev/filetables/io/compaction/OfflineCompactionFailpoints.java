package dev.filetables.io.compaction;

import java.nio.file.Path;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Test hook: lets a test stop an offline compaction at a chosen step (the crash tests halt the JVM
 * there), to check that the next run leaves every row visible exactly once. Production code never
 * sets it; the default does nothing.
 */
@Internal
public final class OfflineCompactionFailpoints {
  private OfflineCompactionFailpoints() {}

  /** The steps after which a crash is interesting; the argument is the file of the step. */
  public enum Point {
    /** The merged file is written under its hidden name (the argument). */
    MERGED,
    /** The merged file's sidecar is written; the merged file (the argument) is still hidden. */
    SIDECAR_WRITTEN,
    /** The merged file (the argument) is visible: committed; its inputs are still visible too. */
    COMMITTED,
    /** One replaced file (the argument) was moved to its grace name (or deleted, grace 0). */
    RETIRED,
    /** One grace name (the argument) was deleted after the grace period. */
    EXPIRED
  }

  /** Called at every point; may throw or halt to simulate a crash. */
  public interface Hook {
    void reached(Point point, Path file);
  }

  private static volatile Hook hook = (point, file) -> {};

  /** Installs a hook (tests only); {@link #reset} removes it. */
  public static void set(Hook newHook) {
    hook = newHook;
  }

  public static void reset() {
    hook = (point, file) -> {};
  }

  static void reached(Point point, Path file) {
    hook.reached(point, file);
  }
}
