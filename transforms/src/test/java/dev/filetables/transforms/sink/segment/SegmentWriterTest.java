package dev.filetables.transforms.sink.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.parquet.ChannelInputFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segment-per-bundle writer's files: what a restore relies on (a replayed bundle rewrites its
 * segment under the same name; segments beyond the restored count are ignored by the merge and
 * deleted after publishing), for both segment kinds.
 */
class SegmentWriterTest {
  private static final Schema SCHEMA =
      Schema.builder().addInt64Field("id").addStringField("s").build();
  private static final String PART =
      PartFileName.hidden("uuid-1", "0", 1_700_000_000_000L, ".parquet");

  @TempDir Path dir;

  private static List<Row> rows(long from, long to) {
    return LongStream.range(from, to)
        .mapToObj(i -> Row.withSchema(SCHEMA).addValues(i, "v" + (i % 7)).build())
        .collect(Collectors.toList());
  }

  private static FileFormat format(String name) {
    return FileFormats.forName(name, Map.of());
  }

  private void writeSegment(SegmentKind kind, FileFormat format, int n, List<Row> rows)
      throws IOException {
    try (SegmentWriter writer =
        SegmentWriter.open(kind, format, SCHEMA, dir, SegmentFiles.segmentName(PART, n))) {
      for (Row row : rows) {
        writer.write(row);
      }
      assertTrue(writer.bytes() > 0 || rows.isEmpty());
    }
  }

