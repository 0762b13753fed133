package dev.filetables.transforms.sink;

import dev.filetables.io.table.TableOptions;
import java.io.Serializable;

/**
 * When the streaming sink rolls a part file ({@code sink.rolling-policy.*}), and how many bytes of
 * rows it keeps in state before writing them out as a segment. Times are processing times in
 * milliseconds on the runner's clock.
 *
 * <p>A file rolls once its size reaches {@code file-size}, or at the first check at or after
 * {@code created + rollover-interval} or {@code last write + inactivity-interval}. Checks happen on
 * the grid of {@code check-interval} (multiples of it since the epoch), as Flink checks every
 * check-interval; unlike Flink, a file is only looked at when one of its deadlines has passed.
 */
final class RollingPolicy implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long fileSize;
  private final long rolloverMillis;
  private final long inactivityMillis;
  private final long checkMillis;
  private final long bufferSize;

  RollingPolicy(
      long fileSize, long rolloverMillis, long inactivityMillis, long checkMillis, long bufferSize) {
    this.fileSize = Math.max(1, fileSize);
    this.rolloverMillis = Math.max(0, rolloverMillis);
    this.inactivityMillis = Math.max(0, inactivityMillis);
    this.checkMillis = Math.max(1, checkMillis);
    this.bufferSize = Math.max(1, bufferSize);
  }

  /** The table's rolling options; {@code bufferSize} is capped at the rolling file size. */
  static RollingPolicy of(TableOptions options, long bufferSize) {
    return new RollingPolicy(
        options.rollingFileSize(),
        options.rolloverInterval().toMillis(),
        options.inactivityInterval().toMillis(),
        options.checkInterval().toMillis(),
        Math.min(bufferSize, options.rollingFileSize()));
  }

  long fileSize() {
    return fileSize;
  }

  /** Estimated bytes of buffered rows at which they are written out as a segment. */
  long bufferSize() {
    return bufferSize;
  }

  /** True when a file created at {@code created} and last written at {@code lastWrite} must roll. */
  boolean isDue(long now, long created, long lastWrite) {
    return now - created >= rolloverMillis || now - lastWrite >= inactivityMillis;
  }

  /** The check time at which the file should next be looked at: its earliest deadline, on the grid. */
  long nextCheck(long created, long lastWrite) {
    long deadline =
        Math.min(saturatedAdd(created, rolloverMillis), saturatedAdd(lastWrite, inactivityMillis));
    long late = Math.floorMod(deadline, checkMillis);
    return late == 0 ? deadline : saturatedAdd(deadline - late, checkMillis);
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
        + "ms, buffer="
        + bufferSize
        + "}";
  }
}
