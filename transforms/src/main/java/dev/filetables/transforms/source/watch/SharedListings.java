package dev.filetables.transforms.source.watch;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest listing of each watched table in this worker process, shared by the watcher shards
 * that run here, so a process lists a table once per monitor interval rather than once per shard
 * (on S3 every listing is requests, paid per shard otherwise).
 *
 * <p>An asker says how old a listing it can use ({@code notBeforeMillis}: the listing's start); the
 * first asker that finds none lists, and askers that come while it lists wait for that listing
 * instead of listing again. A listing carries its start time: a shard's cursor is the start of the
 * listing it used, not the time it was handed over, so a file that landed after the start is in the
 * shard's next window however late the shard took the listing. Each shard still selects its own
 * files and keeps its own cursor and seen files; only the listing is shared.
 *
 * <p>Bounded: one listing per key, and a key nobody asked for during {@code keepMillis} is dropped
 * at the next ask for any key.
 */
final class SharedListings {
  /** The listings of this process. */
  static final SharedListings PROCESS = new SharedListings();

  /**
   * Everything that makes two listings of a table differ. {@code filter} is the serialized
   * partition filter (filters have no equality of their own).
   */
  record Key(
      String root,
      List<String> partitionKeys,
      String defaultPartitionName,
      String filter,
      String pathRegex,
      boolean skipCommittedPartitions,
      String successFileName) {}

  /**
   * A listing and the start of it. {@code windowStartMillis}: committed partitions older than this
   * were skipped ({@link WatchRestriction#UNSET}: none), so it serves askers whose window starts no
   * earlier.
   */
  record Listing(long startedAtMillis, long windowStartMillis, ListedTable table) {}

  /** Lists the table; committed partitions older than the window start may be skipped. */
  interface Lister {
    ListedTable list(long windowStartMillis) throws IOException;
  }

  private final Map<Key, Slot> slots = new ConcurrentHashMap<>();

  /**
   * The latest listing for {@code key} that started at {@code notBeforeMillis} or later and skipped
   * no partition committed at or after {@code windowStartMillis}; lists with {@code lister} when
   * there is none.
   */
  Listing get(Key key, long notBeforeMillis, long windowStartMillis, long keepMillis, Lister lister)
      throws IOException {
    long now = System.currentTimeMillis();
    dropIdle(now);
    while (true) {
      Slot slot = slots.computeIfAbsent(key, k -> new Slot());
      Listing listing = slot.get(notBeforeMillis, windowStartMillis, keepMillis, now, lister);
      if (listing != null) {
        return listing;
      }
      // the slot was dropped between the lookup and the ask: take the new one
    }
  }

  int size() {
    return slots.size();
  }

  private void dropIdle(long now) {
    slots.forEach(
        (key, slot) -> {
          if (slot.dropIfIdle(now)) {
            slots.remove(key, slot);
          }
        });
  }

  /** The listing of one key and who is listing it. */
  private static final class Slot {
    private Listing latest;
    private boolean listing;
    private boolean dropped;
    private long lastAskedAtMillis;
    private long keepMillis;

    /** The listing, or null when this slot was dropped. */
    Listing get(long notBeforeMillis, long windowStartMillis, long keep, long now, Lister lister)
        throws IOException {
      synchronized (this) {
        while (true) {
          if (dropped) {
            return null;
          }
          lastAskedAtMillis = Math.max(lastAskedAtMillis, now);
          keepMillis = Math.max(keepMillis, keep);
          if (latest != null
              && latest.startedAtMillis() >= notBeforeMillis
              && latest.windowStartMillis() <= windowStartMillis) {
            return latest;
          }
          if (!listing) {
            listing = true;
            break;
          }
          try {
            wait(); // another shard is listing: its listing may do
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for a table listing");
          }
        }
      }
      try {
        long started = System.currentTimeMillis();
        Listing fresh = new Listing(started, windowStartMillis, lister.list(windowStartMillis));
        synchronized (this) {
          if (latest == null || fresh.startedAtMillis() >= latest.startedAtMillis()) {
            latest = fresh;
          }
        }
        return fresh;
      } finally {
        synchronized (this) {
          listing = false;
          notifyAll();
        }
      }
    }

    synchronized boolean dropIfIdle(long now) {
      if (!dropped && !listing && now - lastAskedAtMillis > keepMillis) {
        dropped = true;
        latest = null;
      }
      return dropped;
    }
  }
}
