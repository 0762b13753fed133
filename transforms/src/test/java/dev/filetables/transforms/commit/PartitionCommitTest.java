package dev.filetables.transforms.commit;

import static dev.filetables.transforms.commit.CommitTestSupport.collected;
import static dev.filetables.transforms.commit.CommitTestSupport.counter;
import static dev.filetables.transforms.commit.CommitTestSupport.newCollector;
import static dev.filetables.transforms.commit.CommitTestSupport.visibleFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.commit.CommitTestSupport.CollectFn;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PartitionCommit} on the Direct runner, driven by {@link TestStream}. */
class PartitionCommitTest {
  private static final String HOUR_12 = "dt=2020-05-20/hour=12";

  @TempDir Path root;

  private PipelineResult result;

  @BeforeEach
  void reset() {
    CommitTestSupport.RecordingPolicy.LOG.clear();
    CommitTestSupport.FlakyPolicy.CALLS.set(0);
  }

  // ---- partition-time

  /**
   * f1, watermark at T, f2, watermark at T + 1 ms, f3: committed exactly once the watermark is past
   * T (f1 and f2 together), and f3 is late data that re-commits.
   */
  private List<CommittedPartition> commitsStrictlyAfter(
      TableSpec table, String partitionPath, Instant threshold) {
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(
                at(
                    visibleFile(root, partitionPath, 3),
                    threshold.minus(Duration.standardMinutes(30))))
            .advanceWatermarkTo(threshold)
            .addElements(
                at(
                    visibleFile(root, partitionPath, 4),
                    threshold.minus(Duration.standardMinutes(20))))
            .advanceWatermarkTo(threshold.plus(Duration.millis(1)))
            .addElements(
                at(
                    CommitTestSupport.laterFile(root, partitionPath, 5),
                    threshold.minus(Duration.standardMinutes(10))))
            .advanceProcessingTime(Duration.standardSeconds(2))
            .advanceWatermarkToInfinity();
    List<CommittedPartition> commits = run(table, stream);
    assertEquals(2, commits.size(), commits.toString());
    CommittedPartition first = commits.get(0);
    assertEquals(partitionPath, first.partitionPath());
    assertEquals(1, first.commitNumber());
    assertEquals(2, first.newFileCount(), "f1 and f2: not committed at watermark == threshold");
    assertEquals(7, first.newRowCount());
    assertEquals("partition-time", first.reason());
    assertEquals(2, first.fileCount());
    CommittedPartition second = commits.get(1);
    assertEquals(2, second.commitNumber());
    assertEquals(1, second.newFileCount(), "f3 came after the commit at threshold + 1 ms");
    assertEquals(
        "partition-time", second.reason(), "late data is re-committed at once, not at the end");
    assertEquals(3, second.fileCount());
    return commits;
  }

  @Test
  void hourlyPartitionCommitsWhenWatermarkPassesTimePlusDelay() throws Exception {
    TableSpec table = CommitTestSupport.hourlyByPartitionTime(root);
    commitsStrictlyAfter(table, HOUR_12, Instant.parse("2020-05-20T13:00:00Z"));

    assertEquals(1, counter(result, CommitMetrics.COMMITTED));
    assertEquals(1, counter(result, CommitMetrics.RECOMMITTED));
    assertEquals(5, counter(result, CommitMetrics.LATE_ROWS));
    assertEquals(1, counter(result, CommitMetrics.LATE_FILES));
    assertEquals(0, counter(result, CommitMetrics.PENDING));
    assertEquals(2, CommitTestSupport.distributionCount(result, CommitMetrics.COMMIT_LAG_MILLIS));

    Path dir = root.resolve(HOUR_12);
    CommitManifest manifest = CommitManifest.read(dir.resolve("_SUCCESS"));
    assertEquals(2, manifest.commitNumber());
    assertEquals(3, manifest.files().size());
    assertEquals(12, manifest.json().path("rowCount").asLong());
    assertEquals("2020-05-20T13:00:00Z", manifest.json().path("watermark").asText());
    assertEquals("2020-05-20T12:00", manifest.json().path("partitionTime").asText());
    assertEquals(List.of(), manifest.verify(dir));
  }

