package dev.filetables.transforms.runner;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Tells a stateful DoFn instance on Flink whether what it wrote into keyed state in some bundle is
 * in a completed checkpoint (durable: no restore can take it back).
 *
 * <p>A <em>mark</em> names the instance (a random id per DoFn instance, i.e. per task attempt) and
 * a bundle number. The first mark taken in a bundle registers a bundle finalizer, which the Flink
 * runner runs when the checkpoint taken after that bundle completes ({@code DoFnOperator} collects
 * the finalizers registered so far in {@code snapshotState}, after the state writes of the bundle,
 * and runs them in {@code notifyCheckpointComplete}). Bundles of an operator are sequential and a
 * checkpoint covers everything before it, so a completed bundle number {@code n} makes every mark
 * {@code <= n} durable, even if the runner skipped the notification of an earlier checkpoint.
 *
 * <p>A mark of another instance can only have come from restored state: a restore starts from a
 * completed checkpoint, so it is durable. Marks are kept in state as strings.
 *
 * <p>Marks must be taken in {@code @ProcessElement}: the only method in which Beam 2.62's
 * non-portable runners hand out a {@link BundleFinalizer} (not in {@code @OnTimer} or
 * {@code @StartBundle}).
 */
@Internal
public final class CheckpointMarks {
  private final String instance = UUID.randomUUID().toString();
  private final AtomicLong durableUpTo = new AtomicLong(-1);
  private long bundle = -1;
  private boolean watched;

  /** Called at every {@code @StartBundle}. */
  public void startBundle() {
    bundle++;
    watched = false;
  }

  /** The mark of state written in the current bundle; registers the bundle's finalizer once. */
  public String mark(BundleFinalizer finalizer) {
    if (!watched) {
      long number = bundle;
      finalizer.afterBundleCommit(
          Instant.now().plus(Duration.standardDays(1)),
          () -> durableUpTo.accumulateAndGet(number, Math::max));
      watched = true;
    }
    return instance + "/" + bundle;
  }

  /** True if state written under {@code mark} is in a completed checkpoint. */
  public boolean isDurable(String mark) {
    int slash = mark.lastIndexOf('/');
    if (!isOwn(mark)) {
      return true;
    }
    return Long.parseLong(mark.substring(slash + 1)) <= durableUpTo.get();
  }

  /** True if {@code mark} was taken by this instance (false: it came from restored state). */
  boolean isOwn(String mark) {
    return mark.startsWith(instance + "/");
  }
}
