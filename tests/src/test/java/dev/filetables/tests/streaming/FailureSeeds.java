package dev.filetables.tests.streaming;

import java.util.Map;
import org.junit.jupiter.api.TestInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seeds of the failure plans ({@link FailureInjector#random}) the failure suites run.
 *
 * <ul>
 *   <li>By default every failure test runs its own fixed seed from {@link #MATRIX}, so two CI runs
 *       inject failures at the same records and a red run can be compared with a green one.
 *   <li>{@link #random} draws a new seed on every run: {@link ExactlyOnceUnderFailuresTest} runs
 *       one such plan beside its fixed one, so CI keeps exploring new plans.
 *   <li>{@code -Dfiletables.failure.seed=<seed>} replays a plan: every failure test takes that seed
 *       (the failure message of each test names its seed). {@code -Dfiletables.failure.seed=random}
 *       makes every test draw a new one (flake hunts).
 * </ul>
 *
 * <p>Timing still differs between runs (checkpoints, bundles), so a seed fixes where failures land
 * in the input, not the whole interleaving.
 */
final class FailureSeeds {
  private static final Logger LOG = LoggerFactory.getLogger(FailureSeeds.class);
  static final String PROPERTY = "filetables.failure.seed";

  /** The fixed seed of each failure test, by {@code Class.method}. */
  private static final Map<String, Long> MATRIX =
      Map.ofEntries(
          Map.entry(
              "ExactlyOnceUnderFailuresTest.visibleRowsAreExactlyTheInputDespiteInjectedFailures",
              1_014_001L),
          Map.entry(
              "ExactlyOnceWithBundlesEndingInSnapshotsTest.visibleRowsAreExactlyTheInputDespiteInjectedFailures",
              1_014_002L),
          // the seed of the CI run that showed issue 13's lost rows
          Map.entry(
              "SegmentCombineExactlyOnceTest.everyRowIsVisibleOnceDespiteCrashesWhileCombiningSegmentFiles",
              3_918_401_232_060L),
          Map.entry(
              "RollAtCommitExactlyOnceTest.everyRowIsVisibleOnceDespiteFailuresAroundBundleEndCloses",
              1_014_004L),
          Map.entry(
              "CompactionExactlyOnceTest.everyRowIsVisibleOnceDespiteTaskFailures", 1_014_005L),
          Map.entry(
              "CompactionExactlyOnceTest.everyRowIsVisibleOnceDespiteCrashesAtEachCompactionStep",
              1_014_006L),
          Map.entry(
              "PartitionCommitUnderFailuresTest.everyCommitSeesItsWholePartitionDespiteFailuresAndWatermarkRaces",
              1_014_007L),
          Map.entry("WatchedSourceFlinkTest.everyLandedRowOnceDespiteInjectedFailures", 1_014_008L),
          Map.entry("KafkaExactlyOnceTest.everyRecordOnceDespiteInjectedFailures", 1_014_009L),
          Map.entry(
              "NativeFlinkReadsStreamingOutputTest.nativeFlinkReadsEveryRowOnceFromRolledAndCompactedFilesInEveryFormat",
              1_014_010L),
          Map.entry(
              "HarnessSelfTest.passesAnExactlyOnceSinkAndCatchesAnAtLeastOnceSinkUnderFailures",
              1_014_011L),
          // which TaskManager dies and how many files have landed by then
          Map.entry(
              "TaskManagerLossS3Test.everyLandedRowOnceInTheS3TableDespiteALostTaskManager",
              1_016_001L),
          Map.entry("CompactionExactlyOnceTest.everyRowIsVisibleOnceOnHdfs", 1_016_002L),
          // when the CLI of a watched run is killed and started again
          Map.entry(
              "ResumeAfterKillTest.everyLandedRowOnceAfterKillsAndRestartsOfTheCli", 1_017_001L));

  private FailureSeeds() {}

  /** The seed this test runs: the replayed one if set, else its fixed seed from the matrix. */
  static long seed(TestInfo test) {
    String name = nameOf(test);
    String replay = System.getProperty(PROPERTY);
    long seed;
    if (replay == null || replay.isBlank()) {
      Long fixed = MATRIX.get(name);
      if (fixed == null) {
        throw new IllegalStateException(
            "no fixed failure seed for " + name + ": add one to FailureSeeds.MATRIX");
      }
      seed = fixed;
    } else if (replay.equals("random")) {
      seed = System.nanoTime();
    } else {
      seed = Long.parseLong(replay.trim());
    }
    return logged(name, seed);
  }

  /** A new seed on every run (unless one is replayed). */
  static long random(TestInfo test) {
    String replay = System.getProperty(PROPERTY);
    boolean replaying = replay != null && !replay.isBlank() && !replay.equals("random");
    return logged(nameOf(test), replaying ? Long.parseLong(replay.trim()) : System.nanoTime());
  }

  private static long logged(String name, long seed) {
    LOG.info("Failure seed {} for {} (replay with -D{}={})", seed, name, PROPERTY, seed);
    return seed;
  }

  private static String nameOf(TestInfo test) {
    return test.getTestClass().map(Class::getSimpleName).orElse("?")
        + "."
        + test.getTestMethod().map(java.lang.reflect.Method::getName).orElse("?");
  }
}
