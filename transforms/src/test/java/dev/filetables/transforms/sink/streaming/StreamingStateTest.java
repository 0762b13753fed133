package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.PartFileName;
import dev.filetables.transforms.runner.SinkRunnerOptions;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming sink's small parts: state coders, segment names, size estimates, runner options.
 */
class StreamingStateTest {
  @TempDir Path dir;

  @Test
  void openFileStateRoundTrips() throws Exception {
    OpenFile file =
        new OpenFile("dt=1", ".part-u-3-1700000000000.csv.inprogress", 1700000000000L, -5);
    assertEquals(0, file.beginSegment(999, "")); // the first segment has no predecessor
    file.add(42, 7);
    file.add(-3, 9);
    assertEquals(1, file.beginSegment(60, ""));
    file.add(10, 11);
    OpenFile back =
        CoderUtils.decodeFromByteArray(
            OpenFile.Coder.of(), CoderUtils.encodeToByteArray(OpenFile.Coder.of(), file));
    assertEquals(
        List.of(
            "dt=1",
            ".part-u-3-1700000000000.csv.inprogress",
            1700000000000L,
            -5L,
            11L,
            3L,
            -3L,
            42L,
            2,
            60L),
        List.of(
            back.partitionPath,
            back.name,
            back.counter,
            back.createdAt,
            back.lastWrite,
            back.rows,
            back.minTimestamp,
            back.maxTimestamp,
            back.segments,
            back.closedBytes));
  }

  @Test
  void closesAtBundleEndMarkRoundTripsAndVersion2StateStillReads() throws Exception {
    OpenFile file =
        new OpenFile("dt=1", ".part-u-3-1700000000000.csv.inprogress", 1700000000000L, 5);
    file.beginSegment(0, "");
    file.add(1, 6);
    file.closesAtBundleEnd = true;
    byte[] v5 = CoderUtils.encodeToByteArray(OpenFile.Coder.of(), file);
    assertEquals(5, v5[0]);
    assertTrue(CoderUtils.decodeFromByteArray(OpenFile.Coder.of(), v5).closesAtBundleEnd);
    // version 4: no attempts after the list of segment files (one run: count, "", length)
    byte[] v4 = Arrays.copyOf(v5, v5.length - 3);
    v4[0] = 4;
    assertTrue(CoderUtils.decodeFromByteArray(OpenFile.Coder.of(), v4).closesAtBundleEnd);
    // version 3: no list of segment files after the mark (one segment: count and one gap)
    byte[] v3 = Arrays.copyOf(v4, v4.length - 2);
    v3[0] = 3;
    assertTrue(CoderUtils.decodeFromByteArray(OpenFile.Coder.of(), v3).closesAtBundleEnd);

    // state of the previous layout (version 2: no mark, nothing after closedBytes) restores
    // unmarked
    byte[] v2 = Arrays.copyOf(v3, v3.length - 1);
    v2[0] = 2;
    OpenFile old = CoderUtils.decodeFromByteArray(OpenFile.Coder.of(), v2);
    assertFalse(old.closesAtBundleEnd);
    assertEquals(1, old.segments);
    assertEquals(1L, old.rows);
  }

  @Test
  void writerKeysCodeDeterministically() throws Exception {
    WriterKey key = WriterKey.of("dt=2020-05-20/hour=1", 7);
    byte[] bytes = CoderUtils.encodeToByteArray(WriterKeyCoder.of(), key);
    assertEquals(key, CoderUtils.decodeFromByteArray(WriterKeyCoder.of(), bytes));
    WriterKeyCoder.of().verifyDeterministic();
    assertEquals("7", key.writerId());
  }