  @Test
  void dailyPartitionWithoutPattern() {
    TableSpec table =
        CommitTestSupport.daily(
            root, TableOptions.COMMIT_TRIGGER, "partition-time", TableOptions.COMMIT_DELAY, "1 d");
    commitsStrictlyAfter(table, "dt=2020-05-20", Instant.parse("2020-05-21T00:00:00Z"));
  }

  @Test
  void dailyPartitionWithFormatterYyyyMmDd() {
    TableSpec table =
        CommitTestSupport.daily(
            root,
            TableOptions.COMMIT_TRIGGER,
            "partition-time",
            TableOptions.TIME_EXTRACTOR_FORMATTER,
            "yyyyMMdd",
            TableOptions.COMMIT_DELAY,
            "1 d");
    commitsStrictlyAfter(table, "dt=20200520", Instant.parse("2020-05-21T00:00:00Z"));
  }

  @Test
  void monthFirstFormatterWithTime() {
    TableSpec table =
        CommitTestSupport.table(
            root,
            List.of("day", "hour"),
            TableOptions.COMMIT_TRIGGER,
            "partition-time",
            TableOptions.TIME_EXTRACTOR_PATTERN,
            "$day $hour:00:00",
            TableOptions.TIME_EXTRACTOR_FORMATTER,
            "MM-dd-yyyy HH:mm:ss",
            TableOptions.COMMIT_DELAY,
            "1 h");
    commitsStrictlyAfter(table, "day=05-20-2020/hour=12", Instant.parse("2020-05-20T13:00:00Z"));
  }

  @Test
  void shanghaiPartitionCommitsEightHoursBeforeTheSameUtcPartition() {
    TableSpec shanghai =
        CommitTestSupport.hourlyByPartitionTime(
            root, TableOptions.COMMIT_WATERMARK_TIME_ZONE, "Asia/Shanghai");
    // 12:00 in Shanghai is 04:00 UTC
    commitsStrictlyAfter(shanghai, HOUR_12, Instant.parse("2020-05-20T05:00:00Z"));
  }

  @Test
  void daylightSavingGapAndOverlap() {
    TableSpec newYork =
        CommitTestSupport.hourlyByPartitionTime(
            root, TableOptions.COMMIT_WATERMARK_TIME_ZONE, "America/New_York");
    // 02:00 does not exist on 2021-03-14: it moves forward to 03:00 EDT = 07:00Z
    commitsStrictlyAfter(newYork, "dt=2021-03-14/hour=02", Instant.parse("2021-03-14T08:00:00Z"));
  }

  @Test
  void daylightSavingOverlapTakesTheEarlierOffset() {
    TableSpec newYork =
        CommitTestSupport.hourlyByPartitionTime(
            root, TableOptions.COMMIT_WATERMARK_TIME_ZONE, "America/New_York");
    // 01:00 happens twice on 2021-11-07; the first (EDT, 05:00Z) counts
    commitsStrictlyAfter(newYork, "dt=2021-11-07/hour=01", Instant.parse("2021-11-07T06:00:00Z"));
  }

  // ---- process-time

  @Test
  void processTimeCommitsDelayAfterTheFirstFile() {
    TableSpec table =
        CommitTestSupport.hourly(
            root, TableOptions.COMMIT_TRIGGER, "process-time", TableOptions.COMMIT_DELAY, "10 min");
    Instant t = Instant.parse("2020-05-20T12:10:00Z");
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(at(visibleFile(root, HOUR_12, 1), t))
            .advanceProcessingTime(Duration.standardMinutes(9))
            .addElements(at(visibleFile(root, HOUR_12, 2), t))
            .advanceProcessingTime(Duration.standardMinutes(2)) // 11 min after the first file
            .addElements(at(CommitTestSupport.laterFile(root, HOUR_12, 3), t))
            .advanceProcessingTime(Duration.standardMinutes(11))
            .advanceWatermarkToInfinity();
    List<CommittedPartition> commits = run(table, stream);
    assertEquals(
        List.of("1:2:process-time", "2:1:process-time"),
        commits.stream()
            .map(c -> c.commitNumber() + ":" + c.newFileCount() + ":" + c.reason())
            .collect(Collectors.toList()));
  }

