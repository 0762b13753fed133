package dev.filetables.testfixtures;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The scripted Flink session cluster ({@code runner-configs/flink-cluster/start.sh}: JobManager and
 * TaskManagers in their own JVMs) on free loopback ports, for benchmarks and tests: start, look
 * jobs up and cancel them through the REST API, stop. Jobs are submitted with Beam's FlinkRunner
 * against {@link #master()}, staging {@link #jobJar()}.
 *
 * <p>The n-th TaskManager (from 1) has the resource id {@code taskmanager-<n>}, which the REST API
 * lists, and its pid in {@code pid/taskmanager-<n>.pid} of the work directory: a test can kill one
 * ({@link #taskManagerPids()}) and watch the cluster notice ({@link #registeredTaskManagers()}).
 */
@Internal
public final class SessionCluster implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The variables start.sh is given by {@link #start}, not by its caller. */
  private static final List<String> OWN_VARIABLES =
      List.of("FLINK_CLUSTER_DIR", "FLINK_REST_PORT", "FLINK_RPC_PORT", "FLINK_TASK_MANAGERS");

  private final Path home;
  private final Path workDir;
  private final int restPort;
  private final int taskManagers;
  private final Map<String, String> env;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private SessionCluster(
      Path home, Path workDir, int restPort, int taskManagers, Map<String, String> env) {
    this.home = home;
    this.workDir = workDir;
    this.restPort = restPort;
    this.taskManagers = taskManagers;
    this.env = env;
  }

  /** The project root: {@code filetables.home} (set by bin/filetables) or the working directory. */
  public static Path home() {
    String home = System.getProperty("filetables.home");
    Path dir = Path.of(home != null ? home : "").toAbsolutePath();
    return Files.isDirectory(dir.resolve("runner-configs")) ? dir : dir.getParent();
  }

  /** The shaded job jar of the pipelines module. */
  public static Path jobJar() throws IOException {
    Path target = home().resolve("pipelines").resolve("target");
    if (Files.isDirectory(target)) {
      try (DirectoryStream<Path> jars =
          Files.newDirectoryStream(target, "filetables-pipelines-bundled-*.jar")) {
        for (Path jar : jars) {
          return jar;
        }
      }
    }
    throw new IOException(
        "no job jar in " + target + ": build it with `mvn -pl pipelines -am package -DskipTests`");
  }

  /**
   * Starts the cluster (start.sh) with one TaskManager and its work directory (logs, pids,
   * checkpoints, savepoints).
   */
  public static SessionCluster start(Path workDir) throws Exception {
    return start(workDir, 1, Map.of());
  }

  /**
   * Starts the cluster (start.sh) with {@code taskManagers} TaskManagers and its work directory;
   * returns once all have registered. {@code extraEnv} is added to the environment of start.sh,
   * which its JobManager and TaskManagers inherit (e.g. {@code AWS_ACCESS_KEY_ID}, {@code
   * HADOOP_CONF_DIR}); the cluster's own variables ({@code FLINK_CLUSTER_DIR}, the ports, {@code
   * FLINK_TASK_MANAGERS}) are chosen here.
   */
  public static SessionCluster start(Path workDir, int taskManagers, Map<String, String> extraEnv)
      throws Exception {
    if (taskManagers < 1) {
      throw new IllegalArgumentException(
          "a session cluster needs at least one TaskManager, not " + taskManagers);
    }
    for (String name : OWN_VARIABLES) {
      if (extraEnv.containsKey(name)) {
        throw new IllegalArgumentException(
            name + " is chosen by SessionCluster.start: leave it out of the extra environment");
      }
    }
    int restPort = freePort();
    int rpcPort = freePort();
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("FLINK_CLUSTER_DIR", workDir.toString());
    env.put("FLINK_REST_PORT", Integer.toString(restPort));
    env.put("FLINK_RPC_PORT", Integer.toString(rpcPort));
    env.put("FLINK_TASK_MANAGERS", Integer.toString(taskManagers));
    SessionCluster cluster =
        new SessionCluster(home(), workDir, restPort, taskManagers, Map.copyOf(env));
    try {
      cluster.script("start.sh");
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** {@code --flinkMaster}. */
  public String master() {
    return "127.0.0.1:" + restPort;
  }

  public Path workDir() {
    return workDir;
  }

  public int restPort() {
    return restPort;
  }

  /**
   * The pids start.sh recorded for the TaskManagers it started, the n-th TaskManager's ({@code
   * taskmanager-<n>}) at index n - 1; a pid stays listed after its process died.
   */
  public List<Long> taskManagerPids() throws IOException {
    List<Long> pids = new ArrayList<>();
    for (int n = 1; n <= taskManagers; n++) {
      pids.add(pid("taskmanager-" + n));
    }
    return pids;
  }

  /** The pid start.sh recorded for the JobManager. */
  public long jobManagerPid() throws IOException {
    return pid("jobmanager");
  }

  private long pid(String process) throws IOException {
    Path file = workDir.resolve("pid").resolve(process + ".pid");
    if (!Files.exists(file)) {
      throw new IOException("no pid file " + file + ": was the cluster stopped?");
    }
    return Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip());
  }

  /**
   * GET /taskmanagers: the resource ids ({@code taskmanager-<n>}) of the TaskManagers registered
   * now, sorted. A killed TaskManager stays listed until the cluster notices (heartbeats,
   * config.yaml).
   */
  public List<String> registeredTaskManagers() throws Exception {
    List<String> ids = new ArrayList<>();
    for (JsonNode taskManager : get("/taskmanagers").path("taskmanagers")) {
      ids.add(taskManager.path("id").asText());
    }
    Collections.sort(ids);
    return ids;
  }

  /**
   * Waits until exactly {@code count} TaskManagers are registered (after one was killed, say);
   * returns how long that took.
   */
  public Duration awaitTaskManagers(int count, Duration timeout) throws Exception {
    long start = System.nanoTime();
    List<String> registered = registeredTaskManagers();
    while (registered.size() != count) {
      if (System.nanoTime() - start > timeout.toNanos()) {
        throw new IllegalStateException(
            count + " TaskManagers expected, " + registered + " registered after " + timeout);
      }
      Thread.sleep(100);
      registered = registeredTaskManagers();
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /** The id of the newest job named {@code name}, once the cluster knows it. */
  Optional<String> jobId(String name) throws Exception {
    String id = null;
    long newest = Long.MIN_VALUE;
    for (JsonNode job : get("/jobs/overview").path("jobs")) {
      if (name.equals(job.path("name").asText()) && job.path("start-time").asLong() > newest) {
        newest = job.path("start-time").asLong();
        id = job.path("jid").asText();
      }
    }
    return Optional.ofNullable(id);
  }

  /** Waits until the job named {@code name} exists and all its tasks run; returns its id. */
  public String awaitRunning(String name, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> id = jobId(name);
      if (id.isPresent()) {
        JsonNode job = get("/jobs/" + id.get());
        String state = job.path("state").asText();
        if (List.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
          throw new IllegalStateException("job " + name + " ended " + state + failure(id.get()));
        }
        boolean allRunning = job.path("vertices").size() > 0;
        for (JsonNode vertex : job.path("vertices")) {
          allRunning &= "RUNNING".equals(vertex.path("status").asText());
        }
        if ("RUNNING".equals(state) && allRunning) {
          return id.get();
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("job " + name + " not running after " + timeout);
  }

  public String state(String jobId) throws Exception {
    return get("/jobs/" + jobId).path("state").asText();
  }

  public long completedCheckpoints(String jobId) throws Exception {
    return get("/jobs/" + jobId + "/checkpoints").path("counts").path("completed").asLong();
  }

  public String failure(String jobId) {
    try {
      String root = get("/jobs/" + jobId + "/exceptions").path("root-exception").asText("");
      return root.isEmpty() ? "" : ": " + root;
    } catch (Exception e) {
      return "";
    }
  }

  /** PATCH /jobs/:id?mode=cancel, then waits until the job has ended. */
  public void cancel(String jobId) throws Exception {
    send(
        HttpRequest.newBuilder(uri("/jobs/" + jobId + "?mode=cancel"))
            .method("PATCH", HttpRequest.BodyPublishers.noBody()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline
        && !List.of("CANCELED", "FAILED", "FINISHED").contains(state(jobId))) {
      Thread.sleep(200);
    }
  }

  /** GET of a Flink REST path, e.g. {@code /jobs/overview}. */
  public JsonNode get(String path) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  /** POST of a JSON body to a Flink REST path, e.g. {@code /jobs/:id/stop}. */
  public JsonNode post(String path, String json) throws Exception {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  private JsonNode send(HttpRequest.Builder request) throws Exception {
    HttpResponse<String> response =
        http.send(
            request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IOException(
          "Flink REST "
              + response.request().uri()
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
    return response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
  }

  private URI uri(String path) {
    return URI.create("http://" + master() + path);
  }

  private void script(String name) throws Exception {
    Files.createDirectories(workDir);
    Path log = workDir.resolve(name + ".out");
    ProcessBuilder builder =
        new ProcessBuilder(
                "bash", home().resolve("runner-configs/flink-cluster").resolve(name).toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IOException(name + " still running after 5 min; see " + log);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          name
              + " failed (exit "
              + process.exitValue()
              + "):\n"
              + Files.readString(log, StandardCharsets.UTF_8));
    }
  }

  /** Stops the cluster's processes (stop.sh), whatever state they are in. */
  @Override
  public void close() throws Exception {
    script("stop.sh");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
