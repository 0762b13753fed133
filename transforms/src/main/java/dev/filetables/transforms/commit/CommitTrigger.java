package dev.filetables.transforms.commit;

import dev.filetables.io.table.TableOptions;
import java.time.Instant;
import java.util.Optional;
import org.apache.beam.sdk.state.Timer;

/**
 * When a pending partition is due ({@code sink.partition-commit.trigger}), chosen once from the
 * table's options: {@link PartitionTimeTrigger} or {@link ProcessTimeTrigger}. {@link
 * PartitionCommitFn} owns the state and the timers and asks its trigger which timer to arm for a
 * file, whether a {@code commitNow} firing may commit, and what to say about an overdue partition.
 * Due only means "complete by the trigger": the commit still waits until the partition's files are
 * visible ({@link CommitAttempt}), and the end of the input commits every pending partition
 * whatever its trigger.
 */
interface CommitTrigger {

  /** The trigger the table's {@code sink.partition-commit.trigger} names. */
  static CommitTrigger of(TableOptions options, PartitionCommitter committer) {
    if (options.commitTrigger().equals(PartitionTimeTrigger.NAME)) {
      return new PartitionTimeTrigger(committer);
    }
    return new ProcessTimeTrigger(committer);
  }

  /** The option value; also the reason its commits record. */
  String name();

  /**
   * A published file joined the partition's pending round ({@code newRound}: it began the round):
   * arms the timer that makes the partition due, if that is not done yet.
   */
  void onFile(
      String path, boolean newRound, TriggerState state, Timer watermarkPassed, Timer commitNow);

  /**
   * Whether a {@code commitNow} firing may commit the partition; if not, the firing is stale (set
   * before the partition's state was forgotten).
   */
  boolean mayCommitNow(TriggerState state);

  /** The watermark a commit of this trigger records, if it has one. */
  Optional<Instant> watermark(TriggerState state);

  /**
   * When a partition whose round began at {@code pendingSince} should have been committed, for
   * overdue reports; empty when that is unknown.
   */
  Optional<Instant> expectedCommit(Instant pendingSince, TriggerState state);

  /** What the trigger still waits for before the partition is due, for overdue reports. */
  Optional<String> waitingFor(TriggerState state);

  /**
   * End of the input, for a partition known only from announcements: records what its commit
   * reports, as the first file would have.
   */
  void atEndOfInput(String path, TriggerState state);
}
