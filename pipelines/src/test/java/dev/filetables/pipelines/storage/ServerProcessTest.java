package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server never outlives the JVM that started it, even one killed with {@code kill -9}. */
@Tag("cluster")
class ServerProcessTest {
  @TempDir Path dir;

  @Test
  void theServerStopsWhenItsParentIsKilled() throws Exception {
    Path log = dir.resolve("parent.log");
    Process parent =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    StartServerAndWait.class.getName(),
                    dir.resolve("s3").toString()))
            .redirectError(log.toFile())
            .start();
    long serverPid;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine(); // blocks until the server is ready or the parent ended
      assertTrue(
          line != null && line.startsWith(StartServerAndWait.PID_PREFIX),
          "the parent printed " + line + "; its log:\n" + Files.readString(log));
      serverPid = Long.parseLong(line.substring(StartServerAndWait.PID_PREFIX.length()));
      assertTrue(ProcessHandle.of(serverPid).isPresent(), "the server runs");

      parent.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertTrue(parent.waitFor(30, TimeUnit.SECONDS), "the parent was killed");
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (ProcessHandle.of(serverPid).isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertTrue(
        ProcessHandle.of(serverPid).isEmpty(),
        "the server (pid " + serverPid + ") outlived its killed parent");
  }

  /** The parent JVM of the test above: starts an S3 server, prints its pid, and waits. */
  static final class StartServerAndWait {
    static final String PID_PREFIX = "SERVER PID ";

    public static void main(String[] args) throws Exception {
      LocalS3Server server = LocalS3Server.start(Path.of(args[0]));
      System.out.println(PID_PREFIX + server.pid());
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
