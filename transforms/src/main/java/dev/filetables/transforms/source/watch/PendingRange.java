package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;

/**
 * A byte range of a discovered file that is not read to its end yet, with the number of its rows
 * already emitted: a checkpoint inside the range resumes after those rows.
 */
final class PendingRange {
  final DataFile file;
  final ByteRange range;

  /** The file's time: its partition time when a time extractor is configured, else its mtime. */
  final long fileTimeMillis;

  /**
   * Records of the range already taken: rows emitted and bad records reported (skipped or
   * dead-lettered); a resume steps over this many. Without bad records, the rows emitted.
   */
  long rowsDone;

  PendingRange(DataFile file, ByteRange range, long fileTimeMillis, long rowsDone) {
    this.file = file;
    this.range = range;
    this.fileTimeMillis = fileTimeMillis;
    this.rowsDone = rowsDone;
  }

  PendingRange copy() {
    return new PendingRange(file, range, fileTimeMillis, rowsDone);
  }

  @Override
  public String toString() {
    return file.path() + " " + range + " after " + rowsDone + " row(s)";
  }
}
