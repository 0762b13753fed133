package dev.filetables.pipelines.orders;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
