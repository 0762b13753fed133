package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.filetables.testfixtures.SessionCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Killing a TaskManager of the scripted session cluster under a running job with {@code kill -9}
 * and waiting for the cluster to notice and the job to recover, through the REST API only: what
 * {@link TaskManagerLossS3Test} uses.
 */
final class TaskManagerKills {
  /**
   * config.yaml: heartbeat.timeout (20 s), the latest a dead or frozen TaskManager is dropped; plus
   * slack.
   */
  static final Duration DETECTION_BOUND = Duration.ofSeconds(40);

  /** Detection, the restart delay, redeploying and a checkpoint, with slack for a busy host. */
  static final Duration RECOVERY_BOUND = Duration.ofSeconds(60);

  private TaskManagerKills() {}

  /** What one kill did: whom it hit and how long the cluster and the job took. */
  static final class Kill {
    final String victim;
    final long pid;
    final long killedAtMillis;
    final long killedNanos;
    final Duration detected;
    final List<String> survivors;
    final Duration recovered;

    private Kill(
        String victim,
        long pid,
        long killedAtMillis,
        long killedNanos,
        Duration detected,
        List<String> survivors,
        Duration recovered) {
      this.victim = victim;
      this.pid = pid;
      this.killedAtMillis = killedAtMillis;
      this.killedNanos = killedNanos;
      this.detected = detected;
      this.survivors = survivors;
      this.recovered = recovered;
    }
  }

  /**
   * Kills TaskManager {@code victim} ({@code taskmanager-<n>}) with SIGKILL, waits until the
   * cluster has dropped it and until {@code job} runs all its tasks on the others and has completed
   * a checkpoint triggered after the kill.
   */
  static Kill killAndAwaitRecovery(SessionCluster session, String job, String victim)
      throws Exception {
    return loseAndAwaitRecovery(session, job, victim, false);
  }

  /**
   * Freezes TaskManager {@code victim} with SIGSTOP and waits as {@link #killAndAwaitRecovery}: the
   * frozen process answers nothing, so it is dropped after the heartbeat timeout, and its tasks
   * restored on the others. Wake it with {@link #thaw}: its tasks then run on for a moment as stale
   * attempts, beside the ones that replaced them.
   */
  static Kill freezeAndAwaitRecovery(SessionCluster session, String job, String victim)
      throws Exception {
    return loseAndAwaitRecovery(session, job, victim, true);
  }