  @Test
  void processTimeWithoutDelayCommitsAtTheNextTick() {
    TableSpec table = CommitTestSupport.hourly(root);
    Instant t = Instant.parse("2020-05-20T12:10:00Z");
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(at(visibleFile(root, HOUR_12, 1), t), at(visibleFile(root, HOUR_12, 2), t))
            .advanceProcessingTime(Duration.millis(1))
            .addElements(at(visibleFile(root, "dt=2020-05-20/hour=13", 2), t))
            .advanceProcessingTime(Duration.millis(1))
            .advanceWatermarkToInfinity();
    List<CommittedPartition> commits = run(table, stream);
    assertEquals(
        List.of(HOUR_12 + ":2:process-time", "dt=2020-05-20/hour=13:1:process-time"),
        commits.stream()
            .map(c -> c.partitionPath() + ":" + c.newFileCount() + ":" + c.reason())
            .collect(Collectors.toList()));
  }

  // ---- end of input

  @Test
  void endOfBoundedInputCommitsEveryPendingPartition() throws Exception {
    TableSpec table =
        CommitTestSupport.hourly(
            root, TableOptions.COMMIT_TRIGGER, "process-time", TableOptions.COMMIT_DELAY, "1 h");
    List<WrittenFile> files =
        List.of(
            visibleFile(root, HOUR_12, 1),
            visibleFile(root, HOUR_12, 2),
            visibleFile(root, "dt=2020-05-20/hour=13", 3),
            visibleFile(root, "dt=2020-05-21/hour=00", 4));
    Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
    String id = newCollector();
    pipeline
        .apply(Create.of(files).withCoder(WrittenFileCoder.of()))
        .apply(PartitionCommit.of(table))
        .apply(ParDo.of(new CollectFn<>(id)));
    result = pipeline.run();
    result.waitUntilFinish();
    List<CommittedPartition> commits = collected(id);
    assertEquals(
        List.of("dt=2020-05-20/hour=12:2", "dt=2020-05-20/hour=13:1", "dt=2020-05-21/hour=00:1"),
        commits.stream()
            .map(c -> c.partitionPath() + ":" + c.newFileCount())
            .sorted()
            .collect(Collectors.toList()));
    commits.forEach(c -> assertEquals("end-of-input", c.reason()));
    for (String partition : List.of(HOUR_12, "dt=2020-05-20/hour=13", "dt=2020-05-21/hour=00")) {
      assertEquals(
          List.of(),
          CommitManifest.read(root.resolve(partition).resolve("_SUCCESS"))
              .verify(root.resolve(partition)));
    }
    assertEquals(3, counter(result, CommitMetrics.COMMITTED));
  }

  // ---- visibility

