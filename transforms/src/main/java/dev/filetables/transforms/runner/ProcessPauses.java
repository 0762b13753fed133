package dev.filetables.transforms.runner;

import dev.filetables.io.table.Durations;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.annotations.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a writer that its process was frozen (a long GC pause, a VM migration, {@code SIGSTOP}) for
 * longer than a Flink TaskManager may miss heartbeats: its tasks have then been restored elsewhere,
 * and what it was doing is a stale attempt's. When it wakes up it runs on for a moment before the
 * TaskManager learns that its tasks were cancelled; {@link Attempt#checkCurrent} lets it stop
 * before it writes or deletes anything more.
 *
 * <p>A daemon thread ticks every 100 ms; a gap between ticks, or since the last tick, longer than
 * {@link #staleAfter} is a pause. Whichever thread wakes first notices it: the tick thread records
 * it, and a check finds the last tick too old. An attempt that began before the end of such a pause
 * is stale. The bound is below Flink's heartbeat timeout (50 s by default, 20 s in the shipped
 * cluster configuration), so every pause that got the TaskManager dropped is seen; a shorter pause
 * above the bound only fails the task once more (it restarts from its checkpoint). Set {@value
 * #PROPERTY} to a duration ({@code 0} turns the check off).
 */
@Internal
public final class ProcessPauses {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessPauses.class);

  /** System property with the longest pause an attempt survives. */
  public static final String PROPERTY = "filetables.sink.stale-after-pause";

  private static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(15);
  private static final long TICK_MILLIS = 100;

  private static volatile long lastTick = System.nanoTime();

  /** {@link System#nanoTime} at the end of the latest long pause; none yet. */
  private static volatile long lastPauseEnd = Long.MIN_VALUE;

  /** The last tick before the latest long pause: both threads that notice a pause report it. */
  private static long lastPauseStart = Long.MIN_VALUE;

  static {
    Thread ticker = new Thread(ProcessPauses::tick, "filetables-pause-watch");
    ticker.setDaemon(true);
    ticker.start();
  }

  private ProcessPauses() {}

  /** The longest pause an attempt survives; zero when the check is off. */
  static Duration staleAfter() {
    String value = System.getProperty(PROPERTY);
    return value == null ? DEFAULT_STALE_AFTER : Durations.parse(value);
  }

  /** An attempt that begins now. */
  public static Attempt begin() {
    return new Attempt(System.nanoTime(), staleAfter().toNanos());
  }

  private static void tick() {
    while (true) {
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      long before = lastTick;
      Duration bound = staleAfter();
      if (!bound.isZero() && now - before > bound.toNanos()) {
        paused(before, now);
      }
      lastTick = now;
    }
  }

  /** A pause from tick {@code start} to {@code end}; the first to notice it says when it ended. */
  private static synchronized void paused(long start, long end) {
    if (start != lastPauseStart) {
      lastPauseStart = start;
      lastPauseEnd = end;
      LOG.warn(
          "This process was paused for {} ms (frozen, or starved of CPU): writer attempts begun"
              + " before fail, their tasks have been restored elsewhere",
          TimeUnit.NANOSECONDS.toMillis(end - start));
    }
  }

  /** One writer attempt (a DoFn instance), from its {@code @Setup}. */
  public static final class Attempt {
    private final long began;
    private final long staleAfterNanos;

    private Attempt(long began, long staleAfterNanos) {
      this.began = began;
      this.staleAfterNanos = staleAfterNanos;
    }

    /**
     * Throws when the process was paused for longer than {@link #staleAfter} since this attempt
     * began; call before writing or deleting a file.
     */
    public void checkCurrent(String doing) {
      if (staleAfterNanos == 0) {
        return;
      }
      long now = System.nanoTime();
      long tick = lastTick;
      if (now - tick > staleAfterNanos) {
        paused(tick, now);
      }
      if (lastPauseEnd > began) {
        throw new IllegalStateException(
            "Not "
                + doing
                + ": this process was paused for longer than "
                + Duration.ofNanos(staleAfterNanos).toSeconds()
                + " s after this writer attempt began, so its task has been restored elsewhere"
                + " (failing this stale attempt; -D"
                + PROPERTY
                + " sets the bound)");
      }
    }
  }
}
