package dev.filetables.io.format.internal;

import dev.filetables.io.format.ByteRange;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Fixed-size splits for formats whose reader finds its own units inside a range (Parquet row groups
 * by midpoint, Avro blocks by sync marker), so split needs no look into the file.
 */
@Internal
public final class FixedRanges {
  private FixedRanges() {}

  /**
   * {@code [0, t), [t, 2t), ...}; the last range takes the remainder; one range for small files.
   */
  public static List<ByteRange> of(long fileSize, long targetRangeSize) {
    if (targetRangeSize <= 0 || fileSize <= targetRangeSize) {
      return List.of(ByteRange.of(0, fileSize));
    }
    List<ByteRange> ranges = new ArrayList<>();
    for (long start = 0; start < fileSize; start += targetRangeSize) {
      ranges.add(ByteRange.of(start, Math.min(fileSize, start + targetRangeSize)));
    }
    return ranges;
  }
}
