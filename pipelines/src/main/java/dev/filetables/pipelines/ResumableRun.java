package dev.filetables.pipelines;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.transforms.sink.publish.EndOfInputIntents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;

/**
 * A streaming {@code run} on Flink that continues where the previous start of the same command
 * stopped, however it stopped (Ctrl-C, {@code kill -9}, {@code --stop-after}, a crash, a reboot):
 *
 * <ol>
 *   <li>the run's state directory ({@link RunStateDir}) is locked, and its record ({@link
 *       RunRecord}) checked against the command ({@link RunDefinition}): a start that does not fit
 *       is refused before anything is written;
 *   <li>on the embedded default a Flink cluster starts in this JVM ({@link LocalFlinkCluster},
 *       checkpoints in the state directory), to which the job is submitted as to a remote cluster,
 *       because Beam 2.62 applies {@code --savepointPath} only to remote submissions; on a session
 *       cluster, jobs of the run still running there are cancelled first;
 *   <li>the job restores from the run's newest complete checkpoint or savepoint ({@link
 *       RestorePoints}; an explicit {@code --savepointPath} wins), keeps its checkpoints when
 *       cancelled, and writes with the run's write id, so the sink recognises and deletes the
 *       hidden files of the attempt that died;
 *   <li>the job's id is chosen and recorded before it is submitted ({@link FixedJobId}); then the
 *       command waits for the job: {@code --stop-after} and Ctrl-C cancel it, a job that ends by
 *       itself gets the post-job publish and ends the run.
 * </ol>
 */
final class ResumableRun {
  /** The master name runs on the embedded cluster are recorded under. */
  static final String EMBEDDED = "embedded";

  private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(60);
  private static final long POLL_MILLIS = 200;

  /** What the command asks for. */
  static final class Request {
    final CliContext context;
    final FlinkPipelineOptions options;
    final Path stateDir;
    final boolean fresh;
    final RunDefinition definition;
    final TableSpec sink;
    final Function<String, Pipeline> pipelineForWrite;
    final Optional<Duration> stopAfter;
    final String runId;

    /**
     * False when the command only submits to a cluster and returns ({@code --attachedMode=false}).
     */
    final boolean waitForJob;

    Request(
        CliContext context,
        FlinkPipelineOptions options,
        Path stateDir,
        boolean fresh,
        RunDefinition definition,
        TableSpec sink,
        Function<String, Pipeline> pipelineForWrite,
        Optional<Duration> stopAfter,
        String runId,
        boolean waitForJob) {
      this.context = context;
      this.options = options;
      this.stateDir = stateDir;
      this.fresh = fresh;
      this.definition = definition;
      this.sink = sink;
      this.pipelineForWrite = pipelineForWrite;
      this.stopAfter = stopAfter;
      this.runId = runId;
      this.waitForJob = waitForJob;
    }
  }

  /** How the job ended. */
  enum End {
    /** Cancelled by {@code --stop-after} (or Ctrl-C): the same command resumes it. */
    STOPPED,
    /** Ended by itself (a drained job): the run is over. */
    FINISHED,
    /** Submitted and left running ({@code --attachedMode=false} on a cluster). */
    SUBMITTED
  }

  /** What {@link #run} did. */
  static final class Outcome {
    final End end;
    final long elapsedMillis;
    final String jobId;

    Outcome(End end, long elapsedMillis, String jobId) {
      this.end = end;
      this.elapsedMillis = elapsedMillis;
      this.jobId = jobId;
    }
  }

  private final Request request;
  private final CliContext context;
  private final FlinkPipelineOptions options;
  private final boolean embedded;

  private ResumableRun(Request request) {
    this.request = request;
    this.context = request.context;
    this.options = request.options;
    this.embedded = RunnerOptions.LOCAL_MASTER.equals(options.getFlinkMaster());
  }

  /** True when {@code options} run on Flink, embedded or on a cluster ({@code host:port}). */
  static boolean supports(PipelineOptions options) {
    if (!RunnerOptions.FLINK.equals(options.getRunner().getSimpleName())) {
      return false;
    }
    String master = options.as(FlinkPipelineOptions.class).getFlinkMaster();
    return RunnerOptions.LOCAL_MASTER.equals(master) || master.matches(".*:\\d+/?");
  }

  static Outcome run(Request request) throws Exception {
    return new ResumableRun(request).run();
  }

