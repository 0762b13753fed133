package dev.filetables.transforms.source.watch;

/**
 * A step a watcher shard asks its tracker to commit to: take in a poll's files, emit one row of the
 * head range, or finish the head range. Each claim changes the restriction; a claim refused (after
 * a checkpoint split) means the step belongs to the residual and must not happen.
 */
abstract class WatchClaim {
  abstract void applyTo(WatchRestriction restriction);

  static WatchClaim poll(PollOutcome outcome) {
    return new WatchClaim() {
      @Override
      void applyTo(WatchRestriction restriction) {
        restriction.apply(outcome);
      }

      @Override
      public String toString() {
        return "poll(" + outcome.newFiles().size() + " new files)";
      }
    };
  }

  /** One row of the head range, with its event time ({@link WatchRestriction#UNSET} if none). */
  static WatchClaim row(long eventMillis) {
    return new WatchClaim() {
      @Override
      void applyTo(WatchRestriction restriction) {
        PendingRange head = restriction.pending.peekFirst();
        if (head == null) {
          throw new IllegalStateException("row claimed with no pending range: " + restriction);
        }
        head.rowsDone++;
        if (eventMillis > restriction.maxEventMillis) {
          restriction.maxEventMillis = eventMillis;
        }
      }

      @Override
      public String toString() {
        return "row(" + eventMillis + ")";
      }
    };
  }

  static WatchClaim rangeDone() {
    return RANGE_DONE;
  }

  private static final WatchClaim RANGE_DONE =
      new WatchClaim() {
        @Override
        void applyTo(WatchRestriction restriction) {
          if (restriction.pending.pollFirst() == null) {
            throw new IllegalStateException(
                "range end claimed with no pending range: " + restriction);
          }
        }

        @Override
        public String toString() {
          return "rangeDone";
        }
      };
}