  @Test
  void inProgressFileOfTheWriteHoldsTheCommitUntilItIsPublished() throws Exception {
    TableSpec table = CommitTestSupport.hourlyByPartitionTime(root);
    Instant threshold = Instant.parse("2020-05-20T13:00:00Z");
    Path stillWriting =
        CommitTestSupport.hiddenFile(root, HOUR_12, 6, CommitTestSupport.UUID_OF_WRITE);
    Path crashedJob = CommitTestSupport.hiddenFile(root, HOUR_12, 1, CommitTestSupport.OTHER_WRITE);
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(
                at(visibleFile(root, HOUR_12, 3), threshold.minus(Duration.standardMinutes(30))))
            // the watermark races ahead of the file still waiting to be published (Beam #39991)
            .advanceWatermarkTo(threshold.plus(Duration.standardMinutes(5)))
            .advanceProcessingTime(Duration.standardSeconds(2))
            .advanceProcessingTime(Duration.standardSeconds(3))
            .addElements(
                at(
                    CommitTestSupport.publishMarker(stillWriting, 6),
                    threshold.plus(Duration.standardMinutes(5))))
            .advanceProcessingTime(Duration.standardSeconds(10))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
    String id = newCollector();
    pipeline
        .apply(stream)
        .apply("Publish", ParDo.of(new CommitTestSupport.PublishMarkedFn(root)))
        .apply(PartitionCommit.of(table).withWriteUuid(CommitTestSupport.UUID_OF_WRITE))
        .apply(ParDo.of(new CollectFn<>(id)));
    result = pipeline.run();
    result.waitUntilFinish();
    List<CommittedPartition> commits = collected(id);
    assertEquals(1, commits.size(), commits.toString());
    assertEquals(
        2, commits.get(0).newFileCount(), "committed with the published file, not before it");
    assertEquals(9, commits.get(0).newRowCount());
    assertEquals("partition-time", commits.get(0).reason());
    assertTrue(counter(result, CommitMetrics.WAITS_FOR_FILES) >= 2);
    assertTrue(
        Files.exists(crashedJob), "another write's leftover is left alone and does not block");
    CommitManifest manifest = CommitManifest.read(root.resolve(HOUR_12).resolve("_SUCCESS"));
    assertEquals(2, manifest.files().size());
  }

  /**
   * A due partition that waits for its last hidden file is committed at the first check after that
   * file is published, not when the backoff of its waits comes round (8 s here, up to a minute).
   * Processing time is the test's, so this is about order, not speed.
   */
  @Test
  void waitingPartitionIsCommittedWhenItsLastFileIsPublishedNotAfterTheBackoff() throws Exception {
    TableSpec table = CommitTestSupport.hourlyByPartitionTime(root);
    Instant threshold = Instant.parse("2020-05-20T13:00:00Z");
    Path last = CommitTestSupport.hiddenFile(root, HOUR_12, 6, CommitTestSupport.UUID_OF_WRITE);
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(
                at(visibleFile(root, HOUR_12, 3), threshold.minus(Duration.standardMinutes(30))))
            .advanceWatermarkTo(threshold.plus(Duration.millis(1))) // due: waits, checks in 1 s
            .advanceProcessingTime(Duration.millis(1_500)) // waits, checks again in 2 s
            .advanceProcessingTime(Duration.millis(2_500)) // waits, checks again in 4 s
            .advanceProcessingTime(Duration.millis(4_500)) // waits, checks again in 8 s
            .addElements(at(CommitTestSupport.publishMarker(last, 6), threshold))
            .advanceProcessingTime(Duration.standardSeconds(1)) // 7 s short of the backoff
            .advanceWatermarkToInfinity();
    List<CommittedPartition> commits = run(table, stream);
    assertEquals(1, commits.size(), commits.toString());
    assertEquals(
        "partition-time",
        commits.get(0).reason(),
        "committed by the check the publish caused, not by the end of the input");
    assertEquals(2, commits.get(0).newFileCount());
    assertEquals(4, counter(result, CommitMetrics.WAITS_FOR_FILES));
  }

