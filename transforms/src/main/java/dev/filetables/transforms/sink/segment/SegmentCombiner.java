package dev.filetables.transforms.sink.segment;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Decides when the segment files of an open part file are combined, so that a file open for a long
 * time (one segment per bundle) keeps at most {@link #maxFiles} hidden segment files, the one being
 * written included.
 *
 * <p>Levels, like a counter in base {@link #fanIn}: a segment file holding {@code w} segments is on
 * level {@code floor(log_fanIn(w))}, capped at the top level. Before a new segment begins, when the
 * last {@code fanIn} files are on the same level they are combined into one file of the next level
 * (repeated while that holds, done as one combine of the whole tail). So levels fall from the first
 * file to the last, with fewer than {@code fanIn} files per level: at most {@code (fanIn - 1) *
 * levels <= maxFiles - 1} complete files. A segment's rows are copied once per level they climb, at
 * most {@code levels - 1} times until the top level fills ({@code fanIn^levels} segments: 1,024
 * with the default 16 files), then once more each time {@code fanIn} top-level files gather; a file
 * rolls long before that in practice. Counts, not bytes, decide: the plan follows from the open
 * file's state alone, so a replay after a restore combines the same segments under the same names.
 * A state that holds more files than allowed (restored from a sink without combining) has its tail
 * combined into one at once.
 */
@Internal
public final class SegmentCombiner implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * Segment files per open part file by default: with 200 open files that is at most 3,200 hidden
   * files, 15 a directory listing returns per writer at worst, and rows are copied at most about 4
   * times in the first 1,024 bundles of a file (levels of 1, 4, 16, 64 and 256+ segments).
   */
  public static final int DEFAULT_MAX_FILES = 16;

  /** System property that sets {@link #DEFAULT_MAX_FILES} for tests and experiments. */
  static final String MAX_FILES_PROPERTY = "filetables.sink.max-segment-files";

  private static final int FAN_IN = 4;

  private final int maxFiles;
  private final int fanIn;
  private final int topLevel;

  /**
   * @param maxFiles segment files an open part file may have, the one being written included
   */
  public SegmentCombiner(int maxFiles) {
    if (maxFiles < 2) {
      throw new IllegalArgumentException(
          "An open part file needs at least 2 segment files (the written one and one more), got "
              + maxFiles);
    }
    this.maxFiles = maxFiles;
    // at least two levels, else the top level (which combines everything) would fill too often
    this.fanIn = maxFiles - 1 >= 2 * (FAN_IN - 1) ? FAN_IN : 2;
    this.topLevel = Math.max(0, (maxFiles - 1) / (fanIn - 1) - 1);
  }

  /** The default, or the value of the system property {@value #MAX_FILES_PROPERTY}. */
  public static SegmentCombiner fromSystemProperty() {
    String value = System.getProperty(MAX_FILES_PROPERTY);
    if (value == null) {
      return new SegmentCombiner(DEFAULT_MAX_FILES);
    }
    try {
      return new SegmentCombiner(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "System property " + MAX_FILES_PROPERTY + " must be an integer >= 2, got '" + value + "'",
          e);
    }
  }

  int maxFiles() {
    return maxFiles;
  }

  /**
   * Before segment {@code segments} begins: the index of the first of the complete segment files
   * (first segments {@code starts}, the last ending at {@code segments - 1}) to combine with all
   * after it into one file, or -1 when nothing is to be combined.
   */
  public int combineFrom(List<Integer> starts, int segments) {
    List<Integer> files = new ArrayList<>(starts);
    int from = -1;
    while (true) {
      int count = files.size();
      int next = -1;
      if (count >= fanIn && sameLevel(files, segments, count - fanIn)) {
        next = count - fanIn;
      } else if (count > maxFiles - 1) {
        next = maxFiles - 2; // only for state of a sink without combining
      }
      if (next < 0) {
        return from;
      }
      files.subList(next + 1, count).clear();
      from = next;
    }
  }

  private boolean sameLevel(List<Integer> files, int segments, int from) {
    int level = level(files, segments, from);
    for (int i = from + 1; i < files.size(); i++) {
      if (level(files, segments, i) != level) {
        return false;
      }
    }
    return true;
  }

  private int level(List<Integer> files, int segments, int i) {
    long width = (i + 1 < files.size() ? files.get(i + 1) : segments) - files.get(i);
    int level = 0;
    while (width >= fanIn && level < topLevel) {
      width /= fanIn;
      level++;
    }
    return level;
  }
}
