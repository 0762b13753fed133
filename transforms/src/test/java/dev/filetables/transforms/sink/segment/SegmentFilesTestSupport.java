package dev.filetables.transforms.sink.segment;

import dev.filetables.transforms.sink.WrittenFile;
import java.util.List;

/** Small helpers for streaming sink tests. */
public final class SegmentFilesTestSupport {
  private SegmentFilesTestSupport() {}

  public static long rows(List<WrittenFile> files) {
    return files.stream().mapToLong(WrittenFile::rowCount).sum();
  }
}
