package dev.filetables.transforms.commit;

import org.joda.time.Duration;

/**
 * Exponential backoff of the commit's processing-time timers (commit retries, overdue reports), so
 * that a partition stuck for hours costs a few checks an hour, not one a second.
 */
final class Backoff {
  /** Commit retries: 1 s doubling to 1 min. */
  static final Duration FIRST_RETRY = Duration.standardSeconds(1);

  static final Duration MAX_RETRY = Duration.standardMinutes(1);

  private Backoff() {}

  /** The wait before {@code attempt} (1, 2, …): {@code first}, doubled per attempt, at most max. */
  static Duration delay(Duration first, int attempt, Duration max) {
    long millis = first.getMillis();
    for (int i = 1; i < attempt && millis < max.getMillis(); i++) {
      millis *= 2;
    }
    return Duration.millis(Math.min(millis, max.getMillis()));
  }
}