  private List<Row> readAll(FileFormat format, Path file) throws IOException {
    List<Row> read = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      try (RowReader reader = format.createReader(channel, size, ByteRange.of(0, size), SCHEMA)) {
        for (Row row = reader.next(); row != null; row = reader.next()) {
          read.add(row);
        }
      }
    }
    return read;
  }

  private static int rowGroups(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        ParquetFileReader reader =
            ParquetFileReader.open(new ChannelInputFile(channel, channel.size()))) {
      return reader.getFooter().getBlocks().size();
    }
  }

  private void replayedSegmentReplacesTheFailedAttemptsAndExtraSegmentsAreIgnored(
      SegmentKind kind, String formatName) throws IOException {
    FileFormat format = format(formatName);
    // checkpointed state: 2 segments. The failed attempt then wrote segments 2 and 3.
    writeSegment(kind, format, 0, rows(0, 10));
    writeSegment(kind, format, 1, rows(10, 20));
    writeSegment(kind, format, 2, rows(900, 950));
    writeSegment(kind, format, 3, rows(950, 990));
    // the replay after the restore begins segment 2 again, with other bundle boundaries
    writeSegment(kind, format, 2, rows(20, 25));
    SegmentFiles.merge(
        kind == SegmentKind.SPILL
            ? new SpillMerger(format, SCHEMA)
            : FileMergers.of(format, SCHEMA),
        dir,
        List.of(
            SegmentFiles.segmentName(PART, 0),
            SegmentFiles.segmentName(PART, 1),
            SegmentFiles.segmentName(PART, 2)),
        PART);
    assertEquals(rows(0, 25), readAll(format, dir.resolve(PART)));
    if (formatName.equals("parquet")) {
      assertEquals(kind == SegmentKind.SPILL ? 1 : 3, rowGroups(dir.resolve(PART)));
    }
    // publishing deletes every segment, also segment 3 beyond the count
    assertEquals(4, SegmentFiles.deleteSegments(dir, PART));
    try (var left = Files.list(dir)) {
      assertEquals(List.of(dir.resolve(PART)), left.collect(Collectors.toList()));
    }
  }

  @Test
  void parquetSegmentsMergeByRowGroupCopy() throws IOException {
    replayedSegmentReplacesTheFailedAttemptsAndExtraSegmentsAreIgnored(
        SegmentKind.FORMAT, "parquet");
  }

  @Test
  void spillSegmentsAreEncodedOnceIntoOneParquetRowGroup() throws IOException {
    replayedSegmentReplacesTheFailedAttemptsAndExtraSegmentsAreIgnored(
        SegmentKind.SPILL, "parquet");
  }

  @Test
  void csvSegmentsAreConcatenated() throws IOException {
    replayedSegmentReplacesTheFailedAttemptsAndExtraSegmentsAreIgnored(SegmentKind.FORMAT, "csv");
  }

  @Test
  void avroSegmentsMergeByBlockCopy() throws IOException {
    replayedSegmentReplacesTheFailedAttemptsAndExtraSegmentsAreIgnored(SegmentKind.FORMAT, "avro");
  }

  /**
   * Segments 0..3 combined into one file while the part file is open, the way the writer does it,
   * then merged at roll with segments 4 and 5: the part file holds every row in order, exactly as
   * when the six segments are merged directly.
   */
  private void combinedSegmentsMergeLikeTheSegmentsTheyReplace(SegmentKind kind, String formatName)
      throws IOException {
    FileFormat format = format(formatName);
    List<Row> all = new ArrayList<>();
    for (int n = 0; n < 6; n++) {
      List<Row> rows = rows(n * 10L, n * 10L + 3 + n);
      writeSegment(kind, format, n, rows);
      all.addAll(rows);
    }
    var merger =
        kind == SegmentKind.SPILL
            ? new SpillMerger(format, SCHEMA)
            : FileMergers.of(format, SCHEMA);
    var combining =
        kind == SegmentKind.SPILL ? dev.filetables.io.format.ConcatenatingMerger.INSTANCE : merger;
    List<String> singles = new ArrayList<>();
    for (int n = 0; n < 6; n++) {
      singles.add(SegmentFiles.segmentName(PART, n));
    }
    String direct = PartFileName.hidden("uuid-1", "0", 1_700_000_000_001L, ".parquet");
    SegmentFiles.merge(merger, dir, singles, direct);

    String combined = SegmentFiles.segmentName(PART, 0, 3);
    long size = SegmentFiles.merge(combining, dir, singles.subList(0, 4), combined);
    if (kind == SegmentKind.SPILL || !formatName.equals("avro") && !formatName.equals("parquet")) {
      long sum = 0;
      for (String single : singles.subList(0, 4)) {
        sum += Files.size(dir.resolve(single));
      }
      assertEquals(sum, size, "joined as they are: the bytes of the four segments");
    }
    if (kind == SegmentKind.FORMAT) {
      // a combined file is a file of the format, like a segment
      assertEquals(all.subList(0, 3 + 4 + 5 + 6), readAll(format, dir.resolve(combined)));
    }
    SegmentFiles.merge(merger, dir, List.of(combined, singles.get(4), singles.get(5)), PART);
    assertEquals(all, readAll(format, dir.resolve(PART)));
    assertEquals(all, readAll(format, dir.resolve(direct)));
    if (formatName.equals("parquet")) {
      assertEquals(
          kind == SegmentKind.SPILL ? 1 : 6, rowGroups(dir.resolve(PART)), "row groups kept");
    }
    // publishing deletes the combined file with the segments
    assertEquals(7, SegmentFiles.deleteSegments(dir, PART));
  }

  @Test
  void combinedJsonSegmentsAreConcatenated() throws IOException {
    combinedSegmentsMergeLikeTheSegmentsTheyReplace(SegmentKind.FORMAT, "json");
  }

  @Test
  void combinedCsvSegmentsAreConcatenated() throws IOException {
    combinedSegmentsMergeLikeTheSegmentsTheyReplace(SegmentKind.FORMAT, "csv");
  }

  @Test
  void combinedAvroSegmentsAreBlockCopied() throws IOException {
    combinedSegmentsMergeLikeTheSegmentsTheyReplace(SegmentKind.FORMAT, "avro");
  }

  @Test
  void combinedParquetSegmentsKeepTheirRowGroups() throws IOException {
    combinedSegmentsMergeLikeTheSegmentsTheyReplace(SegmentKind.FORMAT, "parquet");
  }

  @Test
  void combinedSpillSegmentsAreConcatenatedAndEncodedOnceAtRoll() throws IOException {
    combinedSegmentsMergeLikeTheSegmentsTheyReplace(SegmentKind.SPILL, "parquet");
  }

  @Test
  void abortDeletesThePartialSegment() throws IOException {
    SegmentWriter writer =
        SegmentWriter.open(
            SegmentKind.SPILL, format("csv"), SCHEMA, dir, SegmentFiles.segmentName(PART, 0));
    writer.write(rows(0, 1).get(0));
    writer.abort();
    assertFalse(Files.exists(dir.resolve(SegmentFiles.segmentName(PART, 0))));
  }
}
