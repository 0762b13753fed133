package dev.filetables.transforms.sink.streaming;

import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.joda.time.Instant;

/**
 * Roll at the commit point, the writer's side: the files {@link RollingWriterFn} marked in the
 * current bundle to close at its end ({@link OpenFile#closesAtBundleEnd}, when {@link
 * RollSchedule#closesAtCommit} says so), by key, which {@code @FinishBundle} finishes and emits.
 *
 * <p>{@code @FinishBundle} cannot touch state or timers, so the mark itself says the file is
 * closed: a marked file in state whose key is not here belongs to a bundle that has ended ({@link
 * #closedEarlier}), and committed state with the mark was snapshotted after that bundle emitted the
 * file. The key's next element or timer then clears the state and releases the watermark hold. A
 * failure before the snapshot restores older, unmarked state, whose replay rewrites the same
 * segments and names (see {@link StreamingWrite}).
 */
final class ClosesAtBundleEnd {
  /** Where {@link #closeAll} emits a finished file, at the given timestamp. */
  interface Output {
    void output(WrittenFile file, Instant timestamp);
  }

  private final Map<WriterKey, OpenFile> marked = new HashMap<>();

  /** The key's file is marked (and written to state so): it closes at the end of this bundle. */
  void add(WriterKey key, OpenFile file) {
    marked.put(key, file);
  }

  /** The key's file closes before the bundle ends (by size or a timer): not at the end too. */
  void remove(WriterKey key) {
    marked.remove(key);
  }

  /**
   * True when {@code file} (the key's state) was marked to close at the end of a bundle that has
   * ended: {@code @FinishBundle} closed and emitted it before any snapshot could commit the mark.
   */
  boolean closedEarlier(WriterKey key, OpenFile file) {
    return file.closesAtBundleEnd && !marked.containsKey(key);
  }

  /**
   * At the end of the bundle (its segments complete): finishes every marked file and emits it at
   * its smallest row timestamp, the hold of its timers.
   */
  void closeAll(PartFileFinisher finisher, Output out) throws IOException {
    if (marked.isEmpty()) {
      return;
    }
    String last = null;
    for (OpenFile file : marked.values()) {
      WrittenFile closed = finisher.finish(file);
      SinkFailpoints.reached(SinkFailpoints.Point.BUNDLE_END_MERGED, closed.path());
      out.output(closed, new Instant(file.minTimestamp));
      last = closed.path();
    }
    marked.clear();
    SinkFailpoints.reached(SinkFailpoints.Point.BUNDLE_END_EMITTED, last);
  }

  /** Forgets the marks after a failure: the bundle will be retried or the state restored. */
  void clear() {
    marked.clear();
  }
}
