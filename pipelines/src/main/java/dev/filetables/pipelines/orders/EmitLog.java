package dev.filetables.pipelines.orders;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.beam.sdk.annotations.Internal;

/**
 * When {@link OrdersSource} emitted its rows, shared through a static registry keyed by run id: the
 * embedded Flink cluster of the tests and benchmarks runs in this JVM (and loads job classes from
 * the parent class loader), so the source instances on the task threads see the same registry as
 * the code that started the job.
 */
@Internal
public final class EmitLog {
  private static final Map<String, EmitLog> LOGS = new ConcurrentHashMap<>();

  private final boolean perRow;
  private final AtomicLong emissions = new AtomicLong();
  private final AtomicLong firstMillis = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong lastMillis = new AtomicLong(Long.MIN_VALUE);
  private final Map<Long, Long> firstEmissionByRow = new ConcurrentHashMap<>();

  /** Emissions from which the brake applies; {@code Long.MAX_VALUE}: no brake. */
  private volatile long brakeAt = Long.MAX_VALUE;

  private volatile double brakeRowsPerSecond;
  private volatile BooleanSupplier brakeReleased = () -> true;
  private volatile long brakeDeadlineNanos;
  private final AtomicLong brakeStartNanos = new AtomicLong(Long.MIN_VALUE);

  private EmitLog(boolean perRow) {
    this.perRow = perRow;
  }

  /**
   * Registers a log; {@code perRow} also keeps each row's first emission time (small runs only).
   */
  public static EmitLog create(String runId, boolean perRow) {
    EmitLog log = new EmitLog(perRow);
    if (LOGS.putIfAbsent(runId, log) != null) {
      throw new IllegalStateException("An emit log for run " + runId + " exists already");
    }
    return log;
  }

  /** The log of a run, or null when none was registered (the source then records nothing). */
  public static EmitLog get(String runId) {
    return LOGS.get(runId);
  }

  public static void remove(String runId) {
    LOGS.remove(runId);
  }

  void emitted(long row, long nowMillis) {
    emissions.incrementAndGet();
    firstMillis.accumulateAndGet(nowMillis, Math::min);
    lastMillis.accumulateAndGet(nowMillis, Math::max);
    if (perRow) {
      firstEmissionByRow.putIfAbsent(row, nowMillis);
    }
  }

  /**
   * Test support: from {@code atEmissions} emissions on, the source emits at most {@code
   * rowsPerSecond} rows per second (over all its splits) until {@code released} holds or {@code
   * atMost} has passed since the brake took hold. A failure test uses it to keep rows trickling
   * while the steps it wants to crash in are still to come: on a loaded machine those steps come
   * later in the run, and without the brake the input could end first.
   */
  public void brake(
      long atEmissions, double rowsPerSecond, BooleanSupplier released, Duration atMost) {
    this.brakeRowsPerSecond = rowsPerSecond;
    this.brakeReleased = released;
    this.brakeDeadlineNanos = atMost.toNanos();
    this.brakeAt = atEmissions;
  }

  /**
   * The pause between two rows of one of {@code splits} source splits while the brake holds, in
   * nanoseconds; 0 without a brake.
   */
  long brakeNanosPerRow(int splits) {
    if (emissions.get() < brakeAt) {
      return 0;
    }
    long now = System.nanoTime();
    brakeStartNanos.compareAndSet(Long.MIN_VALUE, now);
    if (brakeReleased.getAsBoolean() || now - brakeStartNanos.get() > brakeDeadlineNanos) {
      brakeAt = Long.MAX_VALUE;
      return 0;
    }
    return (long) (1e9 * splits / brakeRowsPerSecond);
  }

  /** Rows emitted, counting rows emitted again after a restore. */
  public long emissions() {
    return emissions.get();
  }

  /** Wall-clock time of the first emission, or {@code Long.MAX_VALUE} before any. */
  public long firstMillis() {
    return firstMillis.get();
  }

  /** Wall-clock time of the latest emission, or {@code Long.MIN_VALUE} before any. */
  public long lastMillis() {
    return lastMillis.get();
  }

  /** Row id → wall-clock time it was first emitted (empty unless created with {@code perRow}). */
  public Map<Long, Long> firstEmissionByRow() {
    return firstEmissionByRow;
  }
}
