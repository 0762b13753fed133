package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.transforms.sink.segment.SegmentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentSizesTest {
  private static final String PART = ".part-u-0-0.parquet.inprogress";

  @TempDir Path dir;

  @Test
  void aCompletedSegmentsSizeIsRememberedOnceThenAskedOfTheFiles() throws IOException {
    Path segment = dir.resolve(SegmentFiles.segmentName(PART, 0));
    Files.write(segment, new byte[7]);
    SegmentSizes sizes = new SegmentSizes();
    sizes.completed(segment, 5); // what the writer counted, though the file says 7
    assertEquals(
        5,
        sizes.take(dir, SegmentFiles.segmentName(PART, 0)),
        "the writer's count, no request to the store");
    assertEquals(
        7,
        sizes.take(dir, SegmentFiles.segmentName(PART, 0)),
        "taken once; then the store answers");
  }

  @Test
  void afterAFailureOrARestoreTheStoreAnswers() throws IOException {
    Path segment = dir.resolve(SegmentFiles.segmentName(PART, 1));
    Files.write(segment, new byte[3]);
    SegmentSizes sizes = new SegmentSizes();
    sizes.completed(segment, 99);
    sizes.forgetAll();
    assertEquals(3, sizes.take(dir, SegmentFiles.segmentName(PART, 1)));
    IOException missing =
        assertThrows(IOException.class, () -> sizes.take(dir, SegmentFiles.segmentName(PART, 2)));
    assertTrue(missing.getMessage().contains("is missing"), missing.getMessage());
  }
}
