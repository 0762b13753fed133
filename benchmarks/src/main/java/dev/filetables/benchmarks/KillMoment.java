package dev.filetables.benchmarks;

import dev.filetables.testfixtures.RunCheckpoints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * When the soak kills a start of the command, drawn from the seed. {@link #await} waits for the
 * moment and says what it was; the caller kills right after.
 */
enum KillMoment {
  /** At a random time up to 30 s after the start, or as the job's first checkpoint begins. */
  BEFORE_FIRST_CHECKPOINT("before 1st checkpoint"),
  /** Once caught up, plus 0–4 s: as soon as a checkpoint has begun and not completed. */
  MID_CHECKPOINT("mid-checkpoint"),
  /** Once caught up, plus 0–4 s: 0–400 ms after a checkpoint completed (files being published). */
  AFTER_CHECKPOINT("after checkpoint"),
  /** At a random time up to 40 s after the start, whatever it is doing. */
  ANY_MOMENT("any moment");

  private static final long STEP_MILLIS = 10;
  private static final long CATCH_UP_TIMEOUT_MILLIS = 180_000;
  private static final long CHECKPOINT_TIMEOUT_MILLIS = 60_000;

  final String label;

  KillMoment(String label) {
    this.label = label;
  }

  /** {@code kills} moments: each block of four has every moment once, in a random order. */
  static List<KillMoment> plan(int kills, Random random) {
    List<KillMoment> plan = new ArrayList<>();
    while (plan.size() < kills) {
      List<KillMoment> block = new ArrayList<>(List.of(values()));
      Collections.shuffle(block, random);
      plan.addAll(block);
    }
    return plan.subList(0, kills);
  }

  /**
   * Waits for this moment in {@code start}; {@code landedBefore} is what the start must catch up
   * with first (rows landed before the previous kill). Returns what the moment was.
   */
  String await(SoakStart start, SoakReader reader, long landedBefore, Random random)
      throws Exception {
    switch (this) {
      case BEFORE_FIRST_CHECKPOINT:
        {
          long deadline = random.nextInt(30_000);
          while (start.elapsedMillis() < deadline) {
            if (start.checkpoints().newestBegun() > 0) {
              return "as chk-1 began";
            }
            step(start);
          }
          return "";
        }
      case MID_CHECKPOINT:
        {
          awaitCaughtUp(start, reader, landedBefore, random);
          long until = start.elapsedMillis() + CHECKPOINT_TIMEOUT_MILLIS;
          while (start.elapsedMillis() < until) {
            RunCheckpoints.Progress progress = start.checkpoints();
            if (progress.inProgress()) {
              return "chk-" + progress.newestBegun() + " in progress";
            }
            step(start);
          }
          return "none seen in progress";
        }
      case AFTER_CHECKPOINT:
        {
          awaitCaughtUp(start, reader, landedBefore, random);
          int before = start.checkpoints().newestComplete();
          long until = start.elapsedMillis() + CHECKPOINT_TIMEOUT_MILLIS;
          while (start.elapsedMillis() < until) {
            int complete = start.checkpoints().newestComplete();
            if (complete > before) {
              long delay = random.nextInt(400);
              Thread.sleep(delay);
              return String.format(Locale.ROOT, "%d ms after chk-%d", delay, complete);
            }
            step(start);
          }
          return "none completed";
        }
      default:
        {
          long deadline = random.nextInt(40_000);
          while (start.elapsedMillis() < deadline) {
            step(start);
          }
          return "";
        }
    }
  }

  /** Until the table holds every row landed before the last kill, then 0–4 s more. */
  private static void awaitCaughtUp(
      SoakStart start, SoakReader reader, long landedBefore, Random random) throws Exception {
    long pause = random.nextInt(4_000);
    long until = start.elapsedMillis() + CATCH_UP_TIMEOUT_MILLIS;
    while (reader.visiblePrefix() < landedBefore && start.elapsedMillis() < until) {
      step(start);
    }
    long end = start.elapsedMillis() + pause;
    while (start.elapsedMillis() < end) {
      step(start);
    }
  }

  private static void step(SoakStart start) throws Exception {
    start.checkAlive();
    Thread.sleep(STEP_MILLIS);
  }
}
