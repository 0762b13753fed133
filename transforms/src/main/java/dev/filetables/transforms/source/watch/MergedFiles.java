package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.format.ByteRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a watcher shard takes in a merged file of an offline compaction whose sidecar records its
 * origins ({@link ReplacedFiles.Origin}): not as a new file, but as the rows of the files it holds.
 * Each origin is handled as that file would be — by the shard its path hashes to, taken in once
 * while it is inside the lateness window, remembered in the seen set under its own path and
 * modification time — only its rows are read from the range of the merged file that holds them.
 *
 * <p>So a row is read once whatever the shard had read when the compaction committed: a file the
 * shard took in before (read, or pending and read on under its grace name) is seen and not taken
 * again; a file it never took in is read from the merged file, which holds it for as long as the
 * merged file exists (no grace period involved); a file older than the window was taken in while it
 * was inside it, or, landed that late, is not read, as it would not have been uncompacted. A
 * listing shows a compacted partition's old files or its merged file, never both ({@code
 * TableListing}), and the sidecar never changes once the merged file is visible, so every shard
 * reaches the same verdict for an origin after a restore as before.
 */
final class MergedFiles {
  private MergedFiles() {}

  /**
   * The origins of {@code merged} that are new to the shard of {@code restriction}, as of a window
   * starting at {@code windowStartMillis}.
   */
  static List<PollOutcome.NewFile> newOrigins(
      DataFile merged,
      List<ReplacedFiles.Origin> origins,
      WatchRestriction restriction,
      long windowStartMillis,
      Optional<Pattern> pathRegex,
      FileTimes fileTimes) {
    if (merged.modificationTimeMillis() < windowStartMillis) {
      return List.of(); // merged before the window began: its origins are older still
    }
    String directory = merged.path().substring(0, merged.path().lastIndexOf('/') + 1);
    List<PollOutcome.NewFile> taken = new ArrayList<>();
    for (ReplacedFiles.Origin origin : origins) {
      String path = directory + origin.name();
      long hash = SeenFiles.hash(path);
      if (Math.floorMod(hash, restriction.shards) != restriction.shard
          || pathRegex.map(regex -> !regex.matcher(path).matches()).orElse(false)
          || origin.modificationTimeMillis() < windowStartMillis
          || restriction.seen.contains(hash)) {
        continue;
      }
      DataFile asListed =
          DataFile.of(
              path,
              merged.partition(),
              origin.end() - origin.start(),
              origin.modificationTimeMillis());
      taken.add(
          PollOutcome.NewFile.origin(
              merged,
              hash,
              origin.modificationTimeMillis(),
              fileTimes.of(asListed),
              ByteRange.of(origin.start(), origin.end())));
    }
    return taken;
  }
}
