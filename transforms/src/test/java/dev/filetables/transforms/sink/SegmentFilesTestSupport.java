package dev.filetables.transforms.sink;

import java.util.List;

/** Small helpers for streaming sink tests. */
final class SegmentFilesTestSupport {
  private SegmentFilesTestSupport() {}

  static long rows(List<WrittenFile> files) {
    return files.stream().mapToLong(WrittenFile::rowCount).sum();
  }
}
