package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.testfixtures.CliProcess;
import dev.filetables.testfixtures.RunCheckpoints;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 17: {@code filetables run} of a watched directory on the embedded default, used as a user
 * uses it from the shell: the CLI runs in its own JVM while files keep landing, is killed with
 * {@code kill -9} twice (once its job checkpointed, once at any moment) and stopped once with
 * SIGTERM (Ctrl-C sends SIGINT; both run the same shutdown hook), at random moments, and is started
 * again with the same command each time; the last start runs until every landed row is visible.
 * Then the table must hold every landed row exactly once as DuckDB reads it, no hidden file of any
 * attempt, a success file in every partition, and files of one write only (the write's id survives
 * the restarts).
 */
@Tag("cluster")
class ResumeAfterKillTest {
  private static final Logger LOG = LoggerFactory.getLogger(ResumeAfterKillTest.class);
  private static final long LANDING_PAUSE_MILLIS = 400;

  /** Files land this long into the last start too. */
  private static final long LANDING_INTO_LAST_START_MILLIS = 3_000;

  private static final long CLI_TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(6);
  private static final String UP = "filetables: (a new run|resuming the run)";

  /** Kept when the test fails: the CLI's logs are in it. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void everyLandedRowOnceAfterKillsAndRestartsOfTheCli(TestInfo test) throws Exception {
    Random random = new Random(FailureSeeds.seed(test));
    WatchedCopy copy = WatchedCopy.in(dir, LANDING_PAUSE_MILLIS);
    Path state = dir.resolve("state");
    List<String> command = copy.runCommand(state, "--parallelism=2");
    // files land all along, whatever the speed of the machine, until the last start runs
    copy.startLanding(10);

    List<String> rounds = new ArrayList<>();
    int resumed = 0;
    // kill -9 once the job checkpointed and once at any moment (during the start too), then a
    // SIGTERM once the job checkpointed (the CLI cancels its job only once it is submitted)
    String[] stops = {"checkpointed kill -9", "any-moment kill -9", "checkpointed SIGTERM"};
    for (int round = 0; round < stops.length; round++) {
      List<String> earlierJobs = RunCheckpoints.newestJob(state).map(List::of).orElse(List.of());
      CliProcess cli = start(command, dir.resolve("cli-" + round + ".log"));
      try {
        String up = awaitLine(cli, UP);
        long upMillis = cli.elapsed().toMillis();
        resumed += up.contains("resuming the run") ? 1 : 0;
        if (stops[round].startsWith("checkpointed")) {
          awaitCheckpointOfThisStart(state, cli, earlierJobs);
        }
        Thread.sleep(500 + random.nextInt(stops[round].startsWith("any") ? 8_000 : 3_000));
        int landed = copy.landed();
        long visible = copy.countVisible();
        if (stops[round].endsWith("SIGTERM")) {
          cli.terminate();
          cli.awaitExit(Duration.ofSeconds(60));
          assertTrue(
              cli.output().contains("filetables: stopping: cancelling job"),
              "SIGTERM cancels the job:\n" + cli.output());
        } else {
          cli.kill();
        }
        rounds.add(
            stops[round]
                + " after "
                + cli.elapsed().toMillis()
                + " ms (state read after "
                + upMillis
                + " ms: "
                + up.replaceFirst("^filetables: ", "").replaceFirst(" \\(.*", "")
                + "; "
                + landed
                + " files landed, "
                + visible
                + " rows visible)");
      } finally {
        cli.kill();
      }
    }

    CliProcess last = start(command, dir.resolve("cli-last.log"));
    long caughtUp;
    int landedAtLastStart = copy.landed();
    try {
      String up = awaitLine(last, UP);
      resumed += up.contains("resuming the run") ? 1 : 0;
      while (copy.countVisible() < (long) landedAtLastStart * WatchedCopy.ROWS_PER_FILE) {
        check(last);
        Thread.sleep(200);
      }
      caughtUp = last.elapsed().toMillis();
      Thread.sleep(LANDING_INTO_LAST_START_MILLIS);
      copy.stopLanding();
      while (!copy.complete()) {
        check(last);
        Thread.sleep(200);
      }
      last.terminate();
      last.awaitExit(Duration.ofSeconds(60));
    } finally {
      last.kill();
    }
    LOG.info(
        "Rounds: {}; last start: caught up with the {} files landed before it {} ms after its"
            + " start; {} files landed in all",
        rounds,
        landedAtLastStart,
        caughtUp,
        copy.landed());

    assertTrue(resumed >= 2, resumed + " of 4 starts resumed from a checkpoint: " + rounds);
    copy.assertEveryLandedRowOnce(rounds.toString());
  }

  /** Waits for the first output line matching {@code regex}; fails if the CLI ends first. */
  private static String awaitLine(CliProcess cli, String regex) throws Exception {
    Pattern pattern = Pattern.compile(regex);
    while (true) {
      for (String line : cli.output().split("\\R")) {
        if (pattern.matcher(line).find()) {
          return line;
        }
      }
      check(cli);
      Thread.sleep(100);
    }
  }

  /** Fails if the CLI ended or runs too long. */
  private static void check(CliProcess cli) throws IOException {
    if (!cli.isAlive()) {
      throw new AssertionError("the CLI ended:\n" + cli.output());
    }
    if (cli.elapsed().toMillis() > CLI_TIMEOUT_MILLIS) {
      throw new AssertionError("the CLI took too long:\n" + cli.output());
    }
  }

  /**
   * Waits until the job of this start (the newest job in {@code run.json}, which the CLI writes
   * before it submits the job) has completed a checkpoint.
   */
  private static void awaitCheckpointOfThisStart(
      Path state, CliProcess cli, List<String> earlierJobs) throws Exception {
    while (true) {
      Optional<String> job =
          RunCheckpoints.newestJob(state).filter(id -> !earlierJobs.contains(id));
      if (job.isPresent() && RunCheckpoints.of(state, job.get()).newestComplete() > 0) {
        return;
      }
      check(cli);
      Thread.sleep(100);
    }
  }

  private static CliProcess start(List<String> command, Path log) throws IOException {
    return CliProcess.start(command, Map.of(), Map.of(), log);
  }
}
