package dev.filetables.transforms.commit;

import static dev.filetables.transforms.commit.CommitTestSupport.collected;
import static dev.filetables.transforms.commit.CommitTestSupport.counter;
import static dev.filetables.transforms.commit.CommitTestSupport.newCollector;
import static dev.filetables.transforms.commit.CommitTestSupport.visibleFile;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.commit.CommitTestSupport.CollectFn;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PartitionCommit} on a local Flink cluster (streaming, parallelism 1 and one element per
 * bundle, so the stream's order of elements and watermarks is kept): partition-time commits
 * strictly after the watermark passes, late data re-commits, an in-progress file holds a due
 * partition back while the watermark has raced ahead, and the end of the input commits what is
 * pending (Flink fires no processing-time timers then).
 */
@Tag("cluster")
class PartitionCommitFlinkTest {
  private static final String HOURLY = "dt=2020-05-20/hour=12";
  private static final String LONG_DELAY = "dt=2020-05-20/hour=13";
  private static final String RACED = "dt=2020-05-20/hour=14";

  @TempDir Path root;

  @Test
  void commitsOnFlink() throws Exception {
    Path hourlyRoot = root.resolve("hourly");
    Path processRoot = root.resolve("process");
    TableSpec hourly =
        CommitTestSupport.hourlyByPartitionTime(
            hourlyRoot,
            TableOptions.COMMIT_POLICY_KIND,
            "success-file,custom",
            TableOptions.COMMIT_POLICY_CLASS,
            CommitTestSupport.VisibilityCheckingPolicy.class.getName());
    CommitTestSupport.VisibilityCheckingPolicy.VIOLATIONS.clear();
    TableSpec processTime =
        CommitTestSupport.hourly(
            processRoot,
            TableOptions.COMMIT_TRIGGER,
            "process-time",
            TableOptions.COMMIT_DELAY,
            "1 h");

    Path stillHidden =
        CommitTestSupport.hiddenFile(hourlyRoot, RACED, 6, CommitTestSupport.UUID_OF_WRITE);
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(
                at(visibleFile(hourlyRoot, HOURLY, 1), "2020-05-20T12:30:00Z"),
                at(visibleFile(hourlyRoot, RACED, 2), "2020-05-20T14:30:00Z"),
                at(visibleFile(processRoot, LONG_DELAY, 3), "2020-05-20T13:30:00Z"))
            .advanceWatermarkTo(Instant.parse("2020-05-20T13:00:00Z"))
            .addElements(at(visibleFile(hourlyRoot, HOURLY, 4), "2020-05-20T12:40:00Z"))
            .advanceWatermarkTo(Instant.parse("2020-05-20T13:00:00.001Z"))
            .addElements(
                at(CommitTestSupport.laterFile(hourlyRoot, HOURLY, 5), "2020-05-20T12:50:00Z"))
            // RACED is due now, but one of its files is still hidden
            .advanceWatermarkTo(Instant.parse("2020-05-20T15:00:00.001Z"))
            .addElements(
                at(CommitTestSupport.publishMarker(stillHidden, 6), "2020-05-20T15:00:00.001Z"))
            .advanceWatermarkToInfinity();

    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setStreaming(true);
    options.setParallelism(1);
    // one element per bundle: a bundle in progress holds the watermark back, which would let f3
    // overtake the watermark that makes HOURLY due
    options.setMaxBundleSize(1L);
    Pipeline pipeline = Pipeline.create(options);
    PCollection<WrittenFile> files =
        pipeline
            .apply(stream)
            .apply("Publish", ParDo.of(new CommitTestSupport.PublishMarkedFn(hourlyRoot, 2000)));
    String hourlyId = newCollector();
    String processId = newCollector();
    files
        .apply("HourlyFiles", Filter.by((WrittenFile f) -> !f.partitionPath().equals(LONG_DELAY)))
        .apply(
            "CommitHourly",
            PartitionCommit.of(hourly).withWriteUuid(CommitTestSupport.UUID_OF_WRITE))
        .apply("CollectHourly", ParDo.of(new CollectFn<>(hourlyId)));
    files
        .apply("ProcessFiles", Filter.by((WrittenFile f) -> f.partitionPath().equals(LONG_DELAY)))
        .apply("CommitProcess", PartitionCommit.of(processTime))
        .apply("CollectProcess", ParDo.of(new CollectFn<>(processId)));
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();

    List<CommittedPartition> hourlyCommits = collected(hourlyId);
    assertEquals(
        List.of(HOURLY + "#1:2:partition-time", HOURLY + "#2:1"),
        hourlyCommits.stream()
            .filter(c -> c.partitionPath().equals(HOURLY))
            .map(
                c ->
                    c.partitionPath()
                        + "#"
                        + c.commitNumber()
                        + ":"
                        + c.newFileCount()
                        + (c.commitNumber() == 1 ? ":" + c.reason() : ""))
            .sorted()
            .collect(Collectors.toList()));
    // RACED: never committed while its hidden file was there. The file may be renamed while the
    // commit runs (visible, so committed) and delivered just after it: then a second commit only
    // adds its row count to the manifest.
    assertEquals(List.of(), List.copyOf(CommitTestSupport.VisibilityCheckingPolicy.VIOLATIONS));
    List<CommittedPartition> raced =
        hourlyCommits.stream()
            .filter(c -> c.partitionPath().equals(RACED))
            .sorted(java.util.Comparator.comparing(CommittedPartition::commitNumber))
            .collect(Collectors.toList());
    assertEquals(
        2, raced.stream().mapToInt(CommittedPartition::newFileCount).sum(), raced.toString());
    assertEquals(2, raced.get(0).fileCount(), "the first commit already lists both files");
    assertEquals(
        8,
        CommitManifest.read(hourlyRoot.resolve(RACED).resolve("_SUCCESS"))
            .json()
            .path("rowCount")
            .asLong());

    List<CommittedPartition> processCommits = collected(processId);
    assertEquals(1, processCommits.size());
    assertEquals("end-of-input", processCommits.get(0).reason());

    for (Path dir :
        List.of(
            hourlyRoot.resolve(HOURLY),
            hourlyRoot.resolve(RACED),
            processRoot.resolve(LONG_DELAY))) {
      assertEquals(
          List.of(), CommitManifest.read(dir.resolve("_SUCCESS")).verify(dir), dir.toString());
    }
    assertEquals(3, counter(result, CommitMetrics.COMMITTED));
    assertEquals(5, counter(result, CommitMetrics.LATE_ROWS));
  }

  @Test
  void boundedInputOnFlinkBatchCommitsEveryPartition() throws Exception {
    TableSpec table =
        CommitTestSupport.hourly(
            root,
            TableOptions.COMMIT_TRIGGER,
            "partition-time",
            TableOptions.TIME_EXTRACTOR_PATTERN,
            "$dt $hour:00:00");
    List<WrittenFile> files =
        List.of(
            visibleFile(root, HOURLY, 1),
            visibleFile(root, HOURLY, 2),
            visibleFile(root, LONG_DELAY, 3),
            visibleFile(root, "dt=2020-05-20/hour=oops", 4));
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(2);
    Pipeline pipeline = Pipeline.create(options);
    String id = newCollector();
    pipeline
        .apply(org.apache.beam.sdk.transforms.Create.of(files).withCoder(WrittenFileCoder.of()))
        .apply(PartitionCommit.of(table))
        .apply(ParDo.of(new CollectFn<>(id)));
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    assertEquals(
        List.of(HOURLY + ":2", LONG_DELAY + ":1", "dt=2020-05-20/hour=oops:1"),
        CommitTestSupport.<CommittedPartition>collected(id).stream()
            .map(c -> c.partitionPath() + ":" + c.newFileCount())
            .sorted()
            .collect(Collectors.toList()));
    assertEquals(1, counter(result, CommitMetrics.PARTITION_TIME_ERRORS));
  }

  /**
   * At the end of the input, partitions whose last files are still hidden must not make the commit
   * step wait in place: the files' publisher may need that step to move on (on Flink, the
   * checkpoint that publishes them passes through it). Here the hidden files of three partitions
   * are published only when a fourth partition is committed; each of the three is committed once
   * they are visible.
   */
  @Test
  void endOfInputCommitsWaitForHiddenFilesWithoutBlockingOtherPartitions() throws Exception {
    TableSpec table =
        CommitTestSupport.hourlyByPartitionTime(
            root,
            TableOptions.COMMIT_POLICY_KIND,
            "success-file,custom",
            TableOptions.COMMIT_POLICY_CLASS,
            CommitTestSupport.PublishingPolicy.class.getName());
    String publisher = "dt=2020-05-20/hour=09";
    List<String> waiting = List.of("dt=2020-05-20/hour=10", "dt=2020-05-20/hour=11", HOURLY);
    TestStream.Builder<WrittenFile> stream = TestStream.create(WrittenFileCoder.of());
    List<Path> hidden = new java.util.ArrayList<>();
    for (String partition : waiting) {
      hidden.add(CommitTestSupport.hiddenFile(root, partition, 3, CommitTestSupport.UUID_OF_WRITE));
      stream = stream.addElements(at(visibleFile(root, partition, 2), "2020-05-20T09:30:00Z"));
    }
    CommitTestSupport.PublishingPolicy.PUBLISH_WHEN_COMMITTED.put(publisher, hidden);
    stream = stream.addElements(at(visibleFile(root, publisher, 1), "2020-05-20T09:30:00Z"));

    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setStreaming(true);
    options.setParallelism(
        1); // one DoFn instance: a commit waiting in place would hold up the others
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(stream.advanceWatermarkToInfinity())
        .apply(
            PartitionCommit.of(table)
                .withWriteUuid(CommitTestSupport.UUID_OF_WRITE)
                .withEndOfInputWait(org.joda.time.Duration.standardSeconds(20)));
    long start = System.nanoTime();
    try {
      pipeline.run().waitUntilFinish();
    } finally {
      CommitTestSupport.PublishingPolicy.PUBLISH_WHEN_COMMITTED.remove(publisher);
    }
    long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

    for (String partition : waiting) {
      Path dir = root.resolve(partition);
      CommitManifest manifest = CommitManifest.read(dir.resolve("_SUCCESS"));
      assertEquals(List.of(), manifest.verify(dir), partition);
      assertEquals(2, manifest.files().size(), partition + ": " + manifest.files().keySet());
    }
    // waiting in place, each of the three would have given up only after the 20 s wait
    org.junit.jupiter.api.Assertions.assertTrue(seconds < 20, "took " + seconds + " s");
  }

  private static TimestampedValue<WrittenFile> at(WrittenFile file, String instant) {
    return TimestampedValue.of(file, Instant.parse(instant));
  }
}
