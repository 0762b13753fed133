package dev.filetables.transforms.source.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.JvmCollector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watched source on the Direct runner, with files created by the test while the pipeline runs:
 * every new file read once (new partitions at any depth included), skipped names never read,
 * metadata columns, event timestamps and a watermark that follows the data or the idle timeout.
 */
class WatchedReadDirectTest {
  private static final LocalDateTime T0 = LocalDateTime.of(2020, 5, 20, 10, 0);
  private static final java.time.format.DateTimeFormatter TS =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  @TempDir Path dir;

  private TableSpec table(String extraOptions) {
    return DdlParser.parse(
        "CREATE TABLE logs (id BIGINT NOT NULL, msg STRING, ts TIMESTAMP(3),"
            + " `file.path` STRING NOT NULL METADATA VIRTUAL, `file.name` STRING NOT NULL METADATA VIRTUAL,"
            + " `file.size` BIGINT NOT NULL METADATA VIRTUAL,"
            + " `file.modification-time` TIMESTAMP_LTZ(3) NOT NULL METADATA VIRTUAL,"
            + " dt STRING, `hour` STRING,"
            + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
            + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("landing")
            + "', 'format' = 'json', 'source.monitor-interval' = '200 ms'"
            + extraOptions
            + ")");
  }

  /**
   * Writes JSON rows {@code ids} (ts = T0 + id seconds) as a hidden file, then renames it into
   * place.
   */
  private Path place(String partition, String name, long firstId, int count) throws Exception {
    Path target = dir.resolve("landing").resolve(partition).resolve(name);
    Files.createDirectories(target.getParent());
    StringBuilder lines = new StringBuilder();
    for (long id = firstId; id < firstId + count; id++) {
      lines
          .append("{\"id\": ")
          .append(id)
          .append(", \"msg\": \"m")
          .append(id)
          .append("\", \"ts\": \"")
          .append(TS.format(T0.plusSeconds(id)))
          .append("\"}\n");
    }
    Path hidden = target.resolveSibling("." + name + ".inprogress");
    Files.writeString(hidden, lines);
    Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
    return target;
  }

  static Pipeline pipeline() {
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    options.setTargetParallelism(2);
    options.setBlockOnRun(false);
    return Pipeline.create(options);
  }

