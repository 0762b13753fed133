package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.filetables.pipelines.OrdersStreamJob;
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
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 16: the scripted session cluster with two TaskManagers, one of them killed with {@code kill
 * -9} under a running job. Checks that both TaskManagers register under their own names, that the
 * dashboard is served, that the storage settings of start.sh's environment reach the JobManager and
 * TaskManager JVMs and are printed nowhere, that the cluster notices the dead TaskManager quickly
 * (heartbeats, config.yaml), and that the job (parallelism 2, so 2 of the 4 slots) restarts on the
 * surviving TaskManager and completes checkpoints again.
 */
@Tag("cluster")
class TaskManagerLossTest {
  private static final Logger LOG = LoggerFactory.getLogger(TaskManagerLossTest.class);
  private static final String JOB = "orders-tm-loss";

  /** Kept when the test fails: the cluster's logs are in it. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void jobSurvivesTheLossOfATaskManager() throws Exception {
    String secret = "secret-" + UUID.randomUUID();
    Path hadoopConf = Files.createDirectories(dir.resolve("hadoop-conf"));
    Map<String, String> storageEnv =
        Map.of(
            "AWS_ACCESS_KEY_ID",
            "test-key-id",
            "AWS_SECRET_ACCESS_KEY",
            secret,
            "AWS_REGION",
            "eu-test-1",
            "HADOOP_CONF_DIR",
            hadoopConf.toString());
    Path workDir = dir.resolve("cluster");
    try (ScriptedFlinkCluster cluster = ScriptedFlinkCluster.start(workDir, 2, storageEnv)) {
      SessionCluster session = cluster.session();
      assertEquals(List.of("taskmanager-1", "taskmanager-2"), session.registeredTaskManagers());
      List<Long> pids = session.taskManagerPids();
      assertEquals(2, pids.stream().distinct().count(), "TaskManager pids " + pids);
      assertOwnPorts(session);
      assertDashboardServed(session);
      List<Long> clusterPids = new ArrayList<>(pids);
      clusterPids.add(session.jobManagerPid());
      for (long pid : clusterPids) {
        assertInherited(pid, storageEnv);
      }

      String job =
          cluster.submit(
              OrdersStreamJob.class.getName(),
              List.of(
                  "--output=" + dir.resolve("orders"),
                  "--rowsPerSecond=200",
                  "--checkpointingInterval=1000"),
              JOB);
      cluster.awaitCheckpoints(job, 1, Duration.ofMinutes(3));
      String victim = TaskManagerKills.taskManagersOf(session, job).get(0);
      TaskManagerKills.Kill kill = TaskManagerKills.killAndAwaitRecovery(session, job, victim);
      LOG.info(
          "Killed {} (pid {}): dropped by the cluster after {} ms; job running and checkpointing"
              + " again after {} ms; numRestarts metric {}",
          kill.victim,
          kill.pid,
          kill.detected.toMillis(),
          kill.recovered.toMillis(),
          TaskManagerKills.restarts(session, job));
    }
    assertSecretNotPrinted(workDir, secret);
  }

  /** Each TaskManager has its own RPC address (in its path) and data port. */
  private static void assertOwnPorts(SessionCluster session) throws Exception {
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
  private static void assertDashboardServed(SessionCluster session) throws Exception {
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
  private static void assertInherited(long pid, Map<String, String> expected) throws Exception {
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
  private static void assertSecretNotPrinted(Path workDir, String secret) throws Exception {
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
