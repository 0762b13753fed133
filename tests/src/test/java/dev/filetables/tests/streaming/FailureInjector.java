package dev.filetables.tests.streaming;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * A pass-through step that throws at planned record counts, to make the Flink job fail and restart
 * from its last checkpoint.
 *
 * <p>The count is of records seen by every instance and every attempt of the job together, kept in
 * a JVM-static {@link Plan} (the embedded cluster runs here and shares this class), so each planned
 * failure happens exactly once, and replays after a restore move the count on instead of failing
 * again at the same record. Failure points are drawn from a seeded random generator: random places
 * relative to checkpoints and bundles, reproducible from the seed.
 */
final class FailureInjector extends DoFn<Row, Row> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Plan> PLANS = new ConcurrentHashMap<>();

  /** The exception injected; its message names the record count. */
  static final class InjectedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InjectedFailure(String message) {
      super(message);
    }
  }

  /** Where to fail, and what happened so far. */
  static final class Plan {
    final String id;
    final long seed;
    private final long[] failAt;
    private final AtomicLong seen = new AtomicLong();
    private final List<Long> injectedAt = new CopyOnWriteArrayList<>();

    private Plan(String id, long seed, long[] failAt) {
      this.id = id;
      this.seed = seed;
      this.failAt = failAt;
    }

    void onRecord() {
      long n = seen.incrementAndGet();
      if (Arrays.binarySearch(failAt, n) >= 0) {
        injectedAt.add(n);
        throw new InjectedFailure(
            "Injected failure "
                + injectedAt.size()
                + "/"
                + failAt.length
                + " at record "
                + n
                + " (plan seed "
                + seed
                + ")");
      }
    }

    /** Planned failure points (record counts), ascending. */
    List<Long> planned() {
      return Arrays.stream(failAt).boxed().toList();
    }

    /** Failures thrown so far, by record count. */
    List<Long> injected() {
      return List.copyOf(injectedAt);
    }

    /** Records seen, replays included. */
    long recordsSeen() {
      return seen.get();
    }

    @Override
    public String toString() {
      return "Plan{seed="
          + seed
          + ", failAt="
          + planned()
          + ", injected="
          + injected()
          + ", seen="
          + seen.get()
          + "}";
    }
  }

  /** A plan that never fails (keeps the pipeline shape the same as a failing run). */
  static Plan none() {
    return register(0, new long[0]);
  }

  /**
   * {@code failures} distinct failure points drawn uniformly from record counts {@code [from, to]}
   * with {@code seed}. Points below the number of input rows are always reached: every row passes
   * this step at least once.
   */
  static Plan random(long seed, int failures, long from, long to) {
    if (to - from + 1 < failures) {
      throw new IllegalArgumentException(
          "Cannot place " + failures + " failures in [" + from + ", " + to + "]");
    }
    Random random = new Random(seed);
    TreeSet<Long> points = new TreeSet<>();
    while (points.size() < failures) {
      points.add(from + (long) (random.nextDouble() * (to - from + 1)));
    }
    return register(seed, points.stream().mapToLong(Long::longValue).toArray());
  }

  private static Plan register(long seed, long[] failAt) {
    Plan plan = new Plan(UUID.randomUUID().toString(), seed, failAt);
    PLANS.put(plan.id, plan);
    return plan;
  }

  static void forget(Plan plan) {
    PLANS.remove(plan.id);
  }

  private final String planId;

  FailureInjector(Plan plan) {
    this.planId = plan.id;
  }

  @ProcessElement
  public void processElement(@Element Row row, OutputReceiver<Row> out) {
    Plan plan = PLANS.get(planId);
    if (plan != null) {
      plan.onRecord();
    }
    out.output(row);
  }
}
