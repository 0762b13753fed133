package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.store.StoreException;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.RunnerPresets;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.EmitLog;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.FileTableMaintenance;
import dev.filetables.transforms.PublishedLeftovers;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.Row;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming jobs of the exactly-once tests: {@link OrdersSource} → {@link FailureInjector} →
 * one or more table sinks, on a {@link LocalFlinkCluster} with parallelism 2 and EXACTLY_ONCE
 * checkpoints, and the ways to run them (with failures, stop with a savepoint, cancel and restore
 * from a retained checkpoint).
 *
 * <p>Transform names ("Orders", "InjectFailures", "Write &lt;table&gt;") are the operator uids the
 * Flink runner derives, so a job built again from the same arguments restores a savepoint of the
 * first one.
 */
final class StreamingScenarios {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingScenarios.class);

  static final int PARALLELISM = 2;
  static final long CHECKPOINT_INTERVAL_MILLIS = 500;

  /**
   * The streaming writer's bound on segment files per open part file (SegmentCombiner), read when
   * the pipeline is built: failure tests set it small so that segment files are combined all the
   * time under failures. Override with {@code -Dfiletables.test.max-segment-files=<n>}.
   */
  private static final String MAX_SEGMENT_FILES = "filetables.sink.max-segment-files";

  /** Small bound on segment files for the pipelines built from now on (failure tests). */
  static void combineSegmentFilesConstantly() {
    System.setProperty(
        MAX_SEGMENT_FILES, System.getProperty("filetables.test.max-segment-files", "2"));
  }

  /** The sink's default bound again. */
  static void defaultSegmentCombining() {
    System.clearProperty(MAX_SEGMENT_FILES);
  }

  /** A table and the sink transform that writes it. */
  static final class SinkUnderTest {
    final TableSpec table;
    final Function<TableSpec, PTransform<? super PCollection<Row>, ? extends POutput>> sink;

    /** What else must hold, beyond all rows being visible, before the harness may stop the job. */
    final Predicate<TableSpec> done;

    /**
     * The sink claims exactly-once visibility: the live reader's violations fail the run. False
     * only for the harness's own at-least-once stand-in, whose violations the self-test expects.
     */
    final boolean exactlyOnce;

    SinkUnderTest(
        TableSpec table,
        Function<TableSpec, PTransform<? super PCollection<Row>, ? extends POutput>> sink) {
      this(table, sink, t -> true, true);
    }

    private SinkUnderTest(
        TableSpec table,
        Function<TableSpec, PTransform<? super PCollection<Row>, ? extends POutput>> sink,
        Predicate<TableSpec> done,
        boolean exactlyOnce) {
      this.table = table;
      this.sink = sink;
      this.done = done;
      this.exactlyOnce = exactlyOnce;
    }

    /**
     * This sink, complete only once {@code done} also holds (e.g. every partition committed): a job
     * whose rows are all visible is not cancelled before then.
     */
    SinkUnderTest doneWhen(Predicate<TableSpec> done) {
      return new SinkUnderTest(table, sink, done, exactlyOnce);
    }

    /**
     * This sink, known to be only at least once: what the live reader sees is reported, not failed.
     */
    SinkUnderTest onlyAtLeastOnce() {
      return new SinkUnderTest(table, sink, done, false);
    }
  }

  /**
   * Stops the live reader and fails if it saw anything wrong in a table whose sink claims exactly
   * once; returns every violation per table (the at-least-once stand-in's included).
   */
  static Map<String, List<String>> stopLiveReader(
      LiveReader live, List<SinkUnderTest> sinks, String context) throws InterruptedException {
    Map<String, List<String>> seen = live.stop();
    for (SinkUnderTest sink : sinks) {
      List<String> problems = seen.getOrDefault(sink.table.name(), List.of());
      if (sink.exactlyOnce && !problems.isEmpty()) {
        throw new AssertionError(
            "A plain reader saw "
                + sink.table.name()
                + " wrong while the job ran ("
                + context
                + "): "
                + problems);
      }
    }
    return seen;
  }

  /** Waits until every table has a visible data file (or the timeout passes: the caller judges). */
  static void awaitVisibleFiles(List<TableSpec> tables, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (TableSpec table : tables) {
      Path root = CommitTables.root(table);
      String extension = "." + table.options().format();
      while (IndependentReader.visibleFiles(root, extension).isEmpty()
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
    }
  }

  /** How a job run ended. */
  static final class RunResult {
    final JobID job;

    /**
     * True when the job finished by itself; false when the harness stopped it once the tables were
     * complete.
     */
    final boolean finishedByItself;

    final JobStatus status;
    final long completedCheckpoints;

    /** Task restarts of the job (failovers; -1 when not known). */
    final int restarts;

    /**
     * Per table written by {@link FileTableIO}, what finishing the write after a job that finished
     * by itself did ({@link FileTableMaintenance#finishWrite}, as the CLI does); empty otherwise.
     */
    final Map<String, PublishedLeftovers> leftovers;

    RunResult(
        JobID job,
        boolean finishedByItself,
        JobStatus status,
        long completedCheckpoints,
        int restarts) {
      this(job, finishedByItself, status, completedCheckpoints, restarts, Map.of());
    }

    RunResult(
        JobID job,
        boolean finishedByItself,
        JobStatus status,
        long completedCheckpoints,
        int restarts,
        Map<String, PublishedLeftovers> leftovers) {
      this.restarts = restarts;
      this.job = job;
      this.finishedByItself = finishedByItself;
      this.status = status;
      this.completedCheckpoints = completedCheckpoints;
      this.leftovers = leftovers;
    }

    /** True when the job's final checkpoint left files for the post-job publish. */
    boolean leftWorkForThePostJobPublish() {
      return leftovers.values().stream().anyMatch(l -> !l.isEmpty());
    }

    @Override
    public String toString() {
      return "job "
          + job
          + " "
          + status
          + (finishedByItself
              ? " (finished by itself)"
              : " (cancelled by the harness once complete)")
          + ", "
          + completedCheckpoints
          + " completed checkpoints, "
          + restarts
          + " restart(s)"
          + (leftWorkForThePostJobPublish() ? "; post-job publish: " + leftovers.values() : "");
    }
  }

  private StreamingScenarios() {}

  /**
   * The options of the embedded-Flink preset exactly as shipped ({@code
   * runner-configs/flink-local.args}), without runner and master: the failure suites run what users
   * run.
   */
  static List<String> shippedPreset() {
    return RunnerPresets.standard()
        .find(PRESET)
        .orElseThrow(() -> new AssertionError("preset " + PRESET + " not found"))
        .stream()
        .filter(arg -> !arg.startsWith("--runner=") && !arg.startsWith("--flinkMaster="))
        .collect(java.util.stream.Collectors.toList());
  }

  static final String PRESET = "flink-local";

  /**
   * Options that change the sink's protocol, whose other setting a suite may run on purpose (and
   * says so); every other preset option must be as shipped.
   */
  static final Set<String> PROTOCOL_SWITCHES = Set.of("finishBundleBeforeCheckpointing");

  static FlinkPipelineOptions options(LocalFlinkCluster cluster, String jobName) {
    FlinkPipelineOptions options =
        PipelineOptionsFactory.fromArgs(shippedPreset().toArray(new String[0]))
            .as(FlinkPipelineOptions.class);
    cluster.configure(options, jobName + "-" + UUID.randomUUID());
    options.setParallelism(PARALLELISM);
    options.setCheckpointingInterval(CHECKPOINT_INTERVAL_MILLIS);
    options.setCheckpointingMode("EXACTLY_ONCE");
    // fixed-delay restarts: more than any test injects
    options.setNumberOfExecutionRetries(30);
    options.setExecutionRetryDelay(200L);
    // the other setting of a protocol switch, on request:
    // -Dfiletables.finishBundleBeforeCheckpointing=false tests the unbatched path
    String finishBundle = System.getProperty(FINISH_BUNDLE_PROPERTY);
    if (finishBundle != null) {
      options.setFinishBundleBeforeCheckpointing(Boolean.parseBoolean(finishBundle));
    }
    return options;
  }

  /**
   * Preset options whose value in {@code options} is not the shipped one, as {@code key: shipped ->
   * used}; protocol switches are left out when {@code allowSwitches}.
   */
  static List<String> driftFromPreset(PipelineOptions options, boolean allowSwitches) {
    List<String> drift = new ArrayList<>();
    FlinkPipelineOptions flink = options.as(FlinkPipelineOptions.class);
    for (String arg : shippedPreset()) {
      int eq = arg.indexOf('=');
      String key = arg.substring(2, eq);
      String shipped = arg.substring(eq + 1);
      if (allowSwitches && PROTOCOL_SWITCHES.contains(key)) {
        continue;
      }
      String used = String.valueOf(optionValue(flink, key));
      if (!used.equals(shipped)) {
        drift.add(key + ": " + shipped + " -> " + used);
      }
    }
    return drift;
  }

  private static Object optionValue(FlinkPipelineOptions options, String key) {
    String name = Character.toUpperCase(key.charAt(0)) + key.substring(1);
    for (String prefix : List.of("get", "is")) {
      try {
        return FlinkPipelineOptions.class.getMethod(prefix + name).invoke(options);
      } catch (NoSuchMethodException e) {
        // try the next prefix
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("cannot read option " + key, e);
      }
    }
    throw new AssertionError("the preset sets an option the Flink runner does not know: " + key);
  }

  /** Fails when a suite's options drifted from the shipped preset (beyond a protocol switch). */
  static void assertShippedPreset(PipelineOptions options) {
    List<String> drift = driftFromPreset(options, true);
    if (!drift.isEmpty()) {
      throw new AssertionError(
          "The failure suite's options drifted from runner-configs/" + PRESET + ".args: " + drift);
    }
  }

  /**
   * System property: run the scenarios' jobs with {@code --finishBundleBeforeCheckpointing=true}.
   */
  static final String FINISH_BUNDLE_PROPERTY = "filetables.finishBundleBeforeCheckpointing";

  static Pipeline pipeline(
      FlinkPipelineOptions options,
      OrdersSource source,
      FailureInjector.Plan plan,
      List<SinkUnderTest> sinks) {
    if (sinks.stream()
        .anyMatch(sink -> !(sink.sink.apply(sink.table) instanceof FileTableIO.Write))) {
      // Only for the stand-in sinks (StandInSinks; FileTableIO's sink has no such step): the Flink
      // runner cannot finish a job with @RequiresStableInput at the end of the input without it
      // (the
      // elements still buffered for the next checkpoint keep a watermark hold and
      // DoFnOperator#finish throws). The shipped preset does not set it.
      options.as(FlinkPipelineOptions.class).setEnableStableInputDrain(true);
    }
    assertShippedPreset(options);
    Pipeline pipeline = Pipeline.create(options);
    PCollection<Row> rows =
        pipeline
            .apply("Orders", Read.from(source))
            .setRowSchema(Orders.SCHEMA)
            .apply("InjectFailures", ParDo.of(new FailureInjector(plan)))
            .setRowSchema(Orders.SCHEMA);
    for (SinkUnderTest sink : sinks) {
      rows.apply("Write " + sink.table.name(), sink.sink.apply(sink.table));
    }
    return pipeline;
  }

  /**
   * Waits until the job finishes by itself, or until every table shows {@code totalRows} visible
   * rows and its sink's {@code done} holds, and stays so for {@code settle} (then cancels it: a
   * finite stream whose sink has published everything is done, whether or not the runner ends the
   * job). Fails if the job fails or neither happens within {@code timeout}.
   */
  static RunResult awaitCompletion(
      LocalFlinkCluster cluster,
      JobID job,
      EmitLog log,
      List<SinkUnderTest> sinks,
      long totalRows,
      Duration settle,
      Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long completeSince = -1;
    String lastState = "";
    while (System.nanoTime() < deadline) {
      JobStatus status = cluster.status(job);
      if (status.isGloballyTerminalState()) {
        long checkpoints = cluster.completedCheckpoints(job);
        JobResult result = cluster.awaitTermination(job, Duration.ofSeconds(10));
        if (status != JobStatus.FINISHED) {
          throw new AssertionError(
              "Job "
                  + job
                  + " ended "
                  + status
                  + result
                      .getSerializedThrowable()
                      .map(t -> ": " + t.getFullStringifiedStackTrace())
                      .orElse(""));
        }
        return new RunResult(
            job, true, status, checkpoints, cluster.restarts(job), finishWrites(sinks));
      }
      List<Long> counts = new ArrayList<>();
      boolean done = true;
      if (log.emissions() >= totalRows) { // reading the tables competes with the job: not before
        try {
          for (SinkUnderTest sink : sinks) {
            counts.add(TableContents.scan(sink.table).rowCount());
            done &= sink.done.test(sink.table);
          }
        } catch (StoreException down) { // a test took the store away: not complete yet
          counts.clear();
          done = false;
        }
      }
      lastState =
          log.emissions()
              + " rows emitted, visible rows "
              + (counts.isEmpty() ? "not counted yet" : counts)
              + " of "
              + totalRows
              + (done ? "" : ", not done")
              + ", job "
              + status;
      boolean complete = done && !counts.isEmpty() && counts.stream().allMatch(c -> c >= totalRows);
      if (!complete) {
        completeSince = -1;
      } else if (completeSince < 0) {
        completeSince = System.nanoTime();
      } else if (System.nanoTime() - completeSince >= settle.toNanos()) {
        long checkpoints = cluster.completedCheckpoints(job);
        LOG.info("All tables complete for {}; job still {}: cancelling it", settle, status);
        int restarts = cluster.restarts(job);
        cluster.cancel(job);
        return new RunResult(job, false, cluster.status(job), checkpoints, restarts);
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("Job " + job + " not complete within " + timeout + ": " + lastState);
  }

  /**
   * After a job finished by itself, what the product does next (every CLI command that waits for a
   * streaming write): finishes each FileTables write, publishing what the job's final checkpoint
   * left and failing, naming the files, if anything of the write is still hidden.
   */
  static Map<String, PublishedLeftovers> finishWrites(List<SinkUnderTest> sinks) throws Exception {
    Map<String, PublishedLeftovers> done = new LinkedHashMap<>();
    for (SinkUnderTest sink : sinks) {
      PTransform<?, ?> transform = sink.sink.apply(sink.table);
      if (transform instanceof FileTableIO.Write
          || transform instanceof CommitTables.WriteAndWatch) {
        PublishedLeftovers result = FileTableMaintenance.finishWrite(sink.table, null);
        if (!result.isEmpty()) {
          LOG.warn("The job's final checkpoint left work for the post-job publish: {}", result);
        }
        done.put(sink.table.name(), result);
      }
    }
    return done;
  }

  /** How the first job of {@link #stopAndRestore} ends. */
  enum StopMode {
    /** Stop with a savepoint: sources stop, the savepoint completes, the job finishes. */
    SAVEPOINT,
    /** Cancel without a savepoint (like losing the whole job) and keep its last checkpoint. */
    CANCEL_KEEP_CHECKPOINT
  }

  /** What {@link #stopAndRestore} saw. */
  static final class RestoreOutcome {
    final String restoredFrom;
    final Map<String, ExactlyOnceCheck> afterStop;
    final Map<String, ExactlyOnceCheck> afterRestore;
    final long emittedByFirstJob;
    final long emittedInTotal;
    final RunResult secondJob;

    /** What the live reader saw wrong, per table (only at-least-once stand-ins may have any). */
    final Map<String, List<String>> liveViolations;

    RestoreOutcome(
        String restoredFrom,
        Map<String, ExactlyOnceCheck> afterStop,
        Map<String, ExactlyOnceCheck> afterRestore,
        long emittedByFirstJob,
        long emittedInTotal,
        RunResult secondJob,
        Map<String, List<String>> liveViolations) {
      this.liveViolations = liveViolations;
      this.restoredFrom = restoredFrom;
      this.afterStop = afterStop;
      this.afterRestore = afterRestore;
      this.emittedByFirstJob = emittedByFirstJob;
      this.emittedInTotal = emittedInTotal;
      this.secondJob = secondJob;
    }
  }

  /**
   * Runs a job over rows {@code 0 .. totalRows-1} until about {@code stopFraction} of them are
   * emitted and two checkpoints completed, stops it ({@code mode}), checks that what is visible
   * then is consistent, and starts a new job of the same shape from the savepoint or retained
   * checkpoint; returns the checks once the second job has completed.
   */
  static RestoreOutcome stopAndRestore(
      Path dir,
      List<SinkUnderTest> sinks,
      Orders orders,
      long totalRows,
      double rowsPerSecond,
      double stopFraction,
      StopMode mode,
      Duration timeout)
      throws Exception {
    return stopAndRestore(
        dir, sinks, orders, totalRows, rowsPerSecond, stopFraction, mode, timeout, () -> {});
  }

  /** Looks at the tables while no job runs, between the stop and the restore. */
  @FunctionalInterface
  interface WhileStopped {
    void look() throws Exception;
  }

  /** {@link #stopAndRestore}, calling {@code whileStopped} after the first job ended. */
  static RestoreOutcome stopAndRestore(
      Path dir,
      List<SinkUnderTest> sinks,
      Orders orders,
      long totalRows,
      double rowsPerSecond,
      double stopFraction,
      StopMode mode,
      Duration timeout,
      WhileStopped whileStopped)
      throws Exception {
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    FailureInjector.Plan noFailures = FailureInjector.none();
    OrdersSource source =
        OrdersSource.of(orders)
            .withTotalRows(totalRows)
            .withRowsPerSecond(rowsPerSecond)
            .withEmitLog(logId);
    List<TableSpec> tables = tables(sinks);
    LiveReader live = null;
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), 2 * PARALLELISM)) {
      FlinkPipelineOptions first = options(cluster, "restore-first");
      if (mode == StopMode.CANCEL_KEEP_CHECKPOINT) {
        first.setExternalizedCheckpointsEnabled(true);
        first.setRetainExternalizedCheckpointsOnCancellation(true);
      }
      JobID job1 = cluster.submit(pipeline(first, source, noFailures, sinks));
      live = LiveReader.start(tables, orders, totalRows);
      cluster.awaitAllTasksRunning(job1, Duration.ofSeconds(60));
      cluster.awaitCompletedCheckpoints(job1, 2, Duration.ofSeconds(60));
      awaitEmitted(log, (long) (totalRows * stopFraction), timeout);
      // Stop once files are published, as a user's stop would find them: under load the first
      // checkpoints can lag far behind the source, and a stop with only hidden files proves less.
      awaitVisibleFiles(tables, timeout);

      String restorePath;
      if (mode == StopMode.SAVEPOINT) {
        restorePath = cluster.stopWithSavepoint(job1);
        cluster.awaitTermination(job1, Duration.ofSeconds(60));
      } else {
        cluster.cancel(job1);
        restorePath =
            cluster
                .latestRetainedCheckpoint(job1)
                .orElseThrow(() -> new AssertionError("no retained checkpoint of " + job1))
                .toString();
      }
      long emittedByFirst = log.emissions();
      LOG.info(
          "First job {} stopped ({}) after {} emitted rows; restoring from {}",
          job1,
          mode,
          emittedByFirst,
          restorePath);
      Map<String, ExactlyOnceCheck> afterStop = check(tables, orders, totalRows);
      whileStopped.look();

      FlinkPipelineOptions second = options(cluster, "restore-second");
      second.setSavepointPath(restorePath);
      second.setAllowNonRestoredState(false);
      // the same source, marked as restoring: works around apache/beam#31313 (see OrdersSource)
      OrdersSource restoring = source.restoring();
      JobID job2 = cluster.submit(pipeline(second, restoring, noFailures, sinks));
      RunResult run =
          awaitCompletion(cluster, job2, log, sinks, totalRows, Duration.ofSeconds(3), timeout);
      LOG.info("Second job: {}", run);
      Map<String, List<String>> seen = stopLiveReader(live, sinks, "stop " + mode + " and restore");
      Map<String, ExactlyOnceCheck> afterRestore = check(tables, orders, totalRows);
      return new RestoreOutcome(
          restorePath, afterStop, afterRestore, emittedByFirst, log.emissions(), run, seen);
    } finally {
      if (live != null) {
        live.close();
      }
      EmitLog.remove(logId);
      FailureInjector.forget(noFailures);
    }
  }

  /** What {@link #runWithFailures} saw. */
  static final class FailureOutcome {
    final FailureInjector.Plan plan;
    final RunResult run;
    final Map<String, ExactlyOnceCheck> checks;

    /** Rows the source emitted, replays after restores included. */
    final long emitted;

    /** What the live reader saw wrong, per table (only at-least-once stand-ins may have any). */
    final Map<String, List<String>> liveViolations;

    FailureOutcome(
        FailureInjector.Plan plan,
        RunResult run,
        Map<String, ExactlyOnceCheck> checks,
        long emitted,
        Map<String, List<String>> liveViolations) {
      this.liveViolations = liveViolations;
      this.plan = plan;
      this.run = run;
      this.checks = checks;
      this.emitted = emitted;
    }

    /**
     * Every planned failure was injected, exactly once each, and the job restarted for them (at
     * least once, at most once per failure: two failures in one failover restart once).
     */
    void assertFailuresInjectedAndRestarted(int extraFailures, long seed) {
      String context = plan + ", " + run + "; seed " + seed;
      assertEquals(
          plan.planned(), plan.injected(), "every planned failure injected once: " + context);
      int failures = plan.planned().size() + extraFailures;
      if (failures > 0) {
        assertTrue(
            run.restarts >= 1 && run.restarts <= failures,
            "restarts for " + failures + " failure(s): " + context);
      } else {
        assertEquals(0, run.restarts, "no failure, no restart: " + context);
      }
    }

    /** Every table shows each of the {@code rows} input rows exactly once, in well-named files. */
    void assertEveryRowOnce(long rows, long seed) {
      checks.forEach(
          (table, check) -> {
            assertEquals(List.of(), check.exactlyOnceProblems(), check + "; seed " + seed);
            assertEquals(rows, check.visibleRows, check.toString());
            assertEquals(List.of(), StreamingTables.strangeVisibleFiles(check.contents), table);
            LOG.info(
                "{}: {} visible files, {} hidden leftovers ({} in progress) after {}",
                table,
                check.contents.files().size(),
                check.contents.hiddenFiles().size(),
                check.contents.inProgressFiles().size(),
                run);
          });
    }
  }

  /**
   * Runs one job over rows {@code 0 .. totalRows-1} with {@code failures} injected failures at
   * random record counts (drawn with {@code seed} between 5% and 90% of the rows, so all happen)
   * and returns the checks of every table once the job has completed.
   */
  /**
   * Bundles end at checkpoints only, before the barrier: what roll at the commit point needs, and a
   * segment per open file and checkpoint.
   */
  static void bundlesEndAtCheckpoints(FlinkPipelineOptions options) {
    options.setFinishBundleBeforeCheckpointing(true);
    options.setMaxBundleSize(1_000_000L);
    options.setMaxBundleTimeMills(10_000L);
  }

  static FailureOutcome runWithFailures(
      Path dir,
      List<SinkUnderTest> sinks,
      Orders orders,
      long totalRows,
      double rowsPerSecond,
      int failures,
      long seed,
      Duration timeout)
      throws Exception {
    return runWithFailures(
        dir, sinks, orders, totalRows, rowsPerSecond, failures, seed, timeout, options -> {});
  }

  /** {@link #runWithFailures} with runner options changed by {@code tune} (e.g. bundle options). */
  static FailureOutcome runWithFailures(
      Path dir,
      List<SinkUnderTest> sinks,
      Orders orders,
      long totalRows,
      double rowsPerSecond,
      int failures,
      long seed,
      Duration timeout,
      java.util.function.Consumer<FlinkPipelineOptions> tune)
      throws Exception {
    FailureInjector.Plan plan =
        FailureInjector.random(seed, failures, Math.max(1, totalRows / 20), totalRows * 9 / 10);
    LOG.info("Failure plan: {}", plan);
    String logId = UUID.randomUUID().toString();
    EmitLog log = EmitLog.create(logId, false);
    BooleanSupplier crashesDone = untilCrashesDone;
    untilCrashesDone = null;
    if (crashesDone != null) {
      // below the 80 % after which the suites inject no crash (the input must not end meanwhile)
      log.brake(totalRows * 72 / 100, BRAKE_ROWS_PER_SECOND, crashesDone, BRAKE_AT_MOST);
    }
    runningLog = log;
    OrdersSource source =
        OrdersSource.of(orders)
            .withTotalRows(totalRows)
            .withRowsPerSecond(rowsPerSecond)
            .withEmitLog(logId);
    List<TableSpec> tables = tables(sinks);
    TableView view = tableView;
    tableView = null;
    Meanwhile action = meanwhile;
    meanwhile = null;
    LiveReader live = null;
    try (LocalFlinkCluster cluster = LocalFlinkCluster.start(dir.resolve("flink"), PARALLELISM)) {
      FlinkPipelineOptions options = options(cluster, "failures");
      tune.accept(options);
      JobID job = cluster.submit(pipeline(options, source, plan, sinks));
      if (view == null) {
        live = LiveReader.start(tables, orders, totalRows);
      }
      CompletableFuture<Void> meanwhile = startMeanwhile(action, cluster, job, log);
      RunResult run =
          awaitCompletion(cluster, job, log, sinks, totalRows, Duration.ofSeconds(3), timeout);
      meanwhile.get(timeout.toSeconds(), TimeUnit.SECONDS);
      LOG.info("{}; {} rows emitted; {}", run, log.emissions(), plan);
      Map<String, List<String>> seen =
          live == null ? Map.of() : stopLiveReader(live, sinks, "failure seed " + seed);
      List<TableSpec> checked = new ArrayList<>();
      for (TableSpec table : tables) {
        checked.add(view == null ? table : view.localView(table));
      }
      return new FailureOutcome(
          plan, run, check(checked, orders, totalRows), log.emissions(), seen);
    } finally {
      if (live != null) {
        live.close();
      }
      runningLog = null;
      FailureInjector.forget(plan);
      EmitLog.remove(logId);
    }
  }

  /** What a test does to the job's surroundings while it runs (e.g. kill a storage server). */
  @FunctionalInterface
  interface Meanwhile {
    void run(LocalFlinkCluster cluster, JobID job, EmitLog log) throws Exception;
  }

  private static volatile Meanwhile meanwhile;

  /**
   * Makes the next {@link #runWithFailures} run {@code action} on a thread of its own once the job
   * is submitted; the run waits for it and fails with its failure.
   */
  static void meanwhile(Meanwhile action) {
    meanwhile = action;
  }

  private static CompletableFuture<Void> startMeanwhile(
      Meanwhile action, LocalFlinkCluster cluster, JobID job, EmitLog log) {
    if (action == null) {
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFuture.runAsync(
        () -> {
          try {
            action.run(cluster, job, log);
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        });
  }

  /**
   * The source's rate while it waits for the planned crashes (see {@link #slowFrom72PercentUntil}).
   */
  private static final double BRAKE_ROWS_PER_SECOND = 25;

  /** The longest the source waits for them: the suite then fails, naming the crash not reached. */
  private static final Duration BRAKE_AT_MOST = Duration.ofSeconds(90);

  private static volatile BooleanSupplier untilCrashesDone;

  /** The tables of a store as local files, for the checks (see {@link #checkThrough}). */
  interface TableView {
    TableSpec localView(TableSpec table) throws IOException;
  }

  private static volatile TableView tableView;

  /**
   * Makes the next {@link #runWithFailures} check its tables (written to a store) through {@code
   * view}, after the job: the independent readers read local files. The reader during the run is
   * left out then; it reads local tables.
   */
  static void checkThrough(TableView view) {
    tableView = view;
  }

  /**
   * Makes the next {@link #runWithFailures} slow its source to a trickle (25 rows/s) from 72 % of
   * its rows on until {@code crashesDone} holds (at most {@link #BRAKE_AT_MOST}). A suite that must
   * crash at each of several sink steps, and only while the input goes on, uses it: on a loaded
   * machine checkpoints come less often, so the steps come later in the run, and the input could
   * otherwise end before the last of them (the test then failed although nothing was wrong).
   */
  static void slowFrom72PercentUntil(BooleanSupplier crashesDone) {
    untilCrashesDone = crashesDone;
  }

  /**
   * The emit log of the job {@link #runWithFailures} is running (null when none): lets other
   * failure hooks (e.g. in the sink) tell whether the source is still emitting.
   */
  static volatile EmitLog runningLog;

  /** Tables of {@code sinks}. */
  static List<TableSpec> tables(List<SinkUnderTest> sinks) {
    List<TableSpec> tables = new ArrayList<>();
    sinks.forEach(s -> tables.add(s.table));
    return tables;
  }

  /** Checks every table (in order) against rows {@code 0 .. totalRows-1}. */
  static Map<String, ExactlyOnceCheck> check(List<TableSpec> tables, Orders orders, long totalRows)
      throws Exception {
    Map<String, ExactlyOnceCheck> checks = new LinkedHashMap<>();
    for (TableSpec table : tables) {
      ExactlyOnceCheck check = ExactlyOnceCheck.of(table, orders, totalRows);
      LOG.info("{}", check);
      checks.put(table.name(), check);
    }
    return checks;
  }

  /** Waits until the source has emitted {@code rows} rows (replays included). */
  static void awaitEmitted(EmitLog log, long rows, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (log.emissions() < rows) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "Source emitted only " + log.emissions() + " < " + rows + " rows in " + timeout);
      }
      Thread.sleep(20);
    }
  }

  static Path tablePath(Path dir, String name) {
    return dir.resolve("tables").resolve(name);
  }
}