  private Outcome run() throws Exception {
    try (RunStateDir state = RunStateDir.lock(request.stateDir)) {
      RunRecord record = recordToRun(state);
      if (!embedded) {
        FlinkRestClient rest = new FlinkRestClient(options.getFlinkMaster());
        rest.checkReachable();
        cancelRunningJobs(record, rest);
      }
      Optional<String> restore = explicitRestore();
      if (restore.isEmpty()) {
        Optional<RestorePoints.Point> point = RestorePoints.newestOfRun(record.jobs);
        restore = point.map(p -> p.path.toUri().toString());
        noteRestore(record, point);
        record = keepOnly(state, record, point.map(p -> p.jobId));
      }
      LocalFlinkCluster cluster = embedded ? startEmbedded(state) : null;
      try {
        FlinkRestClient rest =
            new FlinkRestClient(embedded ? cluster.master() : options.getFlinkMaster());
        record = prepareJob(state, record, rest, cluster);
        options.setSavepointPath(restore.orElse(null));
        state.write(record);
        String jobId = record.lastJob().get().id;
        Pipeline pipeline = request.pipelineForWrite.apply(record.writeUuid);
        return submitAndWait(state, record, pipeline, rest, jobId, restore);
      } finally {
        if (cluster != null) {
          cluster.close();
        }
      }
    }
  }

  /** The record this start continues, or a new one; refuses a state that does not fit. */
  private RunRecord recordToRun(RunStateDir state) throws Exception {
    Optional<RunRecord> previous;
    try {
      previous = state.read();
    } catch (CliException e) {
      if (!request.fresh) {
        throw new CliException(e.getMessage() + "; start over with --fresh");
      }
      state.clear();
      context.note("--fresh: discarded the unreadable state in " + state.dir());
      previous = Optional.empty();
    }
    if (previous.isPresent() && request.fresh) {
      discard(state, previous.get());
      previous = Optional.empty();
    } else if (previous.isPresent()) {
      RunRecord recorded = previous.get();
      if (recorded.finished.isPresent()) {
        throw new CliException(
            "this run ended at "
                + recorded.finished.get()
                + " (its job finished by itself); start it afresh with --fresh (state in "
                + state.dir()
                + ")");
      }
      List<String> differences =
          new ArrayList<>(request.definition.differencesFrom(recorded.definition));
      if (restoresSavepoint()) {
        // a job stopped with a savepoint left no hidden file its state does not name
        differences.removeIf(d -> d.startsWith(RunDefinition.PARALLELISM + " "));
      }
      if (!differences.isEmpty()) {
        throw new CliException(misfit(state.dir(), differences));
      }
      if (!request.definition.facts().equals(recorded.definition.facts())) {
        context.note(
            "rescaling the run from the savepoint to parallelism " + options.getParallelism());
        RunRecord rescaled = recorded.withDefinition(request.definition);
        state.write(rescaled);
        return rescaled;
      }
    }
    if (previous.isPresent()) {
      return previous.get();
    }
    RunRecord started = RunRecord.start(request.definition);
    state.write(started);
    context.note(
        "a new run: its state is kept in "
            + state.dir()
            + " (start the same command again to resume it, --fresh to start over)");
    return started;
  }

  /** True when {@code --savepointPath} names a savepoint (not a retained checkpoint). */
  private boolean restoresSavepoint() {
    String given = options.getSavepointPath();
    if (given == null || given.isBlank()) {
      return false;
    }
    String name = given.replaceFirst("/+$", "");
    return name.substring(name.lastIndexOf('/') + 1).startsWith("savepoint-");
  }

  /** One line naming what differs and how to go on. */
  static String misfit(Path stateDir, List<String> differences) {
    int shown = Math.min(3, differences.size());
    String listed = String.join("; ", differences.subList(0, shown));
    if (differences.size() > shown) {
      listed += "; and " + (differences.size() - shown) + " more";
    }
    return "the run's state in "
        + stateDir
        + " does not fit this command: "
        + listed
        + ". Run the command it was started with to resume it, start over with --fresh (the"
        + " sink keeps what was published), or use another --state-dir for a separate run";
  }

  /**
   * {@code --fresh} with a previous run: its cluster jobs are stopped, its hidden files in the sink
   * deleted (rows in them were never visible, and a fresh run reads its input anew), its state
   * directory emptied.
   */
  private void discard(RunStateDir state, RunRecord previous) throws Exception {
    if (!embedded) {
      FlinkRestClient rest = new FlinkRestClient(options.getFlinkMaster());
      rest.checkReachable();
      cancelRunningJobs(previous, rest);
    }
    List<Path> hidden = EndOfInputIntents.hiddenFilesOf(request.sink, previous.writeUuid);
    for (Path file : hidden) {
      Files.deleteIfExists(file);
    }
    state.clear();
    context.note(
        "--fresh: discarded the previous run's state ("
            + previous.jobs.size()
            + " job(s), write "
            + previous.writeUuid
            + ") and its "
            + hidden.size()
            + " hidden file(s) in the sink; what it published stays");
  }