  static void await(PipelineResult result, BooleanSupplier condition, String what)
      throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!condition.getAsBoolean()) {
      // not getState(): on the Direct runner it swallows the failure
      PipelineResult.State state;
      try {
        state = result.waitUntilFinish(Duration.millis(1));
      } catch (RuntimeException e) {
        throw new AssertionError("Pipeline failed before " + what + ": " + e, e);
      }
      if (state != null && state.isTerminal()) {
        throw new AssertionError("Pipeline ended " + state + " before " + what);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  /** Keeps (row, timestamp) pairs. */
  static final class Stamp extends DoFn<Row, KV<Row, Instant>> {
    @ProcessElement
    public void process(
        @Element Row row, @Timestamp Instant timestamp, OutputReceiver<KV<Row, Instant>> out) {
      out.output(KV.of(row, timestamp));
    }
  }

  @Test
  void readsEveryNewFileOnceWithMetadataAndEventTimestamps() throws Exception {
    TableSpec table = table(", 'source.path.regex-pattern' = '.*\\.json'");
    place("dt=2020-05-20/hour=10", "a.json", 0, 3); // there before the start
    Pipeline p = pipeline();
    String collector = JvmCollector.newCollector();
    p.apply(FileTableIO.read(table).withWatchShards(2))
        .apply(ParDo.of(new Stamp()))
        .setCoder(KvCoder.of(RowCoder.of(table.schema()), InstantCoder.of()))
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    PipelineResult result = p.run();
    try {
      await(result, () -> JvmCollector.collected(collector).size() >= 3, "the first file");
      Path b = place("dt=2020-05-20/hour=11", "b.json", 3, 4); // new hour directory
      place("dt=2020-05-21/hour=00", "c.json", 7, 2); // new dt directory and hour below it
      place("dt=2020-05-21/hour=00", "skipped.log", 100, 5); // regex-excluded
      Files.writeString(
          dir.resolve("landing/dt=2020-05-21/hour=00/.hidden.json"), "{\"id\": 200}\n");
      Files.writeString(dir.resolve("landing/dt=2020-05-21/hour=00/_SUCCESS"), "");
      Files.writeString(
          dir.resolve("landing/dt=2020-05-21/hour=00/d.json.inprogress"), "{\"id\": 300}\n");
      await(result, () -> JvmCollector.collected(collector).size() >= 9, "the new files");
      Thread.sleep(1500); // several more polls: nothing is read twice
      List<KV<Row, Instant>> rows = JvmCollector.collected(collector);
      Map<Long, Integer> counts = new HashMap<>();
      for (KV<Row, Instant> kv : rows) {
        Row row = kv.getKey();
        long id = row.getInt64("id");
        counts.merge(id, 1, Integer::sum);
        LocalDateTime ts = row.getLogicalTypeValue("ts", LocalDateTime.class);
        assertEquals(T0.plusSeconds(id), ts);
        assertEquals(
            ts.toInstant(ZoneOffset.UTC).toEpochMilli(),
            kv.getValue().getMillis(),
            "event timestamp");
        Path file = Path.of(row.getString("file.path"));
        assertEquals(file.getFileName().toString(), row.getString("file.name"));
        assertEquals(Files.size(file), row.getInt64("file.size"));
        assertEquals(
            Files.getLastModifiedTime(file).toMillis(),
            row.getDateTime("file.modification-time").getMillis());
        String expectedHour = id < 3 ? "10" : id < 7 ? "11" : "00";
        assertEquals(expectedHour, row.getString("hour"), "partition column of " + id);
        if (id >= 3 && id < 7) {
          assertEquals(b.toString(), file.toString());
        }
      }
      Map<Long, Integer> expected = new HashMap<>();
      for (long id = 0; id < 9; id++) {
        expected.put(id, 1);
      }
      assertEquals(expected, counts, "each row of each new file exactly once");
    } finally {
      result.cancel();
    }
  }

  /**
   * Four shards in one process share one listing per monitor interval (they used to list the table
   * once each), and still read every row of every file once, new partitions included.
   */
  @Test
  void fourShardsListOncePerIntervalAndReadEveryRowOnce() throws Exception {
    TableSpec table = table(", 'source.idle-timeout' = '0 s'");
    Pipeline p = pipeline();
    String collector = JvmCollector.newCollector();
    p.apply(FileTableIO.read(table).withWatchShards(4))
        .apply(MapElements.into(TypeDescriptors.longs()).via(r -> r.getInt64("id")))
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    PipelineResult result = p.run();
    int files = 12;
    try {
      for (int n = 0; n < files; n++) {
        place("dt=2020-05-2" + n / 4 + "/hour=10", "f" + n + ".json", n * 10L, 10);
        Thread.sleep(300);
      }
      await(result, () -> JvmCollector.collected(collector).size() >= files * 10, "every row");
      Thread.sleep(2000); // more polls: nothing read twice
      Map<Long, Integer> counts = new HashMap<>();
      for (Long id : JvmCollector.<Long>collected(collector)) {
        counts.merge(id, 1, Integer::sum);
      }
      Map<Long, Integer> expected = new HashMap<>();
      for (long id = 0; id < files * 10; id++) {
        expected.put(id, 1);
      }
      assertEquals(expected, counts, "each row of each file exactly once");
      long polls = counter(result, WatchAndReadFn.class.getName(), "polls");
      long listings = counter(result, WatchAndReadFn.class.getName(), "listings");
      System.out.printf("4 shards: %d polls, %d listings%n", polls, listings);
      assertTrue(
          listings > 0 && polls >= 3 * listings, polls + " polls, " + listings + " listings");
    } finally {
      result.cancel();
    }
  }

  /** The attempted value of counter {@code namespace}/{@code name}, summed over steps. */
  static long counter(PipelineResult result, String namespace, String name) {
    long sum = 0;
    for (MetricResult<Long> counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(namespace, name))
                    .build())
            .getCounters()) {
      sum += counter.getAttempted();
    }
    return sum;
  }

  /** Counts rows per 1-minute event-time window, output when the watermark passes the window. */
  private static String windowCounts(Pipeline p, TableSpec table) {
    String collector = JvmCollector.newCollector();
    PCollection<Row> rows = p.apply(FileTableIO.read(table).withWatchShards(1));
    rows.apply(Window.into(FixedWindows.of(Duration.standardMinutes(1))))
        .apply(MapElements.into(TypeDescriptors.strings()).via(r -> "rows"))
        .apply(Count.perElement())
        .apply(
            ParDo.of(
                new DoFn<KV<String, Long>, String>() {
                  @ProcessElement
                  public void process(
                      @Element KV<String, Long> count,
                      BoundedWindow window,
                      PaneInfo pane,
                      OutputReceiver<String> out) {
                    out.output(
                        ((IntervalWindow) window).start()
                            + " "
                            + count.getValue()
                            + " "
                            + pane.getTiming());
                  }
                }))
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    return collector;
  }

  @Test
  void watermarkFollowsTheLargestEventTimeMinusTheDelay() throws Exception {
    TableSpec table = table(", 'source.idle-timeout' = '0 s'");
    Pipeline p = pipeline();
    String collector = windowCounts(p, table);
    PipelineResult result = p.run();
    try {
      place("dt=2020-05-20/hour=10", "a.json", 0, 50); // 10:00:00 .. 10:00:49
      Thread.sleep(2000);
      assertEquals(List.of(), JvmCollector.collected(collector), "window 10:00 still open");
      place("dt=2020-05-20/hour=10", "b.json", 64, 1); // 10:01:04: watermark 10:00:59 < 10:01
      Thread.sleep(1500);
      assertEquals(List.of(), JvmCollector.collected(collector), "watermark is 10:00:59");
      place("dt=2020-05-20/hour=10", "c.json", 66, 1); // 10:01:06: watermark 10:01:01
      await(result, () -> !JvmCollector.collected(collector).isEmpty(), "the 10:00 window");
      assertEquals(
          List.of("2020-05-20T10:00:00.000Z 50 ON_TIME"),
          JvmCollector.<String>collected(collector));
    } finally {
      result.cancel();
    }
  }

  @Test
  void idleDirectoryReleasesTheWatermark() throws Exception {
    TableSpec table = table(", 'source.idle-timeout' = '1 s'");
    place("dt=2020-05-20/hour=10", "a.json", 0, 10);
    Pipeline p = pipeline();
    String collector = windowCounts(p, table);
    PipelineResult result = p.run();
    try {
      await(
          result,
          () -> !JvmCollector.collected(collector).isEmpty(),
          "the window of an idle directory");
      List<String> fired = JvmCollector.collected(collector);
      assertEquals(1, fired.size(), fired.toString());
      assertTrue(fired.get(0).endsWith(" 10 ON_TIME"), fired.toString());
    } finally {
      result.cancel();
    }
  }

  @Test
  void downstreamPartitionTimeCommitFollowsTheWatchedSourcesWatermark() throws Exception {
    TableSpec source = table(", 'source.idle-timeout' = '0 s'");
    TableSpec sink =
        DdlParser.parse(
            "CREATE TABLE hourly (id BIGINT NOT NULL, msg STRING, ts TIMESTAMP(3), dt STRING, `hour` STRING)"
                + " PARTITIONED BY (dt, `hour`) WITH ('connector' = 'filesystem', 'path' = '"
                + dir.resolve("hourly")
                + "', 'format' = 'parquet',"
                + " 'sink.rolling-policy.rollover-interval' = '1 s',"
                + " 'sink.rolling-policy.inactivity-interval' = '1 s',"
                + " 'sink.rolling-policy.check-interval' = '1 s',"
                + " 'partition.time-extractor.timestamp-pattern' = '$dt $hour:00:00',"
                + " 'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.delay' = '1 h',"
                + " 'sink.partition-commit.policy.kind' = 'success-file')");
    Pipeline p = pipeline();
    p.apply(FileTableIO.read(source).withWatchShards(1))
        .apply(
            org.apache.beam.sdk.schemas.transforms.Select.fieldNames(
                "id", "msg", "ts", "dt", "hour"))
        .apply(FileTableIO.write(sink));
    PipelineResult result = p.run();
    Path success10 = dir.resolve("hourly/dt=2020-05-20/hour=10/_SUCCESS");
    Path success11 = dir.resolve("hourly/dt=2020-05-20/hour=11/_SUCCESS");
    try {
      place("dt=2020-05-20/hour=10", "a.json", 0, 20); // 10:00:00 .. 10:00:19
      Thread.sleep(3000);
      assertTrue(!Files.exists(success10), "hour 10 is not over yet (watermark 10:00:14)");
      place("dt=2020-05-20/hour=11", "b.json", 3610, 1); // 11:00:10: watermark 11:00:05
      await(result, () -> Files.exists(success10), "the commit of hour 10");
      assertTrue(!Files.exists(success11), "hour 11 is still open");
    } finally {
      result.cancel();
    }
  }
}
