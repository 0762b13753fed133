package dev.filetables.pipelines.flink;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.messages.FlinkJobTerminatedWithoutCancellationException;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * A Flink 1.19 MiniCluster in this JVM that Beam pipelines are submitted to as to a remote cluster
 * ({@code --flinkMaster=localhost:<rest port>}), so that a caller holds the job: it can watch
 * checkpoints, stop the job with a savepoint, cancel it, and start a new job from a savepoint or a
 * retained checkpoint ({@code --savepointPath}), which Beam only applies to remote submissions.
 *
 * <p>Jobs are submitted with one empty staged jar: Beam stages the whole class path when {@code
 * filesToStage} is empty, and a job class loader holding copies of this process's classes would
 * give the job its own copies of static state (failure counters, emit logs). With an empty jar
 * every class comes from the parent class loader, as with {@code [local]}.
 *
 * <p>Checkpoints and savepoints go to directories under {@code workDir}.
 */
@Internal
public final class LocalFlinkCluster implements AutoCloseable {
  private final MiniCluster cluster;
  private final Path checkpointDir;
  private final Path savepointDir;
  private final Path emptyJar;
  private final int restPort;

  private LocalFlinkCluster(
      MiniCluster cluster, Path checkpointDir, Path savepointDir, Path emptyJar, int restPort) {
    this.cluster = cluster;
    this.checkpointDir = checkpointDir;
    this.savepointDir = savepointDir;
    this.emptyJar = emptyJar;
    this.restPort = restPort;
  }

  /**
   * Starts a cluster of one task manager with {@code slots} slots, REST on a random loopback port.
   */
  public static LocalFlinkCluster start(Path workDir, int slots) throws Exception {
    return start(workDir, slots, new Configuration());
  }

