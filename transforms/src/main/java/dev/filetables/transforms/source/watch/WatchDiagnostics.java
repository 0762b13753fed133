package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Measurements of the watcher's bookkeeping for benchmarks: the encoded size of a shard's
 * restriction (what a checkpoint holds) after many files, and the cost of one poll of a directory.
 */
@Internal
public final class WatchDiagnostics {
  private WatchDiagnostics() {}

  /** Result of {@link #simulateArrivals}. */
  public static final class StateSize {
    public final long files;
    public final int seenEntries;
    public final long finalBytes;
    public final long maxBytes;

    StateSize(long files, int seenEntries, long finalBytes, long maxBytes) {
      this.files = files;
      this.seenEntries = seenEntries;
      this.finalBytes = finalBytes;
      this.maxBytes = maxBytes;
    }
  }

  /**
   * Runs one shard's restriction through {@code files} simulated file arrivals at {@code
   * filesPerSecond} (simulated clock, hourly partitions, realistic path lengths), polled every
   * {@code intervalMillis}, every new file read before the next poll. The listing offered to each
   * poll holds the files of the last two lateness windows (what the directory shows when older
   * partitions are committed and skipped). Returns the encoded restriction size at the end and its
   * maximum after any poll.
   */
  public static StateSize simulateArrivals(
      TableSpec table, long files, double filesPerSecond, long intervalMillis) throws IOException {
    WatchSettings settings =
        WatchSettings.of(table, PartitionFilter.all(), 1, Long.MAX_VALUE, 1_000);
    DirectoryPoller poller = new DirectoryPoller(settings);
    WatchRestriction restriction = WatchRestriction.initial(0, 1);
    WatchTracker tracker = new WatchTracker(restriction);
    long start = 1_600_000_000_000L;
    ArrayDeque<DataFile> visible = new ArrayDeque<>();
    long next = 0;
    long maxBytes = 0;
    long keepMillis = 2 * settings.latenessMillis() + intervalMillis;
    for (long now = start; next < files; now += intervalMillis) {
      while (next < files && start + (long) (next * 1000 / filesPerSecond) <= now) {
        long mtime = start + (long) (next * 1000 / filesPerSecond);
        long hour = (mtime - start) / 3_600_000;
        String path =
            "/data/landing/logs/dt=2020-05-"
                + (20 + hour / 24)
                + "/hour="
                + String.format("%02d", hour % 24)
                + "/part-3f2a9c1e-8d4b-4e7a-9b1c-5d6e7f8a9b0c-"
                + (next % 8)
                + "-"
                + next
                + ".json";
        visible.addLast(
            DataFile.of(
                path,
                Map.of("dt", "2020-05-" + (20 + hour / 24), "hour", String.valueOf(hour % 24)),
                4096,
                mtime));
        next++;
      }
      while (!visible.isEmpty()
          && visible.peekFirst().modificationTimeMillis() < now - keepMillis) {
        visible.removeFirst();
      }
      PollOutcome poll = poller.select(restriction, ListedTable.of(new ArrayList<>(visible)), now);
      tracker.tryClaim(WatchClaim.poll(poll));
      maxBytes = Math.max(maxBytes, encodedSize(restriction));
      while (!restriction.pending.isEmpty()) {
        tracker.tryClaim(WatchClaim.rangeDone());
      }
    }
    return new StateSize(files, restriction.seen.size(), encodedSize(restriction), maxBytes);
  }

  /** Bytes of a restriction as the runner stores it. */
  static long encodedSize(WatchRestriction restriction) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WatchRestrictionCoder.of().encode(restriction, bytes);
    return bytes.size();
  }

  /** Result of {@link #timePolls}. */
  public static final class PollCost {
    public final int filesListed;
    public final double millisPerPoll;
    public final long restrictionBytes;

    PollCost(int filesListed, double millisPerPoll, long restrictionBytes) {
      this.filesListed = filesListed;
      this.millisPerPoll = millisPerPoll;
      this.restrictionBytes = restrictionBytes;
    }
  }

  /**
   * Polls {@code table}'s directory as one shard of {@code shards} would: a first poll that takes
   * every file in, then {@code polls} polls that find nothing new; returns the files listed per
   * poll and the mean time of those later polls.
   */
  public static PollCost timePolls(TableSpec table, int shards, int polls) throws IOException {
    WatchSettings settings =
        WatchSettings.of(table, PartitionFilter.all(), shards, Long.MAX_VALUE, Integer.MAX_VALUE);
    DirectoryPoller poller = new DirectoryPoller(settings);
    WatchRestriction restriction = WatchRestriction.initial(0, shards);
    WatchTracker tracker = new WatchTracker(restriction);
    long now = System.currentTimeMillis();
    tracker.tryClaim(WatchClaim.poll(poller.poll(restriction, now)));
    restriction.pending.clear();
    int listed =
        poller
            .list(DirectoryPoller.minus(restriction.cursorMillis, settings.latenessMillis()))
            .files()
            .size();
    long started = System.nanoTime();
    for (int i = 0; i < polls; i++) {
      PollOutcome poll = poller.poll(restriction, now + i + 1);
      tracker.tryClaim(WatchClaim.poll(poll));
    }
    double millis = (System.nanoTime() - started) / 1e6 / polls;
    return new PollCost(listed, millis, encodedSize(restriction));
  }

  /** Files listed by {@link #timePolls}' listing, for reports. */
  public static List<String> describe(PollCost cost) {
    return List.of(
        cost.filesListed + " files listed", String.format("%.1f ms per poll", cost.millisPerPoll));
  }
}
