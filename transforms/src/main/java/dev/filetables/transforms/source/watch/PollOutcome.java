package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;
import java.util.List;

/** What one listing of the table found for a shard, ready to be claimed into its restriction. */
final class PollOutcome {
  /**
   * The rows of one file taken in by the poll: the whole file, or the range of a merged file that
   * holds the rows of a file merged into it (an origin, {@link MergedFiles}).
   */
  static final class NewFile {
    /** The file to read. */
    final DataFile file;

    /** The path hash of the file whose rows these are: {@code file}, or the origin. */
    final long hash;

    /** The modification time of that file: what the seen set keeps for it. */
    final long modificationTimeMillis;

    /** The time the rows take for the watermark and as timestamps ({@link FileTimes}). */
    final long fileTimeMillis;

    /** The range of {@code file} that holds them, or null for the whole file. */
    final ByteRange rows;

    private NewFile(
        DataFile file,
        long hash,
        long modificationTimeMillis,
        long fileTimeMillis,
        ByteRange rows) {
      this.file = file;
      this.hash = hash;
      this.modificationTimeMillis = modificationTimeMillis;
      this.fileTimeMillis = fileTimeMillis;
      this.rows = rows;
    }

    static NewFile whole(DataFile file, long hash, long fileTimeMillis) {
      return new NewFile(file, hash, file.modificationTimeMillis(), fileTimeMillis, null);
    }

    static NewFile origin(
        DataFile merged,
        long hash,
        long modificationTimeMillis,
        long fileTimeMillis,
        ByteRange rows) {
      return new NewFile(merged, hash, modificationTimeMillis, fileTimeMillis, rows);
    }
  }

  private final List<NewFile> newFiles;
  private final List<PendingRange> ranges;
  private final long cursorMillis;
  private final long windowStartMillis;
  private final long horizonMillis;
  private final long polledAtMillis;
  private final long nextPollAtMillis;

  /** New files of this shard left for a later poll (too many pending already). */
  private final int deferredFiles;

  PollOutcome(
      List<NewFile> newFiles,
      List<PendingRange> ranges,
      long cursorMillis,
      long windowStartMillis,
      long horizonMillis,
      long polledAtMillis,
      long nextPollAtMillis,
      int deferredFiles) {
    this.newFiles = newFiles;
    this.ranges = ranges;
    this.cursorMillis = cursorMillis;
    this.windowStartMillis = windowStartMillis;
    this.horizonMillis = horizonMillis;
    this.polledAtMillis = polledAtMillis;
    this.nextPollAtMillis = nextPollAtMillis;
    this.deferredFiles = deferredFiles;
  }

  List<NewFile> newFiles() {
    return newFiles;
  }

  List<PendingRange> ranges() {
    return ranges;
  }

  long cursorMillis() {
    return cursorMillis;
  }

  long windowStartMillis() {
    return windowStartMillis;
  }

  long horizonMillis() {
    return horizonMillis;
  }

  long polledAtMillis() {
    return polledAtMillis;
  }

  long nextPollAtMillis() {
    return nextPollAtMillis;
  }

  int deferredFiles() {
    return deferredFiles;
  }
}