  @Test
  void segmentNamesAreHiddenAndDerivedFromThePartFile() throws Exception {
    String part = PartFileName.hidden("uuid-1", "2", 1700000000000L, ".parquet");
    String segment = SegmentFiles.segmentName(part, 3);
    assertEquals(".part-uuid-1-2-1700000000000.parquet.seg-3.inprogress", segment);
    assertTrue(PartFileName.isHidden(segment));
    assertTrue(PartFileName.isInProgress(segment));
    assertFalse(segment.endsWith(".parquet"), "globs on the extension never match a segment");
    assertThrows(
        IllegalArgumentException.class, () -> SegmentFiles.segmentName("part-x-1-2.csv", 0));

    Files.writeString(dir.resolve(SegmentFiles.segmentName(part, 0)), "a");
    Files.writeString(dir.resolve(SegmentFiles.segmentName(part, 9)), "a"); // a failed attempt's
    Files.writeString(dir.resolve(part), "merged");
    String other = PartFileName.hidden("uuid-1", "2", 1700000000001L, ".parquet");
    Files.writeString(dir.resolve(SegmentFiles.segmentName(other, 0)), "b");
    assertEquals(2, SegmentFiles.deleteSegments(dir, part));
    assertTrue(Files.exists(dir.resolve(part)), "the part file itself stays");
    assertTrue(
        Files.exists(dir.resolve(SegmentFiles.segmentName(other, 0))),
        "other files' segments stay");
    assertEquals(0, SegmentFiles.deleteSegments(dir.resolve("gone"), part));
  }

  @Test
  void runnerOptionsAreReadWithoutARunnerDependency() {
    FlinkPipelineOptions flink = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    flink.setRunner(FlinkRunner.class);
    assertTrue(SinkRunnerOptions.isFlink(flink));
    assertEquals(-1, SinkRunnerOptions.flinkCheckpointingInterval(flink));
    flink.setCheckpointingInterval(2000L);
    flink.setParallelism(5);
    assertEquals(2000, SinkRunnerOptions.flinkCheckpointingInterval(flink));
    assertEquals(5, SinkRunnerOptions.defaultWriters(flink));

    // options created from arguments, never viewed as Flink options by the user
    PipelineOptions parsed =
        PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--checkpointingInterval=700")
            .create();
    assertTrue(SinkRunnerOptions.isFlink(parsed));
    assertEquals(700, SinkRunnerOptions.flinkCheckpointingInterval(parsed));

    DirectOptions direct = PipelineOptionsFactory.as(DirectOptions.class);
    direct.setRunner(DirectRunner.class);
    direct.setTargetParallelism(3);
    assertFalse(SinkRunnerOptions.isFlink(direct));
    assertEquals(3, SinkRunnerOptions.defaultWriters(direct));
  }

  @Test
  void warnsWhenFlinkBundlesMakeTinySegments() {
    FlinkPipelineOptions flink = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    flink.setRunner(FlinkRunner.class);
    flink.setStreaming(true);
    flink.setCheckpointingInterval(2000L);
    // Flink's streaming defaults: 1000 elements, 1000 ms
    String warning = StreamingWrite.smallBundleWarning("t", flink).orElseThrow();
    assertTrue(warning.contains("--maxBundleSize=1000000"), warning);
    assertTrue(warning.contains("`t`"), warning);
    flink.setMaxBundleSize(1_000_000L);
    flink.setMaxBundleTimeMills(2_000L); // ends at checkpoints anyway
    assertTrue(StreamingWrite.smallBundleWarning("t", flink).isEmpty());
    flink.setCheckpointingInterval(60_000L);
    assertFalse(
        StreamingWrite.smallBundleWarning("t", flink).isEmpty(),
        "2 s bundles, checkpoints every minute");
    flink.setMaxBundleTimeMills(10_000L);
    assertTrue(StreamingWrite.smallBundleWarning("t", flink).isEmpty());
    DirectOptions direct = PipelineOptionsFactory.as(DirectOptions.class);
    direct.setRunner(DirectRunner.class);
    assertTrue(StreamingWrite.smallBundleWarning("t", direct).isEmpty());
  }
}
