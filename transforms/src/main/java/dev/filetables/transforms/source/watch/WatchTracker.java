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
 *
 * <p>The tracker works on its own copy of the restriction it is given, never on that instance: the
 * runner hands over the object its state holds, and with {@code --fasterCopy} (the shipped presets)
 * Flink's heap state backend shares that very object with an asynchronous snapshot that may still
 * be writing it. Claims made after the checkpoint barrier then ended up in that checkpoint, and a
 * restore skipped rows that had never reached the sink (docs/watched-source.md).
 */
final class WatchTracker extends RestrictionTracker<WatchRestriction, WatchClaim> {
  private WatchRestriction restriction;
  private boolean checkpointed;

  WatchTracker(WatchRestriction restriction) {
    this.restriction = restriction.copy();
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
    // the tracker's own copy, which no claim changes any more once this split refused them
    WatchRestriction residual = restriction;
    restriction = WatchRestriction.finished(residual.shard, residual.shards);
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
