package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Witness of the Beam 2.62 Flink runner fact behind the compaction design ({@code GroupFilesFn}):
 * after a restore, a {@code @RequiresStableInput} DoFn can be handed elements that no completed
 * checkpoint contains yet.
 *
 * <p>A keyed step numbers each key's rows (state) and stamps each with a random id, so the same
 * (key, number) gets a new id whenever it is computed again. The stable step records the ids it
 * sees per (key, number). Stable input promises that a replay hands over the same element, so one
 * (key, number) must never show two ids. The stable step fails once after 1500 rows, and then at
 * the end of its first bundle after each restore (twice); another task takes 200 ms per snapshot,
 * so each checkpoint completes a while after the stable step's snapshot. {@code
 * BufferingDoFnRunner} restores its buffer index from the checkpoint, writes the elements arriving
 * after the first new checkpoint into the restored buffer, which still holds the restored elements,
 * and releases that buffer when that checkpoint completes: elements that arrived after the
 * checkpoint are processed with it. The second failure rolls the keyed step back to before them, so
 * they are numbered again, with new ids: a (key, number) with two ids.
 */
class StableInputEarlyReleaseWitnessTest {
  private static final Logger LOG =
      LoggerFactory.getLogger(StableInputEarlyReleaseWitnessTest.class);
  private static final long ROWS = 12_000;
  static final Map<String, Set<String>> SEEN = new ConcurrentHashMap<>();
  static final AtomicInteger FAILURES = new AtomicInteger();
  static final AtomicLong PROCESSED = new AtomicLong();

  /** Failures: one after 1500 rows, then one at the end of the first release after each restore. */
  static final int LAST_FAILURE = 3;

  @TempDir Path dir;

  @Test
  void stableInputIsReleasedBeforeItsCheckpointAfterARestore() throws Exception {
    SEEN.clear();
    FAILURES.set(0);
    PROCESSED.set(0);
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(dir.resolve("flink"), 2)) {
      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "stable-witness");
      // bundles end at checkpoints only, so SlowSnapshotFn sleeps once per checkpoint
      options.setMaxBundleSize(1_000_000L);
      options.setMaxBundleTimeMills(10_000L);
      Pipeline p = Pipeline.create(options);
      PCollection<Row> rows =
          p.apply(
                  Read.from(
                      OrdersSource.of(Orders.withPartitions(4))
                          .withTotalRows(ROWS)
                          .withRowsPerSecond(2_000)
                          .withEmitLog(logId)))
              .setRowSchema(Orders.SCHEMA);
      rows.apply(
              WithKeys.of((Row r) -> Long.toString(r.getInt64("order_id") % 8))
                  .withKeyType(TypeDescriptors.strings()))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), rows.getCoder()))
          .apply("Number", ParDo.of(new NumberFn()))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()))
          .apply("Stable", ParDo.of(new StableFn()));
      // another task whose snapshot takes 200 ms: each checkpoint completes that much after the
      // stable step's snapshot, and rows keep arriving there meanwhile
      rows.apply(
              "SlowKeys",
              WithKeys.of((Row r) -> Long.toString(r.getInt64("order_id") % 2))
                  .withKeyType(TypeDescriptors.strings()))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), rows.getCoder()))
          .apply("SlowSnapshot", ParDo.of(new SlowSnapshotFn()));
      JobID job = cluster.submit(p);
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (System.nanoTime() < deadline && !cluster.status(job).isGloballyTerminalState()) {
        Thread.sleep(500);
      }
    } finally {
      EmitLog.remove(logId);
    }
    Map<String, Set<String>> twice = new TreeMap<>();
    SEEN.forEach(
        (k, ids) -> {
          if (ids.size() > 1) {
            twice.put(k, ids);
          }
        });
    LOG.info(
        "{} failures, {} elements processed, {} (key, number) pairs, {} with two ids: {}",
        FAILURES.get(),
        PROCESSED.get(),
        SEEN.size(),
        twice.size(),
        twice.keySet());
    assertTrue(FAILURES.get() >= LAST_FAILURE, "failures injected: " + FAILURES.get());
    assertTrue(!twice.isEmpty(), "no element released before its checkpoint: fixed in the runner?");
  }

  /** Numbers each key's rows; stamps each with a random id (not deterministic on purpose). */
  static final class NumberFn extends DoFn<KV<String, Row>, KV<String, String>> {
    @StateId("n")
    final StateSpec<ValueState<Long>> nSpec = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(
        @Element KV<String, Row> e,
        @StateId("n") ValueState<Long> n,
        OutputReceiver<KV<String, String>> out) {
      Long c = n.read();
      long next = c == null ? 0 : c + 1;
      n.write(next);
      out.output(KV.of(e.getKey() + ":" + next, UUID.randomUUID().toString()));
    }
  }

  static final class StableFn extends DoFn<KV<String, String>, Void> {
    private transient int attempt;
    private transient long inBundle;

    @Setup
    public void setup() {
      attempt = FAILURES.get();
    }

    @StartBundle
    public void start() {
      inBundle = 0;
    }

    @RequiresStableInput
    @ProcessElement
    public void process(@Element KV<String, String> e) {
      SEEN.computeIfAbsent(e.getKey(), k -> ConcurrentHashMap.newKeySet()).add(e.getValue());
      inBundle++;
      if (PROCESSED.incrementAndGet() >= 1500 && attempt == 0 && FAILURES.compareAndSet(0, 1)) {
        throw new IllegalStateException("first injected failure");
      }
    }

    @FinishBundle
    public void finish() {
      if (attempt >= 1
          && attempt < LAST_FAILURE
          && inBundle > 0
          && FAILURES.compareAndSet(attempt, attempt + 1)) {
        throw new IllegalStateException(
            "injected failure at the end of the first release after a restore");
      }
    }
  }

  /** Takes 200 ms to finish a bundle, which the runner does in every snapshot. */
  static final class SlowSnapshotFn extends DoFn<KV<String, Row>, Void> {
    @StateId("n")
    final StateSpec<ValueState<Long>> nSpec = StateSpecs.value(VarLongCoder.of());

    private transient boolean rows;

    @StartBundle
    public void start() {
      rows = false;
    }

    @ProcessElement
    public void process(@Element KV<String, Row> e, @StateId("n") ValueState<Long> n) {
      rows = true;
    }

    @FinishBundle
    public void finish() throws InterruptedException {
      if (rows) {
        Thread.sleep(200);
      }
    }
  }
}
