package dev.filetables.transforms;

import static dev.filetables.transforms.TestTables.hiddenFiles;
import static dev.filetables.transforms.TestTables.visibleFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.PeriodicImpulse;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming sink on a local Flink cluster: an unbounded source (a rate-limited sequence that
 * ends), checkpoints every 500 ms as commit points, Parquet files rolled by time.
 */
@Tag("cluster")
class StreamingFlinkTest {
  static {
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.flink", "warn");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.beam.runners.flink", "warn");
  }

  private static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addField("dt", ColumnType.STRING.fieldType())
          .build();

  @TempDir Path dir;

  private static FlinkPipelineOptions flinkOptions() {
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(2);
    options.setStreaming(true);
    return options;
  }

  private TableSpec table(Path root) {
    Map<String, String> options = new HashMap<>();
    options.put(TableOptions.CONNECTOR, "filesystem");
    options.put(TableOptions.PATH, root.toString());
    options.put(TableOptions.FORMAT, "parquet");
    options.put(TableOptions.SINK_PARALLELISM, "2");
    options.put(TableOptions.SHUFFLE_BY_PARTITION, "true");
    options.put(TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 s");
    options.put(TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s");
    options.put(TableOptions.ROLLING_CHECK_INTERVAL, "100 ms");
    return TableSpec.builder()
        .setName("flink_stream")
        .setSchema(SCHEMA)
        .setPartitionKeys(List.of("dt"))
        .setOptions(TableOptions.of(options))
        .build();
  }

  /**
   * An unbounded source that ends: one row every {@code intervalMillis} for {@code rows} rows,
   * stamped with its scheduled time; ids count the intervals since the start.
   */
  private static PCollection<Row> source(Pipeline pipeline, long rows, long intervalMillis) {
    Instant start = Instant.now().plus(Duration.standardSeconds(2)); // after the job is up
    return pipeline
        .apply(
            PeriodicImpulse.create()
                .startAt(start)
                .stopAt(start.plus(Duration.millis(rows * intervalMillis - 1)))
                .withInterval(Duration.millis(intervalMillis)))
        .apply(
            MapElements.into(TypeDescriptors.rows())
                .via(
                    t -> {
                      long id = (t.getMillis() - start.getMillis()) / intervalMillis;
                      return Row.withSchema(SCHEMA).addValues(id, "p" + (id % 3)).build();
                    }))
        .setRowSchema(SCHEMA);
  }

  @Test
  void rowsBecomeVisibleExactlyOnceAtCheckpoints() throws Exception {
    Path root = dir.resolve("t");
    TableSpec table = table(root);
    FlinkPipelineOptions options = flinkOptions();
    options.setCheckpointingInterval(500L);
    options.setAttachedMode(false); // a job that never ends: cancelled once everything is visible
    Pipeline pipeline = Pipeline.create(options);
    long rows = 1500;
    // 500 rows/s, timestamped with their creation time; only the first 1500 are kept, the source
    // keeps running (and the watermark moving) like a real stream
    PCollection<Row> input =
        pipeline
            .apply(GenerateSequence.from(0).withRate(500, Duration.standardSeconds(1)))
            .apply(Filter.by(i -> i < rows))
            .apply(
                MapElements.into(TypeDescriptors.rows())
                    .via(i -> Row.withSchema(SCHEMA).addValues(i, "p" + (i % 3)).build()))
            .setRowSchema(SCHEMA);
    assertEquals(PCollection.IsBounded.UNBOUNDED, input.isBounded());
    String id = TestTables.newCollector();
    input
        .apply(FileTableIO.write(table))
        .apply(ParDo.of(new StampFn()))
        .apply(ParDo.of(new TestTables.CollectFn<>(id)));
    PipelineResult result = pipeline.run();
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (publishedRows(id) < rows && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      Thread.sleep(1500); // a duplicate, if any, would be published by now
    } finally {
      result.cancel();
    }

    assertEquals(rows, publishedRows(id));
    assertEquals(List.of(), hiddenFiles(root), "nothing hidden is left");
    List<Row> back = FileTableIOTest.read(FileTableIO.read(table));
    assertEquals(rows, back.size());
    assertEquals(
        rows, back.stream().map(r -> r.getInt64("id")).distinct().count(), "no duplicates");
    Map<String, List<Path>> byPartition = TestTables.filesByPartition(root);
    assertEquals(3, byPartition.size());
    // ~3 s of rows rolled every second, one writer per partition: a handful of files per
    // partition, not one per checkpoint or bundle
    for (Map.Entry<String, List<Path>> partition : byPartition.entrySet()) {
      int files = partition.getValue().size();
      assertTrue(files >= 2 && files <= 6, partition.getKey() + ": " + files + " files");
      assertEquals(
          1,
          partition.getValue().stream()
              .map(TestTables::writerId)
              .collect(Collectors.toSet())
              .size(),
          "shuffle by partition: one writer per partition");
    }
    assertTrue(visibleFiles(root).stream().allMatch(p -> p.toString().endsWith(".parquet")));

    // files were published while the job ran, at checkpoints
    List<KV<Long, WrittenFile>> published = TestTables.collected(id);
    LongSummaryStatistics publishTimes =
        published.stream().mapToLong(KV::getKey).summaryStatistics();
    assertTrue(
        publishTimes.getMax() - publishTimes.getMin() > 1000, "publishing spread: " + publishTimes);
    // visibility latency of a file's oldest row (event time = creation time of the row)
    long maxLatency =
        published.stream()
            .mapToLong(kv -> kv.getKey() - kv.getValue().minTimestamp().getMillis())
            .max()
            .getAsLong();
    System.out.println(
        "StreamingFlinkTest: "
            + published.size()
            + " files, max visibility latency "
            + maxLatency
            + " ms");
  }

  @Test
  void latencyOrientedRollingPublishesEveryRowWithinAboutOneCommitInterval() throws Exception {
    // rollover and inactivity at the commit interval: 2 s checkpoints, 10 rows/s
    Path root = dir.resolve("latency");
    Map<String, String> tableOptions = new HashMap<>();
    tableOptions.put(TableOptions.CONNECTOR, "filesystem");
    tableOptions.put(TableOptions.PATH, root.toString());
    tableOptions.put(TableOptions.FORMAT, "parquet");
    tableOptions.put(TableOptions.SHUFFLE_BY_PARTITION, "true");
    tableOptions.put(TableOptions.ROLLING_ROLLOVER_INTERVAL, "2 s");
    tableOptions.put(TableOptions.ROLLING_INACTIVITY_INTERVAL, "2 s");
    TableSpec table =
        TableSpec.builder()
            .setName("latency")
            .setSchema(SCHEMA)
            .setPartitionKeys(List.of("dt"))
            .setOptions(TableOptions.of(tableOptions))
            .build();
    FlinkPipelineOptions options = flinkOptions();
    options.setCheckpointingInterval(2000L);
    // bundles end at checkpoints (the flink-local preset), before the barrier: files close at the
    // checkpoint and are published by it
    options.setMaxBundleSize(1_000_000L);
    options.setMaxBundleTimeMills(10_000L);
    options.setFinishBundleBeforeCheckpointing(true);
    options.setAttachedMode(false);
    Pipeline pipeline = Pipeline.create(options);
    long rows = 100;
    String id = TestTables.newCollector();
    pipeline
        .apply(GenerateSequence.from(0).withRate(10, Duration.standardSeconds(1)))
        .apply(Filter.by(i -> i < rows))
        .apply(
            MapElements.into(TypeDescriptors.rows())
                .via(i -> Row.withSchema(SCHEMA).addValues(i, "p").build()))
        .setRowSchema(SCHEMA)
        .apply(FileTableIO.write(table))
        .apply(ParDo.of(new StampFn()))
        .apply(ParDo.of(new TestTables.CollectFn<>(id)));
    PipelineResult result = pipeline.run();
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (publishedRows(id) < rows && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
    } finally {
      result.cancel();
    }

    List<KV<Long, WrittenFile>> published = TestTables.collected(id);
    published.sort((a, b) -> Long.compare(a.getKey(), b.getKey()));
    assertEquals(rows, publishedRows(id));
    List<Long> latencies =
        published.stream()
            .map(kv -> kv.getKey() - kv.getValue().minTimestamp().getMillis())
            .collect(Collectors.toList());
    System.out.println("StreamingFlinkTest: latency of each file's oldest row (ms) " + latencies);
    // every file, the first included, closes at the first checkpoint after its first row
    for (long latency : latencies) {
      assertTrue(latency <= 3000, "visible within commit interval + 1 s: " + latencies);
    }
    // about one file per checkpoint (10 s of rows, 2 s checkpoints): no per-bundle files
    assertTrue(published.size() <= 8, published.size() + " files");
  }

  private static long publishedRows(String id) {
    return TestTables.<KV<Long, WrittenFile>>collected(id).stream()
        .mapToLong(kv -> kv.getValue().rowCount())
        .sum();
  }

  @Test
  void filesClosedWhenTheInputEndsArePublished() throws Exception {
    Path root = dir.resolve("ends");
    TableSpec table = table(root);
    FlinkPipelineOptions options = flinkOptions();
    options.setCheckpointingInterval(500L);
    // no --enableStableInputDrain: the sink has no @RequiresStableInput step; its publish step
    // publishes every pending file when the input ends
    options.setShutdownSourcesAfterIdleMs(0L); // let the finished source end the job
    Pipeline pipeline = Pipeline.create(options);
    PCollection<Row> input = source(pipeline, 300, 2);
    assertEquals(PCollection.IsBounded.UNBOUNDED, input.isBounded());
    input.apply(FileTableIO.write(table));
    pipeline.run().waitUntilFinish();

    assertEquals(List.of(), hiddenFiles(root), "nothing hidden is left");
    List<Row> back = FileTableIOTest.read(FileTableIO.read(table));
    assertEquals(300, back.size());
    assertEquals(300, back.stream().map(r -> r.getInt64("id")).distinct().count(), "no duplicates");
  }

  /** Pairs each published file with the wall-clock time it was published. */
  static final class StampFn extends DoFn<WrittenFile, KV<Long, WrittenFile>> {
    @ProcessElement
    public void process(@Element WrittenFile file, OutputReceiver<KV<Long, WrittenFile>> out) {
      out.output(KV.of(System.currentTimeMillis(), file));
    }
  }

  @Test
  void flinkWithoutCheckpointingIsRejectedWithAClearMessage() {
    Pipeline pipeline = Pipeline.create(flinkOptions());
    PCollection<Row> input = source(pipeline, 10, 100);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> input.apply(FileTableIO.write(table(dir))));
    assertTrue(e.getMessage().contains("--checkpointingInterval"), e.getMessage());
  }
}
