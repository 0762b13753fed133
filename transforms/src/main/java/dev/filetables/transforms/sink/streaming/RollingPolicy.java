package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.table.TableOptions;
import dev.filetables.transforms.runner.CheckpointClock;
import java.io.Serializable;

/**
 * When the streaming sink rolls a part file ({@code sink.rolling-policy.*}), and at how many bytes
 * a segment of an open file is completed even within a bundle. Times are processing times in
 * milliseconds on the runner's clock.
 *
 * <p>A file rolls once its size reaches {@code file-size}, or at the first check at or after {@code
 * created + rollover-interval} or {@code last write + inactivity-interval}. Checks happen on the
 * grid of {@code check-interval} (multiples of it since the epoch), as Flink checks every
 * check-interval; unlike Flink, a file is only looked at when one of its deadlines has passed.
 *
 * <p>When the commit points are known (Flink: the checkpoint interval, and when the last checkpoint
 * completed, see {@link CheckpointClock}), time-based rolls move to the instant shortly before the
 * checkpoint nearest to the deadline instead ({@link #nextAligned}): a file then rolls at most half
 * a commit interval before or after its deadline and is published by that very checkpoint, so a row
 * waits about rollover-interval plus the margin, not up to a whole extra commit interval; and with
 * rollover at the commit interval each commit publishes one file per writer.
 */
final class RollingPolicy implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long fileSize;
  private final long rolloverMillis;
  private final long inactivityMillis;
  private final long checkMillis;
  private final long segmentSize;

  RollingPolicy(
      long fileSize,
      long rolloverMillis,
      long inactivityMillis,
      long checkMillis,
      long segmentSize) {
    this.fileSize = Math.max(1, fileSize);
    this.rolloverMillis = Math.max(0, rolloverMillis);
    this.inactivityMillis = Math.max(0, inactivityMillis);
    this.checkMillis = Math.max(1, checkMillis);
    this.segmentSize = Math.max(1, segmentSize);
  }

  /** The table's rolling options; {@code segmentSize} is capped at the rolling file size. */
  static RollingPolicy of(TableOptions options, long segmentSize) {
    return new RollingPolicy(
        options.rollingFileSize(),
        options.rolloverInterval().toMillis(),
        options.inactivityInterval().toMillis(),
        options.checkInterval().toMillis(),
        Math.min(segmentSize, options.rollingFileSize()));
  }

  long fileSize() {
    return fileSize;
  }

  /**
   * Bytes at which an open segment is completed and the next row begins a new one, even within a
   * bundle: bounds what a segment writer holds in memory (a Parquet segment keeps its row group's
   * pages until it is closed).
   */
  long segmentSize() {
    return segmentSize;
  }

  /**
   * True when a file created at {@code created} and last written at {@code lastWrite} must roll.
   */
  boolean isDue(long now, long created, long lastWrite) {
    return now - created >= rolloverMillis || now - lastWrite >= inactivityMillis;
  }

  /**
   * The check time at which the file should next be looked at: its earliest deadline, on the grid.
   */
  long nextCheck(long created, long lastWrite) {
    return nextCheck(created, lastWrite, checkMillis);
  }

  /** {@link #nextCheck(long, long)} on a grid no coarser than {@code maxCheckMillis}. */
  long nextCheck(long created, long lastWrite, long maxCheckMillis) {
    long grid = Math.max(1, Math.min(checkMillis, maxCheckMillis));
    long deadline = deadline(created, lastWrite);
    long late = Math.floorMod(deadline, grid);
    return late == 0 ? deadline : saturatedAdd(deadline - late, grid);
  }

  /**
   * True when rolls can be timed to commit points every {@code commitInterval} ms: moving a roll by
   * up to half an interval must be small next to how long files stay open, so the interval may be
   * at most twice the rollover and inactivity intervals.
   */
  boolean alignsTo(long commitInterval) {
    return commitInterval > 0 && commitInterval / 2 <= Math.min(rolloverMillis, inactivityMillis);
  }

  /** The earliest time-based deadline of a file. */
  long deadline(long created, long lastWrite) {
    return Math.min(
        saturatedAdd(created, rolloverMillis), saturatedAdd(lastWrite, inactivityMillis));
  }

  /**
   * With commit points every {@code commitInterval} ms, the last one completed at {@code
   * lastCommit}: due once the pre-commit instant nearest to the deadline is reached, that is from
   * half a commit interval before the deadline on.
   */
  boolean isDueAligned(long now, long created, long lastWrite, long commitInterval) {
    return now >= deadline(created, lastWrite) - commitInterval / 2;
  }

  /**
   * The instant {@code margin} ms before the commit point nearest to the file's deadline, commit
   * points being {@code lastCommit + k * commitInterval}; never before {@code now}.
   */
  static long alignedInstant(
      long deadline, long now, long lastCommit, long commitInterval, long margin) {
    long base = lastCommit - margin;
    long k = Math.floorDiv(deadline - base + commitInterval / 2, commitInterval);
    long instant = base + k * commitInterval;
    return Math.max(instant, now);
  }

  long nextAligned(long created, long lastWrite, long now, long lastCommit, long commitInterval) {
    long deadline = deadline(created, lastWrite);
    if (deadline == Long.MAX_VALUE) {
      return deadline;
    }
    return alignedInstant(deadline, now, lastCommit, commitInterval, alignMargin(commitInterval));
  }

  /**
   * How long before a predicted checkpoint a roll happens: time for the checkpoint to be triggered
   * (its completion, which is what is observed, comes a little after) and for timer delays.
   */
  static long alignMargin(long commitInterval) {
    return Math.min(commitInterval / 4, 2_000);
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  @Override
  public String toString() {
    return "RollingPolicy{fileSize="
        + fileSize
        + ", rollover="
        + rolloverMillis
        + "ms, inactivity="
        + inactivityMillis
        + "ms, check="
        + checkMillis
        + "ms, segment="
        + segmentSize
        + "}";
  }
}
