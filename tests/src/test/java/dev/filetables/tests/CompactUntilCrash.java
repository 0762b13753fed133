package dev.filetables.tests;

import dev.filetables.io.compaction.OfflineCompactionFailpoints;
import dev.filetables.io.compaction.OfflineCompactionFailpoints.Point;
import dev.filetables.pipelines.FileTablesCli;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@code bin/filetables} process that dies at a step of the offline compaction: {@code <point>
 * <n> <cli arguments…>} runs the CLI and halts the JVM — no shutdown hooks, no finally blocks, as
 * {@code kill -9} would — when the compaction reaches {@code point} for the {@code n}-th time.
 */
public final class CompactUntilCrash {
  /** The exit code of the halt. */
  static final int CRASHED = 86;

  private CompactUntilCrash() {}

  public static void main(String[] args) {
    Point point = Point.valueOf(args[0]);
    int nth = Integer.parseInt(args[1]);
    AtomicInteger reached = new AtomicInteger();
    OfflineCompactionFailpoints.set(
        (at, file) -> {
          if (at == point && reached.incrementAndGet() == nth) {
            System.err.println("crashing at " + at + " #" + nth + ": " + file);
            System.err.flush();
            Runtime.getRuntime().halt(CRASHED);
          }
        });
    FileTablesCli.main(Arrays.copyOfRange(args, 2, args.length));
  }
}
