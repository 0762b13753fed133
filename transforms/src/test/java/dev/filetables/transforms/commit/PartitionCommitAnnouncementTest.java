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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Announcements (closed files under their hidden names, sent by the streaming sink before they are
 * published) on the Direct runner: they make a partition whose files become visible only after the
 * end of the input known to the commit, and change nothing while the input runs.
 */
class PartitionCommitAnnouncementTest {
  private static final String HOUR_12 = "dt=2020-05-20/hour=12";
  private static final Instant T = Instant.parse("2020-05-20T12:30:00Z");

  @TempDir Path root;

  /**
   * The file is announced and published, but its published element never arrives (as on Flink,
   * where it comes after the final watermark): the partition is committed at the end of the input
   * all the same, with the announced row count in the manifest, by either trigger.
   */
  @Test
  void announcedOnlyPartitionIsCommittedAtTheEndOfTheInput() throws Exception {
    for (String trigger : List.of("partition-time", "process-time")) {
      Path tableRoot = root.resolve(trigger);
      TableSpec table = table(tableRoot, trigger);
      Path hidden =
          CommitTestSupport.hiddenFile(tableRoot, HOUR_12, 6, CommitTestSupport.UUID_OF_WRITE);
      TestStream<WrittenFile> stream =
          TestStream.create(WrittenFileCoder.of())
              .addElements(at(announcement(hidden, 6)))
              .advanceProcessingTime(Duration.standardSeconds(2))
              .addElements(
                  at(CommitTestSupport.renameMarker(hidden, 6))) // visible, never delivered
              .advanceProcessingTime(Duration.standardSeconds(2))
              .advanceWatermarkToInfinity();
      Run run = run(tableRoot, table, stream);
      assertEquals(1, run.commits.size(), trigger + ": " + run.commits);
      CommittedPartition commit = run.commits.get(0);
      assertEquals(
          "end-of-input",
          commit.reason(),
          trigger + ": an announcement alone commits nothing before");
      assertEquals(0, commit.newFileCount(), "the announcement is not a file of the commit");
      assertEquals(1, commit.fileCount(), "the commit lists the visible file");
      CommitManifest manifest = CommitManifest.read(tableRoot.resolve(HOUR_12).resolve("_SUCCESS"));
      assertEquals(Set.of(visibleName(hidden)), manifest.files().keySet());
      assertEquals(6, manifest.json().path("rowCount").asLong(), trigger + ": announced row count");
      assertEquals(0, counter(run.result, CommitMetrics.LATE_FILES));
    }
  }

  /**
   * A file announced after the partition's commit is late data once, when its published element
   * arrives: neither the announcement nor a double count.
   */
  @Test
  void lateFileIsCountedOnceAndReCommitted() throws Exception {
    TableSpec table = table(root, "partition-time");
    TestStream<WrittenFile> stream =
        TestStream.create(WrittenFileCoder.of())
            .addElements(at(visibleFile(root, HOUR_12, 3)))
            .advanceWatermarkTo(Instant.parse("2020-05-20T13:00:01Z")) // committed
            .advanceProcessingTime(Duration.standardSeconds(2))
            // closed after the commit: waits outside the table until then
            .addElements(
                at(
                    announcement(
                        CommitTestSupport.hiddenFile(
                            CommitTestSupport.staging(root),
                            HOUR_12,
                            5,
                            CommitTestSupport.UUID_OF_WRITE),
                        5)))
            .advanceProcessingTime(Duration.standardSeconds(2))
            .advanceWatermarkToInfinity();
    // publishes the late file after its announcement, as the sink's commit point does
    Run run =
        run(root, table, stream, "AnnounceThenPublish", ParDo.of(new AnnounceThenPublishFn(root)));
    run.commits.sort(Comparator.comparing(CommittedPartition::commitNumber));
    assertEquals(2, run.commits.size(), run.commits.toString());
    assertEquals(1, run.commits.get(1).newFileCount());
    assertEquals(1, counter(run.result, CommitMetrics.LATE_FILES));
    assertEquals(5, counter(run.result, CommitMetrics.LATE_ROWS));
    assertEquals(
        8,
        CommitManifest.read(root.resolve(HOUR_12).resolve("_SUCCESS"))
            .json()
            .path("rowCount")
            .asLong());
  }

  /**
   * For a staged hidden file: moves it into the table (closed now), passes its announcement on,
   * then publishes it and passes the published file on too. Other files pass unchanged.
   */
  static final class AnnounceThenPublishFn
      extends org.apache.beam.sdk.transforms.DoFn<WrittenFile, WrittenFile> {
    private final String root;

    AnnounceThenPublishFn(Path root) {
      this.root = root.toString();
    }

    @ProcessElement
    public void process(@Element WrittenFile file, OutputReceiver<WrittenFile> out)
        throws Exception {
      Path path = Path.of(file.path());
      String name = path.getFileName().toString();
      if (!dev.filetables.io.files.PartFileName.isInProgress(name)) {
        out.output(file);
        return;
      }
      Path hidden = Path.of(root).resolve(file.partitionPath()).resolve(name);
      Files.createDirectories(hidden.getParent());
      Files.move(path, hidden);
      out.output(file.withPath(hidden.toString()));
      Path visible = hidden.resolveSibling(dev.filetables.io.files.PartFileName.visibleOf(name));
      Files.move(hidden, visible);
      out.output(file.withPath(visible.toString()));
    }
  }

  private static TableSpec table(Path tableRoot, String trigger) {
    return CommitTestSupport.hourly(
        tableRoot,
        TableOptions.COMMIT_TRIGGER,
        trigger,
        TableOptions.TIME_EXTRACTOR_PATTERN,
        "$dt $hour:00:00",
        TableOptions.COMMIT_SUCCESS_FILE_MANIFEST,
        "true");
  }

  private static WrittenFile announcement(Path hidden, int rows) throws Exception {
    return WrittenFile.of(HOUR_12, hidden.toString(), rows, Files.size(hidden));
  }

  private static String visibleName(Path hidden) {
    return dev.filetables.io.files.PartFileName.visibleOf(hidden.getFileName().toString());
  }

  private static TimestampedValue<WrittenFile> at(WrittenFile file) {
    return TimestampedValue.of(file, T);
  }

  private static final class Run {
    final PipelineResult result;
    final List<CommittedPartition> commits;

    Run(PipelineResult result, List<CommittedPartition> commits) {
      this.result = result;
      this.commits = commits;
    }
  }

  private static Run run(Path tableRoot, TableSpec table, TestStream<WrittenFile> stream) {
    return run(
        tableRoot,
        table,
        stream,
        "Publish",
        ParDo.of(new CommitTestSupport.PublishMarkedFn(tableRoot)));
  }

  private static Run run(
      Path tableRoot,
      TableSpec table,
      TestStream<WrittenFile> stream,
      String publishName,
      ParDo.SingleOutput<WrittenFile, WrittenFile> publish) {
    Pipeline pipeline = Pipeline.create(CommitTestSupport.directOptions());
    String id = newCollector();
    pipeline
        .apply(stream)
        .apply(publishName, publish)
        .apply(PartitionCommit.of(table).withWriteUuid(CommitTestSupport.UUID_OF_WRITE))
        .apply(ParDo.of(new CollectFn<>(id)));
    PipelineResult result = pipeline.run();
    result.waitUntilFinish();
    List<CommittedPartition> commits = new java.util.ArrayList<>(collected(id));
    return new Run(result, commits);
  }
}
