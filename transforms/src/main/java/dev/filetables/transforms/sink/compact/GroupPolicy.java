package dev.filetables.transforms.sink.compact;

import java.io.Serializable;
import java.time.Duration;
import org.apache.beam.sdk.annotations.Internal;
import org.joda.time.Instant;

/**
 * When the group a partition is collecting is sealed (complete, to be published as one):
 *
 * <ul>
 *   <li>once its files add up to at least the target size ({@code compaction.file-size}), or
 *   <li>once its oldest file has waited the maximum delay ({@code compaction.max-delay}), by
 *       processing time, so a quiet partition does not wait forever, or
 *   <li>when the input ends.
 * </ul>
 *
 * Files of several commit points end up in one group when they arrive within the delay. The rules
 * are applied to the publish step's keyed state by {@link PendingGroup}.
 */
@Internal
public final class GroupPolicy implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long targetSize;
  private final long maxDelayMillis;

  private GroupPolicy(long targetSize, long maxDelayMillis) {
    this.targetSize = targetSize;
    this.maxDelayMillis = maxDelayMillis;
  }

  public static GroupPolicy of(long targetSize, Duration maxDelay) {
    return new GroupPolicy(targetSize, maxDelay.toMillis());
  }

  /** Every file is a group of its own, sealed on arrival (target size 0): the uncompacted sink. */
  public static GroupPolicy eachFileAlone() {
    return of(0, Duration.ZERO);
  }

  /** True if files of {@code bytes} in total complete a group. */
  boolean isComplete(long bytes) {
    return bytes >= targetSize;
  }

  /**
   * The processing time by which a group whose first file arrived at {@code firstArrival} is
   * sealed.
   */
  Instant deadline(Instant firstArrival) {
    return firstArrival.plus(maxDelayMillis);
  }
}
