package dev.filetables.tests.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.filetables.testfixtures.SessionCluster;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The project's scripted Flink session cluster ({@code runner-configs/flink-cluster/start.sh}, a
 * JobManager and TaskManagers in their own JVMs) on free loopback ports, driven as an operator
 * drives one: jobs are submitted by a client JVM started from the job jar, and watched and stopped
 * through Flink's REST API only.
 */
final class ScriptedFlinkCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScriptedFlinkCluster.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SessionCluster cluster;

  /** What start.sh's environment got beyond this JVM's: the client JVMs get it too. */
  private final Map<String, String> extraEnv;

  private ScriptedFlinkCluster(SessionCluster cluster, Map<String, String> extraEnv) {
    this.cluster = cluster;
    this.extraEnv = Map.copyOf(extraEnv);
  }

  /** The project root. */
  static Path projectDir() {
    return SessionCluster.home();
  }

  /** The job jar {@code mvn package} built in the pipelines module. */
  static Path jobJar() throws IOException {
    return SessionCluster.jobJar();
  }

  /**
   * Starts the cluster with its work directory {@code workDir} (logs, pids, checkpoints,
   * savepoints).
   */
  static ScriptedFlinkCluster start(Path workDir) throws Exception {
    return new ScriptedFlinkCluster(SessionCluster.start(workDir), Map.of());
  }

  /**
   * Starts the cluster with {@code taskManagers} TaskManagers whose JVMs (and the JobManager's) get
   * {@code extraEnv} on top of this JVM's environment, as do the clients that submit jobs (an
   * operator exports storage settings once, in the shell that starts the cluster and submits).
   */
  static ScriptedFlinkCluster start(Path workDir, int taskManagers, Map<String, String> extraEnv)
      throws Exception {
    return new ScriptedFlinkCluster(
        SessionCluster.start(workDir, taskManagers, extraEnv), extraEnv);
  }

  /** The cluster's processes and REST API: TaskManager pids, registered TaskManagers. */
  SessionCluster session() {
    return cluster;
  }

  int restPort() {
    return cluster.restPort();
  }

  Path workDir() {
    return cluster.workDir();
  }

  /** Flink's jars as the start script resolved them: the client needs them next to the job jar. */
  String flinkClassPath() throws IOException {
    return Files.readString(
            projectDir().resolve("runner-configs/flink-cluster/target/classpath.txt"))
        .strip();
  }

  /**
   * Submits a job by running {@code mainClass} with {@code args} in a new JVM whose class path is
   * the job jar plus Flink (what {@code flink run} gives a job's main method), detached; returns
   * the id of the job named {@code jobName} once the cluster knows it.
   */
  String submit(String mainClass, List<String> args, String jobName) throws Exception {
    Path log = clientLog(jobName);
    long start = System.nanoTime();
    Process process = startClientProcess(mainClass, args, jobName, log);
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new TimeoutException(
          "submission of " + jobName + " still running after 5 min; log " + log);
    }
    if (process.exitValue() != 0) {
      throw new AssertionError(
          "submission of "
              + jobName
              + " failed (exit "
              + process.exitValue()
              + "):\n"
              + tail(log, 40));
    }
    LOG.info("Submitted {} in {} ms", jobName, (System.nanoTime() - start) / 1_000_000);
    return jobId(jobName)
        .orElseThrow(() -> new AssertionError("the cluster has no job " + jobName));
  }

  /**
   * Starts a client that stays with its job, as {@code filetables run} of a watched source does (it
   * waits for the job's end to publish what a drained job left), and returns once the cluster knows
   * the job named {@code jobName}. Closing the client ends its JVM, not the job.
   */
  Client startClient(String mainClass, List<String> args, String jobName) throws Exception {
    Path log = clientLog(jobName);
    long start = System.nanoTime();
    Process process = startClientProcess(mainClass, args, jobName, log);
    Client client = new Client(process, log);
    try {
      long deadline = start + TimeUnit.MINUTES.toNanos(5);
      Optional<String> id = jobId(jobName);
      while (id.isEmpty()) {
        if (!process.isAlive()) {
          throw new AssertionError(
              "the client of "
                  + jobName
                  + " ended (exit "
                  + process.exitValue()
                  + ") before the cluster had the job:\n"
                  + tail(log, 40));
        }
        if (System.nanoTime() > deadline) {
          throw new TimeoutException(
              "the cluster has no job " + jobName + " 5 min after its client started; log " + log);
        }
        Thread.sleep(250);
        id = jobId(jobName);
      }
      client.jobId = id.get();
      LOG.info(
          "Client of {} started; job {} submitted in {} ms",
          jobName,
          client.jobId,
          (System.nanoTime() - start) / 1_000_000);
      return client;
    } catch (Exception | AssertionError e) {
      client.close();
      throw e;
    }
  }

  /** A client JVM that stays with its job; {@link #close} ends the JVM (SIGKILL if need be). */
  static final class Client implements AutoCloseable {
    private final Process process;
    private final Path log;
    private String jobId;

    private Client(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    String jobId() {
      return jobId;
    }

    /** What the client printed so far. */
    String log() throws IOException {
      return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Ends the client's JVM with {@code kill -9}, as a crash would. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private Path clientLog(String jobName) {
    return workDir().resolve("log").resolve("submit-" + jobName + ".log");
  }

  /** The client JVM: the job's main class on the job jar plus Flink, against this cluster. */
  private Process startClientProcess(String mainClass, List<String> args, String jobName, Path log)
      throws IOException {
    Path jar = jobJar();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.util=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-cp");
    command.add(jar + File.pathSeparator + flinkClassPath());
    command.add(mainClass);
    // the job's own arguments first: a command line's command word ("run") must lead
    command.addAll(args);
    command.add("--preset=flink-cluster");
    command.add("--flinkMaster=" + cluster.master());
    command.add("--filesToStage=" + jar);
    command.add("--attachedMode=false");
    command.add("--jobName=" + jobName);
    LOG.info("Submitting {}: {}", jobName, String.join(" ", command));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(projectDir().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(extraEnv);
    return builder.start();
  }

  /** GET /jobs/overview: the id of the newest job of that name. */
  Optional<String> jobId(String jobName) throws Exception {
    String id = null;
    long newest = Long.MIN_VALUE;
    for (JsonNode job : get("/jobs/overview").path("jobs")) {
      if (jobName.equals(job.path("name").asText()) && job.path("start-time").asLong() > newest) {
        newest = job.path("start-time").asLong();
        id = job.path("jid").asText();
      }
    }
    return Optional.ofNullable(id);
  }

  /** GET /jobs/:id: RUNNING, FINISHED, FAILED, ... */
  String state(String jobId) throws Exception {
    return get("/jobs/" + jobId).path("state").asText();
  }

  /** GET /jobs/:id/checkpoints: completed checkpoints so far. */
  long completedCheckpoints(String jobId) throws Exception {
    return get("/jobs/" + jobId + "/checkpoints").path("counts").path("completed").asLong();
  }

  /** Waits until the job is RUNNING and has completed {@code count} checkpoints. */
  void awaitCheckpoints(String jobId, long count, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String state = state(jobId);
      if (isTerminal(state)) {
        throw new AssertionError(
            "job "
                + jobId
                + " ended "
                + state
                + " before "
                + count
                + " checkpoints"
                + failure(jobId));
      }
      if ("RUNNING".equals(state) && completedCheckpoints(jobId) >= count) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "job "
                + jobId
                + " ("
                + state
                + ") has not completed "
                + count
                + " checkpoints in "
                + timeout);
      }
      Thread.sleep(250);
    }
  }

  /**
   * POST /jobs/:id/stop (stop with a savepoint; {@code drain}: the watermark first moves to the end
   * of time, so event-time work such as partition commits completes), then polls GET
   * /jobs/:id/savepoints/:trigger until the savepoint is complete; returns its location.
   */
  String stopWithSavepoint(String jobId, Path savepointDir, boolean drain, Duration timeout)
      throws Exception {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "targetDirectory",
                savepointDir.toUri().toString(),
                "drain",
                drain,
                "formatType",
                "CANONICAL"));
    String state = state(jobId);
    if (!"RUNNING".equals(state)) {
      throw new AssertionError(
          "job " + jobId + " is " + state + ", not RUNNING: nothing to stop" + failure(jobId));
    }
    String trigger = post("/jobs/" + jobId + "/stop", body).path("request-id").asText();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode status = get("/jobs/" + jobId + "/savepoints/" + trigger);
      if ("COMPLETED".equals(status.path("status").path("id").asText())) {
        JsonNode operation = status.path("operation");
        if (operation.has("failure-cause")) {
          throw new AssertionError(
              "stop with savepoint failed: " + operation.path("failure-cause"));
        }
        return operation.path("location").asText();
      }
      Thread.sleep(250);
    }
    throw new TimeoutException("savepoint of " + jobId + " not complete in " + timeout);
  }

  /** Waits until the job has ended and returns its final state. */
  String awaitTermination(String jobId, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      String state = state(jobId);
      if (isTerminal(state)) {
        return state;
      }
      Thread.sleep(500);
    }
    throw new TimeoutException("job " + jobId + " still " + state(jobId) + " after " + timeout);
  }

  /** GET /jobs/:id/exceptions: the root exception of a failed job, for messages. */
  String failure(String jobId) {
    try {
      String root = get("/jobs/" + jobId + "/exceptions").path("root-exception").asText("");
      return root.isEmpty() ? "" : ": " + root;
    } catch (Exception e) {
      return "";
    }
  }

  static boolean isTerminal(String state) {
    return List.of("FINISHED", "FAILED", "CANCELED").contains(state);
  }

  private JsonNode get(String path) throws Exception {
    return cluster.get(path);
  }

  private JsonNode post(String path, String json) throws Exception {
    return cluster.post(path, json);
  }

  /** Stops the cluster's processes (stop.sh), whatever state they are in. */
  @Override
  public void close() throws Exception {
    cluster.close();
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
