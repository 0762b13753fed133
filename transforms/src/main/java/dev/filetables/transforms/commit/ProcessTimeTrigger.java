package dev.filetables.transforms.commit;

import java.time.Instant;
import java.util.Optional;
import org.apache.beam.sdk.state.Timer;
import org.joda.time.Duration;

/**
 * {@code process-time}: a partition is due {@code delay} after the first file of its round, by the
 * processing-time timer {@code commitNow} (delay 0: at the next processing-time tick, so the files
 * of one publish are committed together). Late data starts a new round like any other file.
 */
final class ProcessTimeTrigger implements CommitTrigger {
  static final String NAME = "process-time";

  /** Holds the delay. */
  private final PartitionCommitter committer;

  ProcessTimeTrigger(PartitionCommitter committer) {
    this.committer = committer;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onFile(
      String path, boolean newRound, TriggerState state, Timer watermarkPassed, Timer commitNow) {
    if (newRound) {
      commitNow.offset(Duration.millis(committer.delay().toMillis())).setRelative();
    }
  }

  /** {@code commitNow} is this trigger's own timer: its firing is what makes a partition due. */
  @Override
  public boolean mayCommitNow(TriggerState state) {
    return true;
  }

  @Override
  public Optional<Instant> watermark(TriggerState state) {
    return Optional.empty();
  }

  @Override
  public Optional<Instant> expectedCommit(Instant pendingSince, TriggerState state) {
    return Optional.of(pendingSince.plus(committer.delay()));
  }

  @Override
  public Optional<String> waitingFor(TriggerState state) {
    return Optional.empty();
  }

  @Override
  public void atEndOfInput(String path, TriggerState state) {}
}