  /** Sends SIGCONT to a process frozen by {@link #freezeAndAwaitRecovery}. */
  static void thaw(long pid) throws Exception {
    signal("CONT", pid);
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pid);
  }

  private static Kill loseAndAwaitRecovery(
      SessionCluster session, String job, String victim, boolean freeze) throws Exception {
    List<Long> pids = session.taskManagerPids();
    int before = session.registeredTaskManagers().size();
    long pid = pids.get(Integer.parseInt(victim.substring("taskmanager-".length())) - 1);
    long killed = System.nanoTime();
    long killedAtMillis = System.currentTimeMillis();
    if (freeze) {
      signal("STOP", pid);
    } else {
      assertTrue(ProcessHandle.of(pid).orElseThrow().destroyForcibly(), "kill -9 " + pid);
    }
    Duration detected = session.awaitTaskManagers(before - 1, DETECTION_BOUND);
    List<String> survivors = session.registeredTaskManagers();
    assertFalse(survivors.contains(victim), victim + " still registered: " + survivors);
    Duration recovered = awaitRecovery(session, job, survivors, killedAtMillis, killed);
    return new Kill(victim, pid, killedAtMillis, killed, detected, survivors, recovered);
  }

  /** The resource ids of the TaskManagers that run the job's tasks, sorted. */
  static List<String> taskManagersOf(SessionCluster session, String job) throws Exception {
    List<String> ids = new ArrayList<>();
    for (JsonNode vertex : session.get("/jobs/" + job).path("vertices")) {
      String path = "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/taskmanagers";
      for (JsonNode taskManager : session.get(path).path("taskmanagers")) {
        String id = taskManager.path("taskmanager-id").asText();
        if (!ids.contains(id)) {
          ids.add(id);
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  /** The job's numRestarts metric, as the REST API gives it ("?" if not reported). */
  static String restarts(SessionCluster session, String job) throws Exception {
    return session
        .get("/jobs/" + job + "/metrics?get=numRestarts")
        .path(0)
        .path("value")
        .asText("?");
  }

  /**
   * The job's numRestarts metric once it reports a restart, or what it reports after {@code
   * timeout}: the metric reaches the REST API up to ~10 s after the restart (metrics are fetched on
   * an interval), so one read right after a fast recovery can still say 0.
   */
  static String awaitRestarts(SessionCluster session, String job, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String restarts = restarts(session, job);
    while (!restarts.matches("[1-9][0-9]*") && System.nanoTime() < deadline) {
      Thread.sleep(500);
      restarts = restarts(session, job);
    }
    return restarts;
  }

  /**
   * Waits until the job runs all its tasks on {@code survivors} and has completed a checkpoint
   * triggered after the kill; returns the time since {@code killedNanos}. The REST API caches a
   * job's state for a few seconds (web.refresh-interval), so every condition is one that a view
   * from before the kill cannot meet.
   */
  private static Duration awaitRecovery(
      SessionCluster session,
      String job,
      List<String> survivors,
      long killedAtMillis,
      long killedNanos)
      throws Exception {
    String seen = "";
    while (System.nanoTime() - killedNanos < RECOVERY_BOUND.toNanos()) {
      JsonNode details = session.get("/jobs/" + job);
      String state = details.path("state").asText();
      if (ScriptedFlinkCluster.isTerminal(state)) {
        throw new AssertionError("job ended " + state + session.failure(job));
      }
      List<String> taskManagers = taskManagersOf(session, job);
      long lastCheckpointTriggered =
          session
              .get("/jobs/" + job + "/checkpoints")
              .path("latest")
              .path("completed")
              .path("trigger_timestamp")
              .asLong();
      seen =
          state
              + ", tasks on "
              + taskManagers
              + ", last checkpoint triggered "
              + (lastCheckpointTriggered - killedAtMillis)
              + " ms after the kill";
      if ("RUNNING".equals(state)
          && allTasksRunning(details)
          && taskManagers.equals(survivors)
          && lastCheckpointTriggered > killedAtMillis) {
        return Duration.ofNanos(System.nanoTime() - killedNanos);
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "job "
            + job
            + " not running on "
            + survivors
            + " and checkpointing within "
            + RECOVERY_BOUND
            + " of the kill: "
            + seen
            + session.failure(job));
  }

  private static boolean allTasksRunning(JsonNode job) {
    boolean running = job.path("vertices").size() > 0;
    for (JsonNode vertex : job.path("vertices")) {
      running &= "RUNNING".equals(vertex.path("status").asText());
    }
    return running;
  }

  /** Each TaskManager has its own RPC address (in its path) and data port. */
  static void assertOwnPorts(SessionCluster session) throws Exception {
    JsonNode taskManagers = session.get("/taskmanagers").path("taskmanagers");
    List<String> rpcAddresses = new ArrayList<>();
    List<Integer> dataPorts = new ArrayList<>();
    for (JsonNode taskManager : taskManagers) {
      rpcAddresses.add(taskManager.path("path").asText());
      dataPorts.add(taskManager.path("dataPort").asInt());
    }
    assertEquals(2, rpcAddresses.stream().distinct().count(), "RPC addresses " + rpcAddresses);
    assertEquals(2, dataPorts.stream().distinct().count(), "data ports " + dataPorts);
  }

  /** GET / is the dashboard's page (flink-runtime-web on the JobManager's class path). */
  static void assertDashboardServed(SessionCluster session) throws Exception {
    HttpResponse<String> page =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://" + session.master() + "/"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, page.statusCode(), page.body());
    assertTrue(
        page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"),
        "content type " + page.headers().firstValue("Content-Type"));
    assertTrue(page.body().contains("<title>Apache Flink Web Dashboard</title>"), page.body());
  }

  /** The process's environment (Linux /proc) holds every variable of {@code expected}. */
  static void assertInherited(long pid, Map<String, String> expected) throws Exception {
    Path environ = Path.of("/proc", Long.toString(pid), "environ");
    assumeTrue(Files.isReadable(environ), "no " + environ + " to read a process's environment");
    Map<String, String> env = new HashMap<>();
    for (String entry : Files.readString(environ, StandardCharsets.UTF_8).split("\0")) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    for (Map.Entry<String, String> variable : expected.entrySet()) {
      // compared without printing: one of them is a secret
      assertTrue(
          variable.getValue().equals(env.get(variable.getKey())),
          variable.getKey() + " did not reach process " + pid);
    }
  }

  /** No log or output of the scripts and the cluster's processes holds the secret. */
  static void assertSecretNotPrinted(Path workDir, String secret) throws Exception {
    List<Path> printed = new ArrayList<>();
    try (Stream<Path> files = Files.walk(workDir)) {
      for (Path file :
          (Iterable<Path>)
              files
                      .filter(Files::isRegularFile)
                      .filter(f -> f.toString().endsWith(".log") || f.toString().endsWith(".out"))
                  ::iterator) {
        if (Files.readString(file, StandardCharsets.ISO_8859_1).contains(secret)) {
          printed.add(file);
        }
      }
    }
    assertEquals(List.of(), printed, "files that print AWS_SECRET_ACCESS_KEY");
  }
}
