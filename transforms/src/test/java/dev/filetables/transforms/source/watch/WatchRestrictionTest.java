package dev.filetables.transforms.source.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.sdk.transforms.splittabledofn.SplitResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher's bookkeeping without a pipeline: polls, claims, checkpoints, state encoding. */
class WatchRestrictionTest {
  private static final long MINUTE = 60_000;

  @TempDir Path dir;

  private TableSpec table(String... extraOptions) {
    StringBuilder with = new StringBuilder();
    for (int i = 0; i < extraOptions.length; i += 2) {
      with.append(", '")
          .append(extraOptions[i])
          .append("' = '")
          .append(extraOptions[i + 1])
          .append("'");
    }
    return DdlParser.parse(
        "CREATE TABLE logs (id BIGINT, msg STRING, dt STRING, `hour` STRING) PARTITIONED BY (dt, `hour`)"
            + " WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("t")
            + "', 'format' = 'json',"
            + " 'source.monitor-interval' = '1 s', 'source.monitor.lateness' = '1 min'"
            + with
            + ")");
  }

  private DirectoryPoller poller(TableSpec table, int maxPending) {
    return new DirectoryPoller(
        WatchSettings.of(table, PartitionFilter.all(), 1, 1 << 20, maxPending));
  }

  private Path file(String relative, long mtime) throws Exception {
    Path file = dir.resolve("t").resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"id\": 1, \"msg\": \"x\"}\n");
    Files.setLastModifiedTime(file, FileTime.fromMillis(mtime));
    return file;
  }

  private static List<String> names(PollOutcome poll) {
    return poll.newFiles().stream()
        .map(f -> Path.of(f.file.path()).getFileName().toString())
        .collect(Collectors.toList());
  }

  @Test
  void takesEachFileOnceAndFindsNewPartitionsAtAnyDepth() throws Exception {
    long now = System.currentTimeMillis();
    file(
        "dt=2020-05-20/hour=10/a.json",
        now - 10 * MINUTE); // older than the window: first poll takes it
    file("dt=2020-05-20/hour=10/.b.json.inprogress", now);
    file("dt=2020-05-20/hour=10/_SUCCESS", now);
    DirectoryPoller poller = poller(table(), 100);
    WatchTracker tracker = new WatchTracker(WatchRestriction.initial(0, 1));
    WatchRestriction r =
        tracker.currentRestriction(); // the tracker's own copy, which claims change
    PollOutcome first = poller.poll(r, now);
    assertEquals(List.of("a.json"), names(first));
    assertTrue(tracker.tryClaim(WatchClaim.poll(first)));
    assertEquals(now, r.cursorMillis);
    assertEquals(0, r.seen.size(), "a.json is older than the window: pruned at once");

    file("dt=2020-05-21/hour=00/c.json", now + 1000); // a new dt directory and a new hour below it
    file(
        "dt=2020-05-20/hour=10/d.json",
        now - 30_000); // renamed in with an older mtime, inside lateness
    file(
        "dt=2020-05-20/hour=10/e.json",
        now - 5 * MINUTE); // older than cursor - lateness: never taken
    PollOutcome second = poller.poll(r, now + 2000);
    assertEquals(List.of("d.json", "c.json"), names(second), "in modification time order");
    assertTrue(tracker.tryClaim(WatchClaim.poll(second)));
    assertEquals(2, r.seen.size());
    assertEquals(List.of(), names(poller.poll(r, now + 4000)), "nothing taken twice");

    // two minutes later both files are out of the window: forgotten, and still not taken again
    PollOutcome later = poller.poll(r, now + 2 * MINUTE);
    assertTrue(tracker.tryClaim(WatchClaim.poll(later)));
    assertEquals(List.of(), names(later));
    assertEquals(0, r.seen.size(), "state holds only the window");
  }

  @Test
  void regexAndShardsSplitTheFiles() throws Exception {
    long now = System.currentTimeMillis();
    for (int i = 0; i < 20; i++) {
      file("dt=2020-05-20/hour=10/f" + i + (i % 4 == 0 ? ".log" : ".json"), now);
    }
    TableSpec table = table("source.path.regex-pattern", ".*\\.json");
    List<String> all = new ArrayList<>();
    for (int shard = 0; shard < 3; shard++) {
      DirectoryPoller poller =
          new DirectoryPoller(WatchSettings.of(table, PartitionFilter.all(), 3, 1 << 20, 100));
      all.addAll(names(poller.poll(WatchRestriction.initial(shard, 3), now)));
    }
    assertEquals(15, all.size(), "every .json file in exactly one shard: " + all);
    assertEquals(15, all.stream().distinct().count());
  }

  @Test
  void pendingFilesAreBoundedAndTheCursorWaitsForTheRest() throws Exception {
    long now = System.currentTimeMillis();
    for (int i = 0; i < 5; i++) {
      file("dt=2020-05-20/hour=10/f" + i + ".json", now - 20 * MINUTE + i * 1000);
    }
    DirectoryPoller poller = poller(table(), 2);
    WatchTracker tracker = new WatchTracker(WatchRestriction.initial(0, 1));
    WatchRestriction r =
        tracker.currentRestriction(); // the tracker's own copy, which claims change
    PollOutcome first = poller.poll(r, now);
    assertEquals(List.of("f0.json", "f1.json"), names(first));
    assertEquals(3, first.deferredFiles());
    tracker.tryClaim(WatchClaim.poll(first));
    assertEquals(
        now - 20 * MINUTE + 2000, r.cursorMillis, "cursor stops at the first deferred file");
    assertEquals(List.of(), names(poller.poll(r, now + 1000)), "no room while two are pending");
    tracker.tryClaim(WatchClaim.rangeDone());
    tracker.tryClaim(WatchClaim.rangeDone());
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      PollOutcome poll = poller.poll(r, now + 2000 + i);
      rest.addAll(names(poll));
      tracker.tryClaim(WatchClaim.poll(poll));
      while (!r.pending.isEmpty()) {
        tracker.tryClaim(WatchClaim.rangeDone());
      }
    }
    assertEquals(List.of("f2.json", "f3.json", "f4.json"), rest);
  }

  @Test
  void skipsCommittedPartitionsOlderThanTheWindow() throws Exception {
    long now = System.currentTimeMillis();
    file("dt=2020-05-20/hour=10/a.json", now - 10 * MINUTE);
    file("dt=2020-05-20/hour=10/_SUCCESS", now - 9 * MINUTE);
    file("dt=2020-05-20/hour=11/b.json", now - 10 * MINUTE);
    DirectoryPoller poller = poller(table("source.monitor.skip-committed-partitions", "true"), 100);
    WatchTracker tracker = new WatchTracker(WatchRestriction.initial(0, 1));
    WatchRestriction r = tracker.currentRestriction();
    tracker.tryClaim(WatchClaim.poll(poller.poll(r, now)));
    file("dt=2020-05-20/hour=10/late.json", now); // into a committed partition: not listed
    file("dt=2020-05-20/hour=11/new.json", now);
    List<DataFile> listed = poller.list(r.cursorMillis - MINUTE).files();
    assertEquals(
        List.of("b.json", "new.json"),
        listed.stream()
            .map(f -> Path.of(f.path()).getFileName().toString())
            .collect(Collectors.toList()));
  }

  @Test
  void checkpointHandsOverEverythingAndRefusesLaterClaims() throws Exception {
    long now = System.currentTimeMillis();
    file("dt=2020-05-20/hour=10/a.json", now);
    DirectoryPoller poller = poller(table(), 100);
    WatchTracker tracker = new WatchTracker(WatchRestriction.initial(0, 1));
    WatchRestriction r =
        tracker.currentRestriction(); // the tracker's own copy, which claims change
    tracker.tryClaim(WatchClaim.poll(poller.poll(r, now)));
    assertTrue(tracker.tryClaim(WatchClaim.row(5)));
    assertTrue(tracker.tryClaim(WatchClaim.row(3)));
    assertThrows(IllegalStateException.class, tracker::checkDone);
    assertNull(tracker.trySplit(0.5), "only checkpoints");
    SplitResult<WatchRestriction> split = tracker.trySplit(0);
    assertNotNull(split);
    assertTrue(split.getPrimary().finished);
    WatchRestriction residual = split.getResidual();
    assertEquals(2, residual.pending.peekFirst().rowsDone);
    assertEquals(5, residual.maxEventMillis);
    assertFalse(tracker.tryClaim(WatchClaim.row(6)), "after a checkpoint nothing more is emitted");
    tracker.checkDone();
    assertEquals(2, residual.pending.peekFirst().rowsDone, "the residual is a copy");
    assertNull(tracker.trySplit(0));
  }

  /**
   * The runner's state holds the restriction a tracker is created with, and an asynchronous
   * snapshot may still be writing that object (Flink's heap state with {@code --fasterCopy}):
   * claims, polls and the checkpoint split must leave it as it was.
   */
  @Test
  void trackerNeverChangesTheRestrictionItWasGiven() throws Exception {
    long now = System.currentTimeMillis();
    file("dt=2020-05-20/hour=10/a.json", now);
    file("dt=2020-05-20/hour=10/b.json", now);
    DirectoryPoller poller = poller(table(), 100);
    WatchTracker first = new WatchTracker(WatchRestriction.initial(0, 1));
    first.tryClaim(WatchClaim.poll(poller.poll(first.currentRestriction(), now)));
    WatchRestriction inState = first.trySplit(0).getResidual(); // what the runner stores
    byte[] before = encode(inState);

    WatchTracker resumed = new WatchTracker(inState);
    assertTrue(resumed.tryClaim(WatchClaim.row(7)));
    assertTrue(resumed.tryClaim(WatchClaim.rangeDone()));
    file("dt=2020-05-20/hour=10/c.json", now + 1000);
    assertTrue(
        resumed.tryClaim(WatchClaim.poll(poller.poll(resumed.currentRestriction(), now + 2000))));
    WatchRestriction residual = resumed.trySplit(0).getResidual();

    assertTrue(
        java.util.Arrays.equals(before, encode(inState)),
        "the restriction in state changed: " + inState + " " + inState.pendingList());
    assertEquals(2, inState.pending.size());
    assertEquals(0, inState.pending.peekFirst().rowsDone);
    assertEquals(
        2, residual.pending.size(), "b.json and c.json are left: " + residual.pendingList());
    assertEquals(7, residual.maxEventMillis);
  }

  private static byte[] encode(WatchRestriction r) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WatchRestrictionCoder.of().encode(r, bytes);
    return bytes.toByteArray();
  }

  @Test
  void coderRoundTrip() throws Exception {
    WatchRestriction r = WatchRestriction.initial(1, 3);
    r.cursorMillis = 1_600_000_000_000L;
    r.maxEventMillis = 1_590_000_000_000L;
    r.horizonMillis = 1_599_000_000_000L;
    r.nextPollAtMillis = 1_600_000_001_000L;
    r.lastNewFileAtMillis = 1_600_000_000_500L;
    for (int i = 0; i < 100; i++) {
      r.seen.add(SeenFiles.hash("/t/f" + i), 1_600_000_000_000L - i * 7);
    }
    r.pending.add(
        new PendingRange(
            DataFile.of("/t/dt=x/a.json", Map.of("dt", "x"), 120, 1_599_999_999_000L),
            dev.filetables.io.format.ByteRange.of(0, 120),
            1_599_999_999_000L,
            17));
    java.util.LinkedHashMap<String, String> nullPartition = new java.util.LinkedHashMap<>();
    nullPartition.put("dt", null);
    r.pending.add(
        new PendingRange(
            DataFile.of("/t/dt=__DEFAULT_PARTITION__/b.json", nullPartition, 5, 1L),
            dev.filetables.io.format.ByteRange.of(2, 5),
            1L,
            0));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WatchRestrictionCoder.of().encode(r, bytes);
    WatchRestriction back =
        WatchRestrictionCoder.of().decode(new ByteArrayInputStream(bytes.toByteArray()));
    assertEquals(r.toString(), back.toString());
    assertEquals(r.pendingList().toString(), back.pendingList().toString());
    assertEquals(r.pending.peekLast().file, back.pending.peekLast().file);
    for (int i = 0; i < 100; i++) {
      assertTrue(back.seen.contains(SeenFiles.hash("/t/f" + i)));
    }
    assertTrue(bytes.size() < 100 * 11 + 200, "about 10 bytes per seen file: " + bytes.size());
  }
}
