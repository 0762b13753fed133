package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.ReplacedFiles;
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
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.util.SerializableUtils;

/**
 * One poll of a watcher shard: lists the table (partition directories at every depth, hidden,
 * in-progress and regex-excluded files left out, committed partitions optionally skipped), keeps
 * the shard's files that are new to its restriction, and cuts them into ranges. A merged file of an
 * offline compaction counts as the files it holds ({@link MergedFiles}). Does not change the
 * restriction: the outcome is claimed.
 */
final class DirectoryPoller {
  private final WatchSettings settings;
  private final FileFormat format;
  private final FileTimes fileTimes;
  private final Optional<Pattern> pathRegex;
  private final SharedListings listings;
  private final SharedListings.Key listingKey;
  private final Counter listingsTaken = Metrics.counter(WatchAndReadFn.class, "listings");

  /** A poller that lists the table itself at every poll, as of the poll's time (tests, tools). */
  DirectoryPoller(WatchSettings settings) {
    this(settings, null);
  }

  /** A poller that takes its listings from {@code listings} (null: lists itself). */
  DirectoryPoller(WatchSettings settings, SharedListings listings) {
    this.settings = settings;
    this.listings = listings;
    TableOptions options = settings.table().options();
    this.format = FileFormats.of(options);
    this.fileTimes = new FileTimes(settings.table().partitionKeys(), options);
    this.pathRegex = options.sourcePathRegexPattern().map(Pattern::compile);
    this.listingKey = listingKey(settings);
  }

  private static SharedListings.Key listingKey(WatchSettings settings) {
    TableOptions options = settings.table().options();
    return new SharedListings.Key(
        options.rootPath().toAbsolutePath().toString(),
        settings.table().partitionKeys(),
        options.partitionDefaultName(),
        Base64.getEncoder()
            .encodeToString(SerializableUtils.serializeToByteArray(settings.filter())),
        options.sourcePathRegexPattern().orElse(null),
        settings.skipCommittedPartitions(),
        settings.successFileName());
  }

  FileTimes fileTimes() {
    return fileTimes;
  }

  /** Files of the table as the listing sees them now (all shards), for {@link #select}. */
  ListedTable list(long windowStartMillis) throws IOException {
    TableOptions options = settings.table().options();
    return ListedTable.of(
        TableListing.scan(
            options.rootPath(),
            settings.table().partitionKeys(),
            options.partitionDefaultName(),
            settings.filter(),
            pathRegex,
            leaf -> !committedBefore(leaf, windowStartMillis)));
  }

  /**
   * Polls for {@code restriction}'s shard at processing time {@code nowMillis}, on the process's
   * shared listing of the table ({@link SharedListings}): the outcome is as of the listing's start.
   */
  PollOutcome poll(WatchRestriction restriction, long nowMillis) throws IOException {
    long windowStart = minus(restriction.cursorMillis, settings.latenessMillis());
    // without skipped partitions the window does not change the listing
    long listedWindow = settings.skipCommittedPartitions() ? windowStart : WatchRestriction.UNSET;
    if (listings == null) {
      return select(restriction, list(listedWindow), nowMillis);
    }
    SharedListings.Listing listing =
        listings.get(
            listingKey,
            oldestUsableListing(restriction, nowMillis),
            listedWindow,
            2 * settings.intervalMillis(),
            window -> {
              listingsTaken.inc();
              return list(window);
            });
    return select(restriction, listing.table(), listing.startedAtMillis());
  }

  /**
   * The earliest start of a listing the shard may use now: one started within the last interval and
   * after the listing of its previous poll (whose start is its next poll time minus the interval).
   * The shards of a process that use one listing get the same next poll time, so they stay in step.
   */
  long oldestUsableListing(WatchRestriction restriction, long nowMillis) {
    long interval = settings.intervalMillis();
    long fresh = nowMillis - interval;
    return restriction.nextPollAtMillis == WatchRestriction.UNSET
        ? fresh
        : Math.max(fresh, restriction.nextPollAtMillis - interval + 1);
  }

  /**
   * The selection part of {@link #poll}, on a listing started at {@code nowMillis}: the cursor
   * becomes that start, never the time the listing was handed over.
   */
  PollOutcome select(WatchRestriction restriction, ListedTable listing, long nowMillis)
      throws IOException {
    long lateness = settings.latenessMillis();
    long windowStart = minus(restriction.cursorMillis, lateness);
    List<PollOutcome.NewFile> candidates = new ArrayList<>();
    long maxFileTime = WatchRestriction.UNSET;
    for (DataFile file : listing.files()) {
      if (fileTimes.usesPartitionTime()) {
        maxFileTime = Math.max(maxFileTime, fileTimes.of(file));
      }
      if (isInProgress(file.path())) {
        continue;
      }
      List<ReplacedFiles.Origin> origins = listing.origins().get(file.path());
      if (origins != null) {
        candidates.addAll(
            MergedFiles.newOrigins(file, origins, restriction, windowStart, pathRegex, fileTimes));
        continue;
      }
      long hash = SeenFiles.hash(file.path());
      if (Math.floorMod(hash, restriction.shards) != restriction.shard) {
        continue;
      }
      if (file.modificationTimeMillis() < windowStart || restriction.seen.contains(hash)) {
        continue;
      }
      candidates.add(PollOutcome.NewFile.whole(file, hash, fileTimes.of(file)));
    }
    candidates.sort(
        Comparator.comparingLong((PollOutcome.NewFile f) -> f.modificationTimeMillis)
            .thenComparing(f -> f.file.path())
            .thenComparingLong(f -> f.rows == null ? 0 : f.rows.start()));
    int room = Math.max(0, settings.maxPendingFiles() - pendingFiles(restriction));
    List<PollOutcome.NewFile> admitted = candidates.subList(0, Math.min(room, candidates.size()));
    // Files not admitted now must stay inside the window: the cursor stops at the first of them.
    long cursor = nowMillis;
    if (admitted.size() < candidates.size()) {
      cursor = Math.min(cursor, candidates.get(admitted.size()).modificationTimeMillis);
    }
    cursor = Math.max(cursor, restriction.cursorMillis);
    List<PendingRange> ranges = new ArrayList<>();
    for (PollOutcome.NewFile file : admitted) {
      // an origin is one range of its merged file (nothing to read if it had no rows)
      List<ByteRange> fileRanges =
          file.rows == null
              ? split(file.file)
              : file.rows.length() > 0 ? List.of(file.rows) : List.of();
      for (ByteRange range : fileRanges) {
        ranges.add(new PendingRange(file.file, range, file.fileTimeMillis, 0));
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
    try (SeekableByteChannel channel = ListedFiles.open(TablePaths.of(file.path()))) {
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
