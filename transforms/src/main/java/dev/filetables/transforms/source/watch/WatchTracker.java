package dev.filetables.transforms.source.watch;

import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.SplitResult;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Tracks one watcher shard. Every claim is applied to the restriction at once, so at any moment the
 * restriction is exactly "what has been emitted and what is left". A checkpoint ({@code
 * trySplit(0)}) hands the whole current state over as the residual and leaves a finished primary;
 * claims after that are refused, so nothing is emitted that the residual would emit again.
 * Splitting off part of the remaining work is not supported (shards are the unit of parallelism).
 */
final class WatchTracker extends RestrictionTracker<WatchRestriction, WatchClaim> {
  private WatchRestriction restriction;
  private boolean checkpointed;

  WatchTracker(WatchRestriction restriction) {
    this.restriction = restriction;
    this.checkpointed = restriction.finished;
  }

  @Override
  public boolean tryClaim(WatchClaim claim) {
    if (checkpointed) {
      return false;
    }
    claim.applyTo(restriction);
    return true;
  }

  @Override
  public WatchRestriction currentRestriction() {
    return restriction;
  }

  @Override
  public @Nullable SplitResult<WatchRestriction> trySplit(double fractionOfRemainder) {
    if (checkpointed || fractionOfRemainder != 0) {
      return null;
    }
    WatchRestriction residual = restriction.copy();
    restriction = WatchRestriction.finished(restriction.shard, restriction.shards);
    checkpointed = true;
    return SplitResult.of(restriction, residual);
  }

  @Override
  public void checkDone() throws IllegalStateException {
    if (!checkpointed) {
      throw new IllegalStateException(
          "A watcher shard never finishes by itself; it must end with a checkpoint: "
              + restriction);
    }
  }

  @Override
  public IsBounded isBounded() {
    return IsBounded.UNBOUNDED;
  }
}
