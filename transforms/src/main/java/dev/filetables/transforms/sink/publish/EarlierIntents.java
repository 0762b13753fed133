package dev.filetables.transforms.sink.publish;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Deletes the end-of-input intents of earlier, failed attempts of the write, once per partition
 * directory and publish step instance. The replay publishes those rows (or prepares them again
 * under a newer intent), so such an intent names files that are no longer the truth.
 */
final class EarlierIntents {
  /** An endless stream of partitions: only the most recent are remembered (one listing more). */
  private static final int REMEMBERED = 10_000;

  private final String writeUuid;

  /** Partition directories whose intents of earlier attempts this instance has deleted. */
  private final Set<Path> swept =
      Collections.newSetFromMap(
          new LinkedHashMap<Path, Boolean>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Path, Boolean> eldest) {
              return size() > REMEMBERED;
            }
          });

  EarlierIntents(String writeUuid) {
    this.writeUuid = writeUuid;
  }

  /** Before this instance publishes into {@code dir} for the first time: deletes the intents. */
  void sweep(Path dir) throws IOException {
    if (!swept.add(dir)) {
      return;
    }
    EndOfInputIntents.deleteOthers(dir, writeUuid, null);
  }

  /**
   * After this instance wrote {@code intent} into {@code dir}: deletes every other intent of the
   * write there (its own before, and earlier attempts').
   */
  void keepOnly(Path dir, Path intent) throws IOException {
    EndOfInputIntents.deleteOthers(dir, writeUuid, intent);
    swept.add(dir);
  }
}