  @Test
  void fileRenamedDuringTheCommitIsNotLateData() throws Exception {
    for (boolean manifest : List.of(true, false)) {
      Path tableRoot = root.resolve("manifest-" + manifest);
      TableSpec table =
          CommitTestSupport.hourly(
              tableRoot,
              TableOptions.COMMIT_TRIGGER,
              "partition-time",
              TableOptions.TIME_EXTRACTOR_PATTERN,
              "$dt $hour:00:00",
              TableOptions.COMMIT_SUCCESS_FILE_MANIFEST,
              Boolean.toString(manifest));
      Instant t = Instant.parse("2020-05-20T12:30:00Z");
      Path hidden =
          CommitTestSupport.hiddenFile(tableRoot, HOUR_12, 6, CommitTestSupport.UUID_OF_WRITE);
      TestStream<WrittenFile> stream =
          TestStream.create(WrittenFileCoder.of())
              .addElements(at(visibleFile(tableRoot, HOUR_12, 3), t))
              .advanceWatermarkTo(
                  Instant.parse("2020-05-20T13:00:00Z")) // due, held back by `hidden`
              .addElements(at(CommitTestSupport.renameMarker(hidden, 6), t)) // visible now...
              .advanceProcessingTime(Duration.standardSeconds(2)) // ...so the retry commits
              .addElements(
                  at(CommitTestSupport.deliverMarker(hidden, 6), t)) // ...before it arrives
              .advanceProcessingTime(Duration.standardSeconds(2))
              .advanceWatermarkToInfinity();
      Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
      String id = newCollector();
      pipeline
          .apply(stream)
          .apply("Publish", ParDo.of(new CommitTestSupport.PublishMarkedFn(tableRoot)))
          .apply(PartitionCommit.of(table).withWriteUuid(CommitTestSupport.UUID_OF_WRITE))
          .apply(ParDo.of(new CollectFn<>(id)));
      result = pipeline.run();
      result.waitUntilFinish();
      List<CommittedPartition> commits = collected(id);
      commits.sort(java.util.Comparator.comparing(CommittedPartition::commitNumber));
      assertEquals(0, counter(result, CommitMetrics.LATE_ROWS), "manifest " + manifest);
      assertEquals(2, commits.get(0).fileCount(), "the first commit lists the renamed file");
      Path success = tableRoot.resolve(HOUR_12).resolve("_SUCCESS");
      if (manifest) {
        // committed again only to record the file's row count in the manifest
        assertEquals(2, commits.size(), commits.toString());
        assertEquals(9, CommitManifest.read(success).json().path("rowCount").asLong());
      } else {
        assertEquals(1, commits.size(), commits.toString());
        assertEquals(0, Files.size(success));
      }
    }
  }

  // ---- bad partition values

  @Test
  void unreadablePartitionTimeDoesNotBlockOtherPartitions() {
    TableSpec table = CommitTestSupport.hourlyByPartitionTime(root);
    Instant t = Instant.parse("2020-05-20T12:30:00Z");
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(
                at(visibleFile(root, "dt=2020-05-20/hour=noon", 1), t),
                at(visibleFile(root, HOUR_12, 1), t),
                at(visibleFile(root, "dt=2020-05-20/hour=__DEFAULT_PARTITION__", 1), t))
            .advanceWatermarkTo(Instant.parse("2020-05-20T14:00:00Z"))
            .addElements(at(CommitTestSupport.laterFile(root, HOUR_12, 1), t))
            .advanceProcessingTime(Duration.standardSeconds(2))
            .advanceWatermarkToInfinity();
    List<CommittedPartition> commits = run(table, stream);
    assertEquals(
        List.of(
            HOUR_12 + "#1:partition-time",
            HOUR_12 + "#2:partition-time",
            "dt=2020-05-20/hour=__DEFAULT_PARTITION__#1:end-of-input",
            "dt=2020-05-20/hour=noon#1:end-of-input"),
        commits.stream()
            .map(c -> c.partitionPath() + "#" + c.commitNumber() + ":" + c.reason())
            .sorted()
            .collect(Collectors.toList()));
    assertEquals(2, counter(result, CommitMetrics.PARTITION_TIME_ERRORS));
  }

  // ---- policies

  @Test
  void policiesRunInTheListedOrder() {
    Instant t = Instant.parse("2020-05-20T12:30:00Z");
    for (String kinds : List.of("custom, success-file", "success-file,custom")) {
      Path tableRoot = root.resolve(kinds.startsWith("custom") ? "custom-first" : "success-first");
      TableSpec table =
          CommitTestSupport.hourly(
              tableRoot,
              TableOptions.COMMIT_POLICY_KIND,
              kinds,
              TableOptions.COMMIT_POLICY_CLASS,
              CommitTestSupport.RecordingPolicy.class.getName());
      TestStream<WrittenFile> stream =
          TestStream.create(WrittenFileCoder.of())
              .addElements(at(visibleFile(tableRoot, HOUR_12, 1), t))
              .advanceProcessingTime(Duration.millis(1))
              .advanceWatermarkToInfinity();
      run(table, stream);
    }
    assertEquals(
        List.of(HOUR_12 + "#1 before success-file", HOUR_12 + "#1 after success-file"),
        List.copyOf(CommitTestSupport.RecordingPolicy.LOG));
  }

