package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.TableOptions;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One poll of a watcher shard: lists the table (partition directories at every depth, hidden,
 * in-progress and regex-excluded files left out, committed partitions optionally skipped), keeps
 * the shard's files that are new to its restriction, and cuts them into ranges. Does not change the
 * restriction: the outcome is claimed.
 */
final class DirectoryPoller {
  private final WatchSettings settings;
  private final FileFormat format;
  private final FileTimes fileTimes;
  private final Optional<Pattern> pathRegex;

  DirectoryPoller(WatchSettings settings) {
    this.settings = settings;
    TableOptions options = settings.table().options();
    this.format = FileFormats.of(options);
    this.fileTimes = new FileTimes(settings.table().partitionKeys(), options);
    this.pathRegex = options.sourcePathRegexPattern().map(Pattern::compile);
  }

  FileTimes fileTimes() {
    return fileTimes;
  }

  /** Files of the table as the listing sees them now (all shards), for {@link #select}. */
  List<DataFile> list(long windowStartMillis) throws IOException {
    TableOptions options = settings.table().options();
    return TableListing.scan(
            options.rootPath(),
            settings.table().partitionKeys(),
            options.partitionDefaultName(),
            settings.filter(),
            pathRegex,
            leaf -> !committedBefore(leaf, windowStartMillis))
        .files();
  }

  /** Polls for {@code restriction}'s shard at processing time {@code nowMillis}. */
  PollOutcome poll(WatchRestriction restriction, long nowMillis) throws IOException {
    long lateness = settings.latenessMillis();
    long windowStart = minus(restriction.cursorMillis, lateness);
    return select(restriction, list(windowStart), nowMillis);
  }

  /** The selection part of {@link #poll}, on a given listing. */
  PollOutcome select(WatchRestriction restriction, List<DataFile> listing, long nowMillis)
      throws IOException {
    long lateness = settings.latenessMillis();
    long windowStart = minus(restriction.cursorMillis, lateness);
    List<PollOutcome.NewFile> candidates = new ArrayList<>();
    long maxFileTime = WatchRestriction.UNSET;
    for (DataFile file : listing) {
      if (fileTimes.usesPartitionTime()) {
        maxFileTime = Math.max(maxFileTime, fileTimes.of(file));
      }
      if (isInProgress(file.path())) {
        continue;
      }
      long hash = SeenFiles.hash(file.path());
      if (Math.floorMod(hash, restriction.shards) != restriction.shard) {
        continue;
      }
      if (file.modificationTimeMillis() < windowStart || restriction.seen.contains(hash)) {
        continue;
      }
      candidates.add(new PollOutcome.NewFile(file, hash));
    }
    candidates.sort(
        Comparator.comparingLong((PollOutcome.NewFile f) -> f.file.modificationTimeMillis())
            .thenComparing(f -> f.file.path()));
    int room = Math.max(0, settings.maxPendingFiles() - pendingFiles(restriction));
    List<PollOutcome.NewFile> admitted = candidates.subList(0, Math.min(room, candidates.size()));
    // Files not admitted now must stay inside the window: the cursor stops at the first of them.
    long cursor = nowMillis;
    if (admitted.size() < candidates.size()) {
      cursor = Math.min(cursor, candidates.get(admitted.size()).file.modificationTimeMillis());
    }
    cursor = Math.max(cursor, restriction.cursorMillis);
    List<PendingRange> ranges = new ArrayList<>();
    for (PollOutcome.NewFile file : admitted) {
      long fileTime = fileTimes.of(file.file);
      for (ByteRange range : split(file.file)) {
        ranges.add(new PendingRange(file.file, range, fileTime, 0));
      }
    }
    long newWindowStart = minus(cursor, lateness);
    // File-time watermark: no later file can be older than the new window (modification time), or
    // than the newest partition listed (partition time: partitions are assumed to arrive in order).
    long horizon = fileTimes.usesPartitionTime() ? maxFileTime : newWindowStart;
    return new PollOutcome(
        List.copyOf(admitted),
        ranges,
        cursor,
        newWindowStart,
        horizon,
        nowMillis,
        nowMillis + settings.intervalMillis(),
        candidates.size() - admitted.size());
  }

  private List<ByteRange> split(DataFile file) throws IOException {
    if (file.size() <= settings.targetSplitSize()) {
      return List.of(ByteRange.of(0, file.size()));
    }
    try (SeekableByteChannel channel = Files.newByteChannel(TablePaths.of(file.path()))) {
      return format.split(channel, file.size(), settings.targetSplitSize());
    } catch (IOException | RuntimeException e) {
      throw new IOException("Cannot split " + file.path() + ": " + e.getMessage(), e);
    }
  }

  /** A leaf directory whose success file is older than the window: complete, not listed. */
  private boolean committedBefore(Path leaf, long windowStartMillis) {
    if (!settings.skipCommittedPartitions() || windowStartMillis == WatchRestriction.UNSET) {
      return false;
    }
    try {
      long committedAt =
          Files.getLastModifiedTime(leaf.resolve(settings.successFileName())).toMillis();
      return committedAt < windowStartMillis;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return false; // list it: reading too much is safe, skipping is not
    }
  }

  /** Flink's and Hadoop's in-progress suffixes, when a regex let such a file through. */
  static boolean isInProgress(String path) {
    return path.endsWith(".inprogress") || path.endsWith("._COPYING_") || path.endsWith(".tmp");
  }

  private static int pendingFiles(WatchRestriction restriction) {
    return (int) restriction.pending.stream().map(p -> p.file.path()).distinct().count();
  }

  static long minus(long millis, long amount) {
    return millis == WatchRestriction.UNSET ? WatchRestriction.UNSET : millis - amount;
  }
}
