package dev.filetables.transforms.source.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The listing the watcher shards of one process share: one lister, start times, bounds. */
class SharedListingsTest {
  private static final long UNSET = WatchRestriction.UNSET;
  private static final long KEEP = 60_000;

  @TempDir Path dir;

  private static SharedListings.Key key(String root) {
    return new SharedListings.Key(root, List.of(), "__DEFAULT__", "f", null, false, "_SUCCESS");
  }

  /** A lister that counts its calls and takes {@code millis} to list. */
  private static SharedListings.Lister slowLister(AtomicInteger calls, long millis) {
    return window -> {
      calls.incrementAndGet();
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      return ListedTable.EMPTY;
    };
  }

  @Test
  void concurrentAskersWaitForOneListingAndGetItsStartTime() throws Exception {
    SharedListings listings = new SharedListings();
    AtomicInteger calls = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch go = new CountDownLatch(1);
      long before = System.currentTimeMillis();
      List<Future<SharedListings.Listing>> asks = new ArrayList<>();
      for (int shard = 0; shard < 4; shard++) {
        asks.add(
            pool.submit(
                () -> {
                  go.await();
                  return listings.get(key("t"), before - 1000, UNSET, KEEP, slowLister(calls, 300));
                }));
      }
      go.countDown();
      SharedListings.Listing first = asks.get(0).get();
      for (Future<SharedListings.Listing> ask : asks) {
        assertSame(first, ask.get(), "every asker gets the one listing");
      }
      long after = System.currentTimeMillis();
      assertEquals(1, calls.get(), "one listing for four concurrent askers");
      assertTrue(
          first.startedAtMillis() >= before && first.startedAtMillis() <= after - 300,
          "the start of the listing, not when it was handed over: " + first.startedAtMillis());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anAskerAfterTheListingItCanUseListsAgain() throws Exception {
    SharedListings listings = new SharedListings();
    AtomicInteger calls = new AtomicInteger();
    long now = System.currentTimeMillis();
    SharedListings.Listing first =
        listings.get(key("t"), now - 1000, UNSET, KEEP, slowLister(calls, 0));
    SharedListings.Listing same =
        listings.get(key("t"), now - 1000, UNSET, KEEP, slowLister(calls, 0));
    assertSame(first, same, "within the interval: the same listing");
    assertEquals(1, calls.get());

    Thread.sleep(5);
    // a shard that used `first` needs a listing started after it (its next interval)
    SharedListings.Listing next =
        listings.get(key("t"), first.startedAtMillis() + 1, UNSET, KEEP, slowLister(calls, 0));
    assertNotSame(first, next);
    assertEquals(2, calls.get(), "a new interval: a new listing");
    assertTrue(next.startedAtMillis() > first.startedAtMillis());

    listings.get(key("other"), now - 1000, UNSET, KEEP, slowLister(calls, 0));
    assertEquals(3, calls.get(), "another table (or filter, or options) is listed on its own");
  }

  @Test
  void aListingThatSkippedCommittedPartitionsServesOnlyLaterWindows() throws Exception {
    SharedListings listings = new SharedListings();
    AtomicInteger calls = new AtomicInteger();
    long now = System.currentTimeMillis();
    SharedListings.Listing windowed =
        listings.get(key("t"), now - 1000, now - 500, KEEP, slowLister(calls, 0));
    assertSame(windowed, listings.get(key("t"), now - 1000, now - 100, KEEP, slowLister(calls, 0)));
    assertEquals(1, calls.get());
    SharedListings.Listing wider =
        listings.get(key("t"), now - 1000, now - 900, KEEP, slowLister(calls, 0));
    assertEquals(2, calls.get(), "an earlier window needs the partitions the listing skipped");
    assertEquals(now - 900, wider.windowStartMillis());
  }

  @Test
  void aFailedListingLeavesTheNextAskerToList() throws Exception {
    SharedListings listings = new SharedListings();
    long now = System.currentTimeMillis();
    assertThrows(
        IOException.class,
        () ->
            listings.get(
                key("t"),
                now - 1000,
                UNSET,
                KEEP,
                window -> {
                  throw new IOException("store down");
                }));
    AtomicInteger calls = new AtomicInteger();
    listings.get(key("t"), now - 1000, UNSET, KEEP, slowLister(calls, 0));
    assertEquals(1, calls.get());
  }

  @Test
  void keysNobodyAskedForAreDropped() throws Exception {
    SharedListings listings = new SharedListings();
    AtomicInteger calls = new AtomicInteger();
    long now = System.currentTimeMillis();
    listings.get(key("old"), now - 1000, UNSET, 20, slowLister(calls, 0));
    Thread.sleep(50);
    listings.get(key("new"), now - 1000, UNSET, 20, slowLister(calls, 0));
    assertEquals(1, listings.size(), "the idle key's listing is gone");
  }

  /**
   * Shards that share a listing record its start as their cursor: a file landing after the start
   * (whatever its modification time within the lateness) is taken at the next poll, by its shard.
   */
  @Test
  void shardsOnASharedListingMissNothingThatLandsAfterIt() throws Exception {
    TableSpec table =
        DdlParser.parse(
            "CREATE TABLE logs (id BIGINT, msg STRING, dt STRING) PARTITIONED BY (dt)"
                + " WITH ('connector' = 'filesystem', 'path' = '"
                + dir.resolve("t")
                + "', 'format' = 'json', 'source.monitor-interval' = '1 s')");
    SharedListings listings = new SharedListings();
    WatchSettings settings = WatchSettings.of(table, PartitionFilter.all(), 2, 1 << 20, 100);
    List<WatchTracker> shards = new ArrayList<>();
    List<DirectoryPoller> pollers = new ArrayList<>();
    for (int shard = 0; shard < 2; shard++) {
      shards.add(new WatchTracker(WatchRestriction.initial(shard, 2)));
      pollers.add(new DirectoryPoller(settings, listings));
    }
    land("dt=a/f0.json");
    List<String> taken = new ArrayList<>();
    long firstStart = pollAll(shards, pollers, System.currentTimeMillis(), taken);
    for (WatchTracker shard : shards) {
      assertEquals(firstStart, shard.currentRestriction().cursorMillis, "the listing's start");
    }
    // lands after the shared listing started, with a modification time before it
    for (int n = 1; n <= 8; n++) {
      Files.setLastModifiedTime(land("dt=b/f" + n + ".json"), Files.getLastModifiedTime(dir));
    }
    Thread.sleep(5);
    long secondStart =
        pollAll(shards, pollers, shards.get(0).currentRestriction().nextPollAtMillis, taken);
    assertTrue(secondStart > firstStart);
    // the clock must pass the second listing's start: a listing that starts in the same
    // millisecond is too old for the shards' next poll (in a job, polls are an interval apart)
    Thread.sleep(5);
    pollAll(shards, pollers, secondStart + 1000, taken);
    assertEquals(
        List.of(
            "f0.json", "f1.json", "f2.json", "f3.json", "f4.json", "f5.json", "f6.json", "f7.json",
            "f8.json"),
        taken.stream().sorted().collect(Collectors.toList()),
        "every file once over both shards");
  }

  private Path land(String relative) throws IOException {
    Path file = dir.resolve("t").resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"id\": 1}\n");
    return file;
  }

  /** One poll of every shard at {@code now}; the start of the listing they used (one). */
  private static long pollAll(
      List<WatchTracker> shards, List<DirectoryPoller> pollers, long now, List<String> taken)
      throws IOException {
    long start = UNSET;
    for (int i = 0; i < shards.size(); i++) {
      WatchTracker tracker = shards.get(i);
      PollOutcome poll = pollers.get(i).poll(tracker.currentRestriction(), now);
      assertTrue(start == UNSET || start == poll.cursorMillis(), "one listing for the shards");
      start = poll.cursorMillis();
      tracker.tryClaim(WatchClaim.poll(poll));
      for (PollOutcome.NewFile file : poll.newFiles()) {
        taken.add(Path.of(file.file.path()).getFileName().toString());
      }
      tracker.currentRestriction().pending.clear(); // read
    }
    return start;
  }
}
