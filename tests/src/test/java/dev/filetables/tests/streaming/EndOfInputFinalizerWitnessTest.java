package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WITNESS (not a product test) for docs/compaction.md, "Runner behaviour this relies on": on Beam
 * 2.62's Flink runner (Flink 1.19, checkpoints after tasks finished on by default), a bundle
 * finalizer that a keyed DoFn registers from its end-of-input event-time timer runs, when the job's
 * final checkpoint completes, before the task (and the job) finishes.
 *
 * <p>{@code @OnTimer} gets no {@code BundleFinalizer} on non-portable runners (the argument
 * provider throws), so the DoFn keeps the one handed to {@code @ProcessElement}: {@code
 * DoFnOperator} hands out the same operator-wide instance every time, and {@code snapshotState}
 * collects whatever was registered with it since the previous snapshot, here the final checkpoint
 * taken after {@code finish()} (which fires the end-of-window timers).
 */
// A witness of runner behaviour for a design study (docs/compaction.md, "Runner behaviour this
// relies on"), not a
// product test: it depends on Flink's final checkpoint timing, so it runs only on request:
// mvn -B -o test -pl tests -am -Dsurefire.failIfNoSpecifiedTests=false
// -Dtest=EndOfInputFinalizerWitnessTest -Dfiletables.witness=true
@EnabledIfSystemProperty(named = "filetables.witness", matches = "true")
class EndOfInputFinalizerWitnessTest {
  private static final Logger LOG = LoggerFactory.getLogger(EndOfInputFinalizerWitnessTest.class);
  private static final int KEYS = 4;

  /** Per key: end timer fired (1) and finalizer ran (2). */
  static final Map<String, Integer> STAGE = new ConcurrentHashMap<>();

  static final AtomicInteger ENDS = new AtomicInteger();
  static final AtomicInteger FINALIZED = new AtomicInteger();
  static final AtomicInteger SETUPS = new AtomicInteger();

  /**
   * When set, the first end-of-input finalizer to run throws (a failure after the final
   * checkpoint).
   */
  static final java.util.concurrent.atomic.AtomicBoolean FAIL_ONCE =
      new java.util.concurrent.atomic.AtomicBoolean();

  @TempDir Path dir;

  @Test
  void finalizerRegisteredAtEndOfInputRunsAtTheFinalCheckpoint() throws Exception {
    JobStatus status = run(false);
    LOG.info(
        "job {}: {} end timers fired, {} end-of-input finalizers ran: {}",
        status,
        ENDS.get(),
        FINALIZED.get(),
        STAGE);
    assertEquals(JobStatus.FINISHED, status);
    assertEquals(KEYS, ENDS.get(), "end-of-input timers fired");
    assertEquals(
        KEYS,
        FINALIZED.get(),
        "finalizers registered at the end of the input that ran before the job finished");
    STAGE.values().forEach(s -> assertTrue(s == 2, "stages " + STAGE));
  }

  /**
   * A failure inside the end-of-input finalizer, i.e. after the final checkpoint completed: what
   * does the restore do with the finished operator? Only logged here, see the assertions for what
   * was seen.
   */
  @Test
  void failureInTheEndOfInputFinalizer() throws Exception {
    JobStatus status = run(true);
    LOG.info(
        "with a failure in a finalizer: job {}: {} DoFn setups, {} end timers fired, {} end-of-input finalizers ran: {}",
        status,
        SETUPS.get(),
        ENDS.get(),
        FINALIZED.get(),
        STAGE);
    assertEquals(JobStatus.FINISHED, status);
    assertEquals(
        KEYS, ENDS.get(), "end timers: the restore does not run the finished operator again");
    assertTrue(
        FINALIZED.get() < KEYS,
        "the failed finalizer's work is lost, yet the job finished: " + STAGE);
  }

  private JobStatus run(boolean failOnce) throws Exception {
    STAGE.clear();
    ENDS.set(0);
    FINALIZED.set(0);
    SETUPS.set(0);
    FAIL_ONCE.set(failOnce);
    JobStatus status;
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(dir.resolve("flink"), 2)) {
      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "eoi-finalizer-witness");
      // the interval after which the final checkpoint is triggered; long enough that the end timer
      // certainly fires before it
      options.setCheckpointingInterval(1_000L);
      Pipeline p = Pipeline.create(options);
      PCollection<Row> rows =
          p.apply(
                  Read.from(
                      OrdersSource.of(Orders.withPartitions(4))
                          .withTotalRows(2_000)
                          .withRowsPerSecond(2_000)))
              .setRowSchema(Orders.SCHEMA);
      rows.apply(
              WithKeys.of((Row r) -> Long.toString(r.getInt64("order_id") % KEYS))
                  .withKeyType(TypeDescriptors.strings()))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), rows.getCoder()))
          .apply("EndFinalizer", ParDo.of(new EndFinalizerFn()));
      JobID job = cluster.submit(p);
      long deadline = System.nanoTime() + 25_000_000_000L;
      status = cluster.status(job);
      while (System.nanoTime() < deadline && !status.isGloballyTerminalState()) {
        Thread.sleep(200);
        status = cluster.status(job);
      }
    }
    return status;
  }

  static final class EndFinalizerFn extends DoFn<KV<String, Row>, Void> {
    @StateId("n")
    final StateSpec<ValueState<Long>> nSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("end")
    final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    /** The operator-wide finalizer, kept from @ProcessElement for the end-of-input timer. */
    private transient BundleFinalizer finalizer;

    @Setup
    public void setup() {
      SETUPS.incrementAndGet();
    }

    @ProcessElement
    public void process(
        @Element KV<String, Row> e,
        @StateId("n") ValueState<Long> n,
        @TimerId("end") Timer end,
        BundleFinalizer finalizer) {
      this.finalizer = finalizer;
      Long c = n.read();
      n.write(c == null ? 1 : c + 1);
      end.set(GlobalWindow.INSTANCE.maxTimestamp());
    }

    @OnTimer("end")
    public void onEnd(@Key String key, @StateId("n") ValueState<Long> n) {
      ENDS.incrementAndGet();
      STAGE.put(key, 1);
      long rows = n.read();
      finalizer.afterBundleCommit(
          Instant.now().plus(Duration.standardHours(1)),
          () -> {
            // outside any keyed context: only what the closure captured is at hand
            LOG.info("end-of-input finalizer of key {} ({} rows) runs", key, rows);
            if (FAIL_ONCE.compareAndSet(true, false)) {
              throw new IllegalStateException(
                  "injected failure in the end-of-input finalizer of key " + key);
            }
            STAGE.put(key, 2);
            FINALIZED.incrementAndGet();
          });
    }
  }
}