  /**
   * Like {@link #start(Path, int)}, with {@code extra} settings on top of this class's (e.g. {@code
   * state.checkpoints.num-retained}).
   */
  public static LocalFlinkCluster start(Path workDir, int slots, Configuration extra)
      throws Exception {
    Path checkpoints = Files.createDirectories(workDir.resolve("checkpoints"));
    Path savepoints = Files.createDirectories(workDir.resolve("savepoints"));
    Path jar = writeEmptyJar(workDir.resolve("empty-job.jar"));

    Configuration config = new Configuration();
    config.set(RestOptions.ADDRESS, "127.0.0.1");
    config.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    config.set(RestOptions.BIND_PORT, "0");
    config.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
    config.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepoints.toUri().toString());
    config.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    config.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    config.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
    config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("64m"));
    config.addAll(extra);

    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(config)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    cluster.start();
    URI rest = cluster.getRestAddress().get(30, TimeUnit.SECONDS);
    return new LocalFlinkCluster(cluster, checkpoints, savepoints, jar, rest.getPort());
  }

  private static Path writeEmptyJar(Path path) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream out = Files.newOutputStream(path);
        JarOutputStream jar = new JarOutputStream(out, manifest)) {
      jar.flush();
    }
    return path;
  }

  /** {@code localhost:<rest port>}, the {@code --flinkMaster} of this cluster. */
  public String master() {
    return "localhost:" + restPort;
  }

  public Path checkpointDir() {
    return checkpointDir;
  }

  public Path savepointDir() {
    return savepointDir;
  }

  MiniCluster miniCluster() {
    return cluster;
  }

  /**
   * Options that submit a pipeline to this cluster, detached, under {@code jobName} (which {@link
   * #submit} uses to find the job, so make it unique per submission).
   */
  public FlinkPipelineOptions options(String jobName) {
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    configure(options, jobName);
    return options;
  }

  /** Points existing options at this cluster (runner, master, staging, detached, job name). */
  public void configure(FlinkPipelineOptions options, String jobName) {
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster(master());
    options.setFilesToStage(List.of(emptyJar.toString()));
    options.setAttachedMode(false);
    options.setJobName(jobName);
  }

  /** Runs a pipeline built with {@link #options} and returns the id of the job it started. */
  public JobID submit(Pipeline pipeline) throws Exception {
    String jobName = pipeline.getOptions().getJobName();
    pipeline.run();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Collection<JobStatusMessage> jobs = cluster.listJobs().get(10, TimeUnit.SECONDS);
      List<JobID> matching =
          jobs.stream()
              .filter(j -> j.getJobName().equals(jobName))
              .map(JobStatusMessage::getJobId)
              .collect(Collectors.toList());
      if (matching.size() > 1) {
        throw new IllegalStateException("Two jobs are named " + jobName + "; use unique job names");
      }
      if (matching.size() == 1) {
        return matching.get(0);
      }
      Thread.sleep(50);
    }
    throw new TimeoutException("Job " + jobName + " did not appear on the cluster within 30 s");
  }

  public JobStatus status(JobID job) throws Exception {
    return cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
  }

  public AccessExecutionGraph executionGraph(JobID job) throws Exception {
    return cluster.getExecutionGraph(job).get(10, TimeUnit.SECONDS);
  }

  /**
   * Waits until every task of the job runs (or has finished), which a savepoint needs; fails if the
   * job ends first.
   */
  public void awaitAllTasksRunning(JobID job, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      AccessExecutionGraph graph = executionGraph(job);
      if (graph.getState().isGloballyTerminalState()) {
        throw new IllegalStateException(
            "Job " + job + " ended (" + graph.getState() + ") before running");
      }
      boolean allRunning = graph.getState() == JobStatus.RUNNING;
      for (AccessExecutionVertex vertex : graph.getAllExecutionVertices()) {
        ExecutionState state = vertex.getExecutionState();
        allRunning &= state == ExecutionState.RUNNING || state == ExecutionState.FINISHED;
      }
      if (allRunning) {
        return;
      }
      Thread.sleep(50);
    }
    throw new TimeoutException("Tasks of job " + job + " not all running after " + timeout);
  }

  /**
   * How often the job's tasks were restarted so far: the highest attempt number of any task (a
   * failover deploys new attempts of the tasks it restarts). Two failures during one failover count
   * once.
   */
  public int restarts(JobID job) throws Exception {
    AccessExecutionGraph graph =
        status(job).isGloballyTerminalState()
            ? cluster.getArchivedExecutionGraph(job).get(10, TimeUnit.SECONDS)
            : executionGraph(job);
    int restarts = 0;
    for (AccessExecutionVertex vertex : graph.getAllExecutionVertices()) {
      restarts = Math.max(restarts, vertex.getCurrentExecutionAttempt().getAttemptNumber());
    }
    return restarts;
  }

  /** Completed checkpoints of the job so far (savepoints included). */
  public long completedCheckpoints(JobID job) throws Exception {
    return checkpointStats(job).getCounts().getNumberOfCompletedCheckpoints();
  }

  /** Checkpoint statistics of a running or ended job. */
  public CheckpointStatsSnapshot checkpointStats(JobID job) throws Exception {
    if (status(job).isGloballyTerminalState()) {
      return cluster
          .getArchivedExecutionGraph(job)
          .get(10, TimeUnit.SECONDS)
          .getCheckpointStatsSnapshot();
    }
    return executionGraph(job).getCheckpointStatsSnapshot();
  }

  /** Waits until the job has completed at least {@code count} checkpoints. */
  public void awaitCompletedCheckpoints(JobID job, long count, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (completedCheckpoints(job) < count) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "Job "
                + job
                + " completed "
                + completedCheckpoints(job)
                + " < "
                + count
                + " checkpoints in "
                + timeout);
      }
      if (status(job).isGloballyTerminalState()) {
        throw new IllegalStateException("Job " + job + " ended before " + count + " checkpoints");
      }
      Thread.sleep(50);
    }
  }

  /**
   * Stops the job with a savepoint (sources stop, the savepoint is taken and confirmed to the
   * operators, then the job finishes) and returns the savepoint's path.
   */
  public String stopWithSavepoint(JobID job) throws Exception {
    return cluster
        .stopWithSavepoint(
            job, savepointDir.toUri().toString(), false, SavepointFormatType.CANONICAL)
        .get(60, TimeUnit.SECONDS);
  }

  /**
   * Stops the job with a savepoint after draining it: sources stop and the watermark jumps to the
   * end of time, so event-time work (partition-time commits) completes before the job finishes. The
   * savepoint is for the record; a job restored from it would start with its input ended.
   */
  public String drainWithSavepoint(JobID job) throws Exception {
    return cluster
        .stopWithSavepoint(
            job, savepointDir.toUri().toString(), true, SavepointFormatType.CANONICAL)
        .get(300, TimeUnit.SECONDS);
  }

  /**
   * Cancels the job (no savepoint: like a crash of the whole job) and waits for it to end. A job
   * that finished on its own meanwhile is not an error: callers check its state first, and it can
   * end between that check and the cancel.
   */
  public void cancel(JobID job) throws Exception {
    try {
      cluster.cancelJob(job).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof FlinkJobTerminatedWithoutCancellationException)) {
        throw e;
      }
    }
    awaitTermination(job, Duration.ofSeconds(30));
  }

  /** The job's result once it reaches a terminal state. */
  public JobResult awaitTermination(JobID job, Duration timeout) throws Exception {
    return cluster.requestJobResult(job).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The newest retained checkpoint of a job ({@code <checkpoints>/<job id>/chk-<n>} with its {@code
   * _metadata}), the path to restore from after cancelling it.
   */
  public Optional<Path> latestRetainedCheckpoint(JobID job) throws IOException {
    Path jobDir = checkpointDir.resolve(job.toHexString());
    if (!Files.isDirectory(jobDir)) {
      return Optional.empty();
    }
    try (Stream<Path> entries = Files.list(jobDir)) {
      List<Path> checkpoints = new ArrayList<>();
      entries
          .filter(p -> p.getFileName().toString().startsWith("chk-"))
          .filter(p -> Files.exists(p.resolve("_metadata")))
          .forEach(checkpoints::add);
      return checkpoints.stream()
          .max(
              (a, b) ->
                  Long.compare(
                      Long.parseLong(a.getFileName().toString().substring(4)),
                      Long.parseLong(b.getFileName().toString().substring(4))));
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
