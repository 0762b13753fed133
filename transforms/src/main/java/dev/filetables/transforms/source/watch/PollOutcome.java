package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import java.util.List;

/** What one listing of the table found for a shard, ready to be claimed into its restriction. */
final class PollOutcome {
  /** A file taken in by the poll. */
  static final class NewFile {
    final DataFile file;
    final long hash;

    NewFile(DataFile file, long hash) {
      this.file = file;
      this.hash = hash;
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