  @Test
  void failingPolicyIsRetriedNotSkipped() {
    CommitTestSupport.FlakyPolicy.failures = 2;
    TableSpec table =
        CommitTestSupport.hourly(
            root,
            TableOptions.COMMIT_POLICY_KIND,
            "custom,success-file",
            TableOptions.COMMIT_POLICY_CLASS,
            CommitTestSupport.FlakyPolicy.class.getName());
    Instant t = Instant.parse("2020-05-20T12:30:00Z");
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(at(visibleFile(root, HOUR_12, 1), t))
            .advanceProcessingTime(Duration.millis(1)) // fails
            .advanceProcessingTime(Duration.millis(1500)) // fails
            .advanceProcessingTime(Duration.standardSeconds(3)) // succeeds
            .advanceWatermarkToInfinity();
    List<CommittedPartition> commits = run(table, stream);
    assertEquals(1, commits.size());
    assertEquals("process-time", commits.get(0).reason());
    assertEquals(2, counter(result, CommitMetrics.FAILURES));
    assertEquals(3, CommitTestSupport.FlakyPolicy.CALLS.get());
    assertTrue(
        Files.exists(root.resolve(HOUR_12).resolve("_SUCCESS")), "the policy after it ran too");
  }

  @Test
  void overduePartitionIsReported() {
    TableSpec table =
        CommitTestSupport.hourly(
            root,
            TableOptions.COMMIT_TRIGGER,
            "partition-time",
            TableOptions.TIME_EXTRACTOR_PATTERN,
            "$dt $hour:00:00");
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(at(visibleFile(root, HOUR_12, 1), Instant.parse("2020-05-20T12:30:00Z")))
            .advanceProcessingTime(Duration.standardMinutes(2))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
    String id = newCollector();
    pipeline
        .apply(stream)
        .apply(PartitionCommit.of(table).withOverdueGrace(Duration.standardMinutes(1)))
        .apply(ParDo.of(new CollectFn<>(id)));
    result = pipeline.run();
    result.waitUntilFinish();
    assertEquals(1, counter(result, CommitMetrics.OVERDUE));
    assertEquals(1, collected(id).size());
  }

  @Test
  void unpartitionedTableIsRejected() {
    TableSpec table = CommitTestSupport.table(root, List.of());
    Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
    PCollection<WrittenFile> files = pipeline.apply(Create.empty(WrittenFileCoder.of()));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> files.apply(PartitionCommit.of(table)));
    assertTrue(e.getMessage().contains("no partition keys"), e.getMessage());
    assertFalse(PartitionCommit.isConfigured(table));
    assertTrue(PartitionCommit.isConfigured(CommitTestSupport.hourly(root)));
  }

  // ---- helpers

  private List<CommittedPartition> run(TableSpec table, TestStream<WrittenFile> stream) {
    Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
    String id = newCollector();
    pipeline
        .apply(stream)
        .apply(
            "Publish", ParDo.of(new CommitTestSupport.PublishMarkedFn(table.options().rootPath())))
        .apply(PartitionCommit.of(table).withWriteUuid(CommitTestSupport.UUID_OF_WRITE))
        .apply(ParDo.of(new CollectFn<>(id)));
    result = pipeline.run();
    result.waitUntilFinish();
    List<CommittedPartition> commits = collected(id);
    commits.sort(
        java.util.Comparator.comparing(CommittedPartition::partitionPath)
            .thenComparing(CommittedPartition::commitNumber));
    return commits;
  }

  private static TimestampedValue<WrittenFile> at(WrittenFile file, Instant timestamp) {
    return TimestampedValue.of(file, timestamp);
  }
}
