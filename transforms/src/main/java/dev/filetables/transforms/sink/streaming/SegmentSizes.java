package dev.filetables.transforms.sink.streaming;

import dev.filetables.transforms.sink.segment.SegmentFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The sizes of the segments this writer instance completed, so that the next segment's begin and a
 * roll need not ask the store (a HEAD per segment on S3). After a restore, or for a segment this
 * instance did not write, the store answers: a remembered size is only a shortcut.
 */
final class SegmentSizes {
  /** Sizes nobody asked for are dropped beyond this (asking the store instead is always right). */
  private static final int MAX_REMEMBERED = 10_000;

  private final Map<Path, Long> sizes = new HashMap<>();

  /** Segment {@code file} is complete with {@code bytes}. */
  void completed(Path file, long bytes) {
    if (sizes.size() >= MAX_REMEMBERED) {
      sizes.clear();
    }
    sizes.put(file, bytes);
  }

  /** Segments were deleted after a failure: forget every size. */
  void forgetAll() {
    sizes.clear();
  }

  /** The segment file {@code name} in {@code dir} will not be asked for. */
  void forget(Path dir, String name) {
    sizes.remove(dir.resolve(name));
  }

  /** The size of the segment file {@code name} in {@code dir}; asked once. */
  long take(Path dir, String name) throws IOException {
    Long known = sizes.remove(dir.resolve(name));
    return known != null ? known : SegmentFiles.segmentSize(dir, name);
  }
}
