package dev.filetables.transforms.source.watch;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The whole state of one watcher shard, kept by the runner as the SDF's restriction (so it is part
 * of every checkpoint and savepoint):
 *
 * <ul>
 *   <li>{@code cursorMillis}: every file of this shard modified before {@code cursor - lateness}
 *       has been taken in; the listing offers only newer files.
 *   <li>{@code seen}: hashes of the files taken in that are still inside that window (a file whose
 *       rows were taken from a merged file it was compacted into counts as taken in).
 *   <li>{@code pending}: byte ranges taken in but not read to their end, with rows already emitted.
 *   <li>what the watermark needs: the file-time horizon of the last listing, the largest event time
 *       emitted, the processing time of the last new file (for the idle timeout).
 * </ul>
 *
 * Mutable: only a {@link WatchTracker} changes it, and only its own copy (never the instance the
 * runner's state holds), under the tracker's lock.
 */
final class WatchRestriction {
  static final long UNSET = Long.MIN_VALUE;

  final int shard;
  final int shards;
  long cursorMillis;
  SeenFiles seen;
  final ArrayDeque<PendingRange> pending;
  long nextPollAtMillis;

  /** Lower bound of the file time of every file not taken in yet (file-time watermark). */
  long horizonMillis;

  long maxEventMillis;

  /** Processing time of the last poll that found a new file, or of the first poll. */
  long lastNewFileAtMillis;

  /** A finished restriction: the primary left behind by a checkpoint. */
  final boolean finished;

  WatchRestriction(
      int shard,
      int shards,
      long cursorMillis,
      SeenFiles seen,
      ArrayDeque<PendingRange> pending,
      long nextPollAtMillis,
      long horizonMillis,
      long maxEventMillis,
      long lastNewFileAtMillis,
      boolean finished) {
    this.shard = shard;
    this.shards = shards;
    this.cursorMillis = cursorMillis;
    this.seen = seen;
    this.pending = pending;
    this.nextPollAtMillis = nextPollAtMillis;
    this.horizonMillis = horizonMillis;
    this.maxEventMillis = maxEventMillis;
    this.lastNewFileAtMillis = lastNewFileAtMillis;
    this.finished = finished;
  }

  /** A shard that has seen nothing: its first poll takes in every file already there. */
  static WatchRestriction initial(int shard, int shards) {
    return new WatchRestriction(
        shard,
        shards,
        UNSET,
        new SeenFiles(),
        new ArrayDeque<>(),
        UNSET,
        UNSET,
        UNSET,
        UNSET,
        false);
  }

  /** What a checkpoint leaves as the (already processed) primary. */
  static WatchRestriction finished(int shard, int shards) {
    return new WatchRestriction(
        shard,
        shards,
        UNSET,
        new SeenFiles(),
        new ArrayDeque<>(),
        UNSET,
        UNSET,
        UNSET,
        UNSET,
        true);
  }

  WatchRestriction copy() {
    ArrayDeque<PendingRange> pendingCopy = new ArrayDeque<>(pending.size());
    pending.forEach(p -> pendingCopy.add(p.copy()));
    return new WatchRestriction(
        shard,
        shards,
        cursorMillis,
        seen.copy(),
        pendingCopy,
        nextPollAtMillis,
        horizonMillis,
        maxEventMillis,
        lastNewFileAtMillis,
        finished);
  }

  /** Takes in the outcome of a poll. */
  void apply(PollOutcome poll) {
    for (PollOutcome.NewFile file : poll.newFiles()) {
      seen.add(file.hash, file.modificationTimeMillis);
    }
    pending.addAll(poll.ranges());
    cursorMillis = poll.cursorMillis();
    seen.pruneBefore(poll.windowStartMillis());
    horizonMillis = Math.max(horizonMillis, poll.horizonMillis());
    nextPollAtMillis = poll.nextPollAtMillis();
    if (!poll.newFiles().isEmpty() || lastNewFileAtMillis == UNSET) {
      lastNewFileAtMillis = poll.polledAtMillis();
    }
  }

  List<PendingRange> pendingList() {
    return List.copyOf(pending);
  }

  @Override
  public String toString() {
    return "WatchRestriction{shard "
        + shard
        + "/"
        + shards
        + (finished ? ", finished" : "")
        + ", cursor="
        + cursorMillis
        + ", seen="
        + seen.size()
        + ", pending="
        + pending.size()
        + ", maxEvent="
        + maxEventMillis
        + ", horizon="
        + horizonMillis
        + "}";
  }
}