  /** Jobs of the run that still run on the cluster (their command was killed) are cancelled. */
  private void cancelRunningJobs(RunRecord record, FlinkRestClient rest) throws Exception {
    for (RunRecord.Job job : record.jobs) {
      if (!job.master.equals(rest.master())) {
        continue;
      }
      Optional<String> jobState = rest.state(job.id);
      if (!FlinkRestClient.isOver(jobState)) {
        context.note(
            "job "
                + job.id
                + " of this run still runs on "
                + rest.master()
                + " ("
                + jobState.get()
                + "): cancelling it to resume from its latest checkpoint");
        Optional<String> after = rest.cancel(job.id, CANCEL_TIMEOUT);
        if (!FlinkRestClient.isOver(after)) {
          throw new CliException(
              "job " + job.id + " on " + rest.master() + " did not end after cancelling it");
        }
      }
    }
  }

  /** {@code --savepointPath}, if given: it wins over the run's own checkpoints. */
  private Optional<String> explicitRestore() {
    String given = options.getSavepointPath();
    if (given == null || given.isBlank()) {
      return Optional.empty();
    }
    context.note("restoring from " + given + " (--savepointPath)");
    return Optional.of(given);
  }

  private void noteRestore(RunRecord record, Optional<RestorePoints.Point> point) {
    if (point.isPresent()) {
      context.note(
          "resuming the run from its "
              + point.get().describe()
              + " (write "
              + record.writeUuid
              + ")");
    } else if (!record.jobs.isEmpty()) {
      context.note(
          "no complete checkpoint of this run's earlier job(s) was found: starting from the"
              + " beginning (nothing was published without one)");
    }
  }

  /**
   * The record without the jobs other than {@code keep} (the one restored from): older ones are
   * superseded, newer ones never completed a checkpoint. Their checkpoint directories in the state
   * directory are deleted; a cluster's directories elsewhere are left to its operator.
   */
  private static RunRecord keepOnly(RunStateDir state, RunRecord record, Optional<String> keep)
      throws IOException {
    String local = RunDefinition.normalizedPath(state.checkpoints().toString());
    List<RunRecord.Job> kept = new ArrayList<>();
    for (RunRecord.Job job : record.jobs) {
      if (keep.isPresent() && keep.get().equals(job.id)) {
        kept.add(job);
      } else if (job.checkpoints.isPresent() && job.checkpoints.get().equals(local)) {
        RunStateDir.deleteRecursively(state.checkpoints().resolve(job.id));
      }
    }
    return record.withJobs(kept);
  }

