package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.files.PartFileName;
import dev.filetables.transforms.runner.ProcessPauses;

/**
 * One attempt of a {@link RollingWriterFn} instance: the tag in the names of the files it writes
 * ({@link PartFileName#withAttempt}), and the check that it is not stale ({@link ProcessPauses})
 * before it writes or deletes a file. See {@link BundleSegments} on stale attempts.
 */
final class WriterAttempt {
  final String tag;
  private final ProcessPauses.Attempt pauses;

  private WriterAttempt(String tag, ProcessPauses.Attempt pauses) {
    this.tag = tag;
    this.pauses = pauses;
  }

  /** A new attempt: a writer instance's {@code @Setup}, at every (re)start of its task. */
  static WriterAttempt begin() {
    return new WriterAttempt(PartFileName.newAttemptTag(), ProcessPauses.begin());
  }

  /** Throws when this attempt is stale: its process was frozen long enough to lose its task. */
  void checkCurrent(String doing) {
    pauses.checkCurrent(doing);
  }

  @Override
  public String toString() {
    return tag;
  }
}
