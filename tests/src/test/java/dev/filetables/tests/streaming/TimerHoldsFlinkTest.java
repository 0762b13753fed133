package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.transforms.runner.TimerHolds;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.JobID;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TimerHolds} on Flink [local] (Beam 2.62): a keyed step holds the watermark with an
 * event-time timer at the end of the global window and a processing-time timer ten minutes ahead,
 * both with the first row's timestamp as output timestamp, and every 50 rows of a key "closes":
 * releases both (or, as Beam's API suggests, clears them) and emits. The watermark after that step
 * must pass each hour soon after the rows' does. With {@code Timer.clear()} it passes only at the
 * end of the input: the Flink runner looks the timer up under another id than it filed it under and
 * deletes nothing, so the cleared end-of-window timer still fires at the end (counted).
 */
class TimerHoldsFlinkTest {
  static final long PER = 1_000;
  static final Orders ORDERS = Orders.hourByHour(6, PER);
  static final Map<String, Long> PASSED = new ConcurrentHashMap<>();

  /** End-of-window timers fired, per mode. */
  static final Map<String, AtomicLong> ENDS = new ConcurrentHashMap<>();

  static final AtomicLong CHECKS = new AtomicLong();
  @TempDir Path dir;

  /**
   * Both ways in one job (two sibling steps after the same keyed rows; their watermark holds are
   * their own): the released step's watermark follows the rows, the cleared one's does not.
   */
  @Test
  void watermarkAfterReleasedTimersFollowsTheRowsAndAfterClearedOnesDoesNot() throws Exception {
    PASSED.clear();
    ENDS.clear();
    String logId = UUID.randomUUID().toString();
    EmitLog.create(logId, false);
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(dir.resolve("flink"), 2)) {
      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "exp");
      // the source's watermark every 100 ms and short bundles, or on a busy machine even the rows'
      // watermark may move only at the end of the input
      options.setAutoWatermarkInterval(100L);
      options.setMaxBundleTimeMills(100L);
      Pipeline p = Pipeline.create(options);
      PCollection<Row> rows =
          p.apply(
                  Read.from(
                      OrdersSource.of(ORDERS)
                          .withTotalRows(6 * PER)
                          .withRowsPerSecond(300)
                          .withEmitLog(logId)))
              .setRowSchema(Orders.SCHEMA);
      PCollection<KV<String, Row>> keyed =
          rows.apply(
                  WithKeys.of((Row r) -> "dt=" + r.getString("dt") + "/hour=" + r.getString("hour"))
                      .withKeyType(TypeDescriptors.strings()))
              .setCoder(KvCoder.of(StringUtf8Coder.of(), rows.getCoder()));
      for (String mode : List.of("release", "clear")) {
        keyed
            .apply("hold " + mode, ParDo.of(new HoldFn(mode)))
            .setCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
            .apply("after " + mode, ParDo.of(new Passed(logId, mode + " ")));
      }
      keyed
          .apply(
              MapElements.into(
                      TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                  .via((KV<String, Row> kv) -> KV.of(kv.getKey(), 1L)))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
          .apply("rows", ParDo.of(new Passed(logId, "rows ")));
      JobID job = cluster.submit(p);
      long deadline = System.nanoTime() + 150_000_000_000L;
      while (System.nanoTime() < deadline && !cluster.status(job).isGloballyTerminalState()) {
        Thread.sleep(500);
      }
    } finally {
      EmitLog.remove(logId);
    }
    String seen = "ends=" + ENDS + " " + new TreeMap<>(PASSED);
    // each key's last cleared end-of-window timer fires at the end: clear() deleted nothing
    assertEquals(6, ENDS.getOrDefault("clear", new AtomicLong()).get(), seen);
    for (long h = 0; h < 5; h++) {
      String partition = ORDERS.partitionPath(h * PER);
      Long rowsPassed = PASSED.get("rows " + partition);
      Long released = PASSED.get("release " + partition);
      Long cleared = PASSED.get("clear " + partition);
      assertTrue(rowsPassed != null && rowsPassed < 6 * PER, "rows' watermark, " + seen);
      assertTrue(released != null && released < 6 * PER, "released timers still hold, " + seen);
      assertEquals(6 * PER, cleared, "Beam's Flink runner now deletes cleared timers? " + seen);
    }
  }

  static final class HoldFn extends DoFn<KV<String, Row>, KV<String, Long>> {
    final String mode;

    @StateId("n")
    final StateSpec<ValueState<Long>> nSpec = StateSpecs.value(VarLongCoder.of());

    @StateId("min")
    final StateSpec<ValueState<Long>> minSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("check")
    final TimerSpec checkSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

    @TimerId("end")
    final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    HoldFn(String mode) {
      this.mode = mode;
    }

    @ProcessElement
    public void process(
        @Element KV<String, Row> e,
        @Timestamp Instant ts,
        @StateId("n") ValueState<Long> n,
        @StateId("min") ValueState<Long> min,
        @TimerId("check") Timer check,
        @TimerId("end") Timer end,
        OutputReceiver<KV<String, Long>> out) {
      Long c = n.read();
      if (c == null) {
        c = 0L;
        min.write(ts.getMillis());
        if (mode.equals("nohold")) {
          check.withNoOutputTimestamp().offset(Duration.standardMinutes(10)).setRelative();
          end.withNoOutputTimestamp().set(GlobalWindow.INSTANCE.maxTimestamp());
        } else if (mode.equals("endOnlyRelease")) {
          end.withOutputTimestamp(ts).set(GlobalWindow.INSTANCE.maxTimestamp());
        } else if (mode.equals("checkOnlyRelease")) {
          check.withOutputTimestamp(ts).offset(Duration.standardMinutes(10)).setRelative();
        } else if (!mode.equals("none")) {
          check.withOutputTimestamp(ts).offset(Duration.standardMinutes(10)).setRelative();
          end.withOutputTimestamp(ts).set(GlobalWindow.INSTANCE.maxTimestamp());
        }
      }
      c++;
      if (c >= 50) {
        n.clear();
        min.clear();
        if (mode.equals("clear")) {
          check.clear();
          end.clear();
        } else if (mode.equals("release")) {
          TimerHolds.releaseProcessingTime(check);
          TimerHolds.releaseEventTime(end, ts);
        } else if (mode.equals("endOnlyRelease")) {
          TimerHolds.releaseEventTime(end, ts);
        } else if (mode.equals("checkOnlyRelease")) {
          TimerHolds.releaseProcessingTime(check);
        }
        out.output(KV.of(e.getKey(), c));
      } else {
        n.write(c);
      }
    }

    @OnTimer("check")
    public void onCheck() {
      CHECKS.incrementAndGet();
    }

    @OnTimer("end")
    public void onEnd() {
      ENDS.computeIfAbsent(mode, m -> new AtomicLong()).incrementAndGet();
    }
  }

  static final class Passed extends DoFn<KV<String, Long>, Void> {
    final String logId;
    final String what;

    @StateId("set")
    final StateSpec<ValueState<Long>> setSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("t")
    final TimerSpec tSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    Passed(String logId, String what) {
      this.logId = logId;
      this.what = what;
    }

    @ProcessElement
    public void process(
        @Element KV<String, Long> e, @StateId("set") ValueState<Long> set, @TimerId("t") Timer t) {
      if (set.read() != null) return;
      String partition = e.getKey();
      String dt = partition.substring(3, 13);
      String hour = partition.substring(partition.length() - 2);
      long endMs =
          LocalDateTime.parse(dt + "T" + hour + ":00:00").toInstant(ZoneOffset.UTC).toEpochMilli()
              + 3_600_000L;
      set.write(endMs);
      t.set(new Instant(endMs));
    }

    @OnTimer("t")
    public void on(@Key String partition) {
      EmitLog log = EmitLog.get(logId);
      PASSED.putIfAbsent(what + partition, log == null ? -1 : log.emissions());
    }
  }
}