  private LocalFlinkCluster startEmbedded(RunStateDir state) throws Exception {
    Configuration extra = new Configuration();
    // two, not one: a restore can fall back to the older one by hand if the newest is damaged
    extra.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 2);
    int parallelism = options.getParallelism() == null ? 1 : Math.max(1, options.getParallelism());
    return LocalFlinkCluster.start(state.dir(), parallelism, extra);
  }

  /** Points the options at the cluster, fixes the job id and the restore; records the job. */
  private RunRecord prepareJob(
      RunStateDir state, RunRecord record, FlinkRestClient rest, LocalFlinkCluster cluster)
      throws Exception {
    String jobId = FixedJobId.next();
    Optional<String> checkpoints;
    Optional<String> savepoints;
    String master;
    if (embedded) {
      cluster.configure(options, options.getJobName());
      checkpoints = Optional.of(RunDefinition.normalizedPath(cluster.checkpointDir().toString()));
      savepoints = Optional.of(RunDefinition.normalizedPath(cluster.savepointDir().toString()));
      master = EMBEDDED;
    } else {
      options.setAttachedMode(false); // the command waits itself, or returns at once
      RunnerOptions.stageJobJarOnRemoteCluster(options);
      Map<String, String> config = rest.configuration();
      checkpoints =
          Optional.ofNullable(config.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY.key()));
      savepoints = Optional.ofNullable(config.get(CheckpointingOptions.SAVEPOINT_DIRECTORY.key()));
      master = rest.master();
      if (checkpoints.isEmpty()) {
        context.note(
            "the cluster at "
                + master
                + " sets no "
                + CheckpointingOptions.CHECKPOINTS_DIRECTORY.key()
                + ": a later start cannot find this job's checkpoints by itself (pass"
                + " --savepointPath=<checkpoint> then)");
      }
    }
    options.setFlinkConfDir(
        FixedJobId.write(
                state.dir().resolve("flink-conf"),
                jobId,
                FixedJobId.userConfDir(options.getFlinkConfDir()))
            .toString());
    // checkpoints outlive a cancelled job: the next start restores from them
    options.setExternalizedCheckpointsEnabled(true);
    options.setRetainExternalizedCheckpointsOnCancellation(true);
    return record.withJob(new RunRecord.Job(jobId, master, checkpoints, savepoints, Instant.now()));
  }

  private Outcome submitAndWait(
      RunStateDir state,
      RunRecord record,
      Pipeline pipeline,
      FlinkRestClient rest,
      String jobId,
      Optional<String> restore)
      throws Exception {
    long start = System.nanoTime();
    AtomicBoolean over = new AtomicBoolean();
    AtomicBoolean interrupted = new AtomicBoolean();
    Thread cancelOnExit =
        new Thread(
            () -> {
              if (over.get()) {
                return;
              }
              interrupted.set(true);
              context.note(
                  "stopping: cancelling job "
                      + jobId
                      + "; its last checkpoint is kept and the same command resumes from it");
              try {
                rest.cancel(jobId, Duration.ofSeconds(20));
              } catch (Exception e) {
                context.note("could not cancel job " + jobId + ": " + e.getMessage());
              }
            },
            "filetables-cancel-on-exit");
    if (request.waitForJob) {
      Runtime.getRuntime().addShutdownHook(cancelOnExit);
    }
    try (AutoCloseable progress =
        ProgressLine.startIf(
            context.terminal(),
            context.err(),
            () -> RowCounter.rowsSoFar(request.runId),
            Optional.of(request.sink.options().rootPath().toAbsolutePath().normalize()))) {
      try {
        pipeline.run();
      } catch (RuntimeException e) {
        throw new CliException(
            "could not submit the job to "
                + (embedded ? "the embedded Flink cluster" : rest.master())
                + ": "
                + firstLine(e),
            e);
      }
      if (!request.waitForJob) {
        over.set(true);
        return new Outcome(End.SUBMITTED, elapsed(start), jobId);
      }
      Optional<Long> deadline = request.stopAfter.map(d -> System.nanoTime() + d.toNanos());
      Optional<String> jobState = rest.state(jobId);
      while (!FlinkRestClient.isOver(jobState)) {
        if (deadline.isPresent() && System.nanoTime() > deadline.get()) {
          rest.cancel(jobId, CANCEL_TIMEOUT);
          over.set(true);
          return new Outcome(End.STOPPED, elapsed(start), jobId);
        }
        Thread.sleep(POLL_MILLIS);
        jobState = rest.state(jobId);
      }
      over.set(true);
      if (interrupted.get()) {
        return new Outcome(End.STOPPED, elapsed(start), jobId);
      }
      String ended = jobState.orElse("gone");
      if (ended.equals("FINISHED")) {
        PublishLeftoversCommand.afterJob(
            request.sink, record.writeUuid, PipelineResult.State.DONE, context.out());
        state.write(record.finishedNow());
        return new Outcome(End.FINISHED, elapsed(start), jobId);
      }
      if (ended.equals("FAILED")) {
        throw new CliException(failureMessage(rest.failure(jobId), restore, state.dir()));
      }
      throw new CliException(
          "job "
              + jobId
              + " ended "
              + ended
              + " (stopped outside this command); its last checkpoint is kept: run the same"
              + " command to resume");
    } finally {
      over.set(true);
      if (request.waitForJob && !interrupted.get()) {
        try {
          Runtime.getRuntime().removeShutdownHook(cancelOnExit);
        } catch (IllegalStateException e) {
          // the JVM is shutting down: the hook runs, and sees the job over
        }
      }
    }
  }

  private static long elapsed(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /**
   * One line for a failed job; a restore that Flink refused (state of operators the pipeline does
   * not have, another max parallelism) says what to do.
   */
  static String failureMessage(Optional<String> failure, Optional<String> restore, Path stateDir) {
    String text = failure.orElse("");
    String reason = firstLine(text);
    for (String line : text.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.contains("Cannot map checkpoint/savepoint state")
          || trimmed.contains("Failed to rollback to checkpoint/savepoint")
          || trimmed.contains("The maxParallelism of the restored state")) {
        reason = trimmed.replaceFirst("^(Caused by: )?[\\w.$]+(Exception|Error): ", "");
        if (restore.isPresent()) {
          return "the job could not restore "
              + restore.get()
              + ": "
              + reason
              + ". The pipeline no longer matches the run's state (another FileTables version?):"
              + " start over with --fresh, or use another --state-dir than "
              + stateDir;
        }
      }
    }
    return "the job failed" + (reason.isEmpty() ? "" : ": " + reason);
  }

  private static String firstLine(Throwable e) {
    Throwable root = e;
    List<Throwable> seen = new ArrayList<>();
    while (root.getCause() != null && !seen.contains(root.getCause())) {
      seen.add(root);
      root = root.getCause();
    }
    return firstLine(root.getMessage() == null ? root.toString() : root.getMessage());
  }

  private static String firstLine(String text) {
    String[] lines = text.strip().split("\\R", 2);
    return lines.length == 0 ? "" : lines[0];
  }
}
