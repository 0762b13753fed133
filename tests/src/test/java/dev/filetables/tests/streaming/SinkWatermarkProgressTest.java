package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.JobID;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition-time commit needs the watermark after the streaming sink (of its published files) to
 * move on while the job runs, not only at the end of the input. An input moving hour by hour
 * through six hourly partitions; an event-time timer at the end of each hour, once on the source's
 * rows and once on the sink's published files, records how many rows the source had emitted when it
 * fired. The rows' watermark passes each hour while the job runs; the published files' watermark
 * must too, at most a few seconds of rows later.
 *
 * <p>The cause was {@code Timer.clear()} on Beam 2.62's Flink runner: it does not delete the timer,
 * so a cleared timer with an output timestamp held the watermark until it fired, at the end of the
 * input for the writer's end-of-window timer ({@code TimerHoldsFlinkTest}); the sink now releases
 * timers with {@code TimerHolds}.
 */
class SinkWatermarkProgressTest {
  private static final long ROWS_PER_PARTITION = 3_000;
  private static final Orders ORDERS = Orders.hourByHour(6, ROWS_PER_PARTITION);
  private static final long ROWS = 6 * ROWS_PER_PARTITION;

  /** Emitted rows when the watermark passed the end of each hour, by "rows|files partition". */
  private static final Map<String, Long> PASSED = new ConcurrentHashMap<>();

  @TempDir Path dir;

  @Test
  void watermarkOfPublishedFilesPassesEachHourWhileTheJobRuns() throws Exception {
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    TableSpec table = CommitTables.table(dir, "orders_committed", "1 h");
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(dir.resolve("flink"), 2)) {
      FlinkPipelineOptions options = StreamingScenarios.options(cluster, "sink-watermark");
      // the source's watermark every 100 ms and short bundles: without them, on a busy machine even
      // the rows' watermark was seen to move only at the end of the input, hiding the sink's
      options.setAutoWatermarkInterval(100L);
      options.setMaxBundleTimeMills(100L);
      Pipeline pipeline = Pipeline.create(options);
      PCollection<Row> rows =
          pipeline
              .apply(
                  "Orders",
                  Read.from(
                      OrdersSource.of(ORDERS)
                          .withTotalRows(ROWS)
                          .withRowsPerSecond(1_500)
                          .withEmitLog(logId)))
              .setRowSchema(Orders.SCHEMA);
      rows.apply(
              "RowsByPartition",
              WithKeys.of((Row r) -> "dt=" + r.getString("dt") + "/hour=" + r.getString("hour"))
                  .withKeyType(TypeDescriptors.strings()))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), rows.getCoder()))
          .apply("WatchRows", ParDo.of(new HourPassedFn<Row>("rows", logId)));
      rows.apply("Write", FileTableIO.write(table))
          .apply(
              "FilesByPartition",
              WithKeys.of(WrittenFile::partitionPath).withKeyType(TypeDescriptors.strings()))
          .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenFileCoder.of()))
          .apply("WatchFiles", ParDo.of(new HourPassedFn<WrittenFile>("files", logId)));
      JobID job = cluster.submit(pipeline);
      long deadline = System.nanoTime() + 90_000_000_000L;
      while (System.nanoTime() < deadline && !cluster.status(job).isGloballyTerminalState()) {
        Thread.sleep(500);
      }
    } finally {
      EmitLog.remove(logId);
    }
    for (long p = 0; p < 5; p++) {
      String partition = ORDERS.partitionPath(p * ROWS_PER_PARTITION);
      Long rowsPassed = PASSED.get("rows " + partition);
      Long filesPassed = PASSED.get("files " + partition);
      assertTrue(rowsPassed != null && rowsPassed < ROWS, "rows' watermark: " + PASSED);
      assertTrue(
          filesPassed != null && filesPassed < ROWS, "published files' watermark: " + PASSED);
    }
    assertEquals(12, PASSED.size(), PASSED.toString());
  }

  /** Records the source's emitted rows when the watermark passes the end of the key's hour. */
  private static final class HourPassedFn<T> extends DoFn<KV<String, T>, Void> {
    private static final long serialVersionUID = 1L;
    private final String what;
    private final String logId;

    @StateId("set")
    private final StateSpec<ValueState<Long>> setSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("hourPassed")
    private final TimerSpec hourPassedSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    HourPassedFn(String what, String logId) {
      this.what = what;
      this.logId = logId;
    }

    @ProcessElement
    public void process(
        @Element KV<String, T> element,
        @StateId("set") ValueState<Long> set,
        @TimerId("hourPassed") Timer hourPassed) {
      if (set.read() != null) {
        return;
      }
      String partition = element.getKey(); // dt=yyyy-MM-dd/hour=HH
      String dt = partition.substring(3, 13);
      String hour = partition.substring(partition.length() - 2);
      long end =
          LocalDateTime.parse(dt + "T" + hour + ":00:00").toInstant(ZoneOffset.UTC).toEpochMilli()
              + 3_600_000L;
      set.write(end);
      hourPassed.set(new Instant(end));
    }

    @OnTimer("hourPassed")
    public void onHourPassed(@Key String partition) {
      EmitLog log = EmitLog.get(logId);
      PASSED.putIfAbsent(what + " " + partition, log == null ? -1 : log.emissions());
    }
  }
}
