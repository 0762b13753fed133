package dev.filetables.pipelines.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A server running as a child JVM on its own classpath, from start until it stops.
 *
 * <p>The server's main class follows one protocol (see the {@code s3-server} and {@code
 * hdfs-server} modules): once it answers it prints {@code READY <address>} on standard output, and
 * with {@code --stop-on-stdin-eof} it stops when its standard input ends. That input is a pipe only
 * this JVM holds, so the server stops however this JVM ends: {@link #close}, the shutdown hook on a
 * normal exit, or {@code kill -9}, which runs no hook but still closes the pipe. The server's
 * output goes to a log file.
 */
final class ServerProcess implements AutoCloseable {
  static final String READY_PREFIX = "READY ";
  static final String STOP_ON_STDIN_EOF = "--stop-on-stdin-eof";

  /** Generous: the servers share 2 cores with the tests and their pipelines. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  /** Small and quick to start rather than quick when warm: tests start servers often. */
  private static final List<String> JVM_OPTIONS =
      List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true");

  private final String name;
  private final Process process;
  private final Path log;
  private final Thread shutdownHook;
  private String address;

  private ServerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.shutdownHook = new Thread(this::stopProcess, "stop-" + name);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts {@code mainClass} with {@code args} (plus {@value #STOP_ON_STDIN_EOF}) and waits until
   * it is ready.
   *
   * @param name for messages and the thread of the shutdown hook
   * @param maxHeap the {@code -Xmx} value, e.g. {@code 256m}
   * @param environment variables added to this JVM's for the server (secrets go here, not in
   *     arguments that {@code ps} shows)
   */
  static ServerProcess start(
      String name,
      String classpath,
      String maxHeap,
      String mainClass,
      List<String> args,
      Map<String, String> environment,
      Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.add("-Xmx" + maxHeap);
    command.addAll(JVM_OPTIONS);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    command.add(STOP_ON_STDIN_EOF);
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
    builder.environment().putAll(environment);
    ServerProcess server = new ServerProcess(name, builder.start(), log);
    try {
      server.address = server.awaitReady();
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** What the server printed after {@value #READY_PREFIX}: its URI. */
  String address() {
    return address;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path log() {
    return log;
  }

  /** Stops the server and waits until its process has ended. */
  @Override
  public void close() {
    stopProcess();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or has run
    }
  }

  /**
   * Kills the server with SIGKILL ({@code kill -9}: no shutdown hook, no clean stop, as a crashed
   * machine) and waits until its process has ended.
   */
  void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException("the " + name + " did not end after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    close();
  }

  private void stopProcess() {
    if (!process.isAlive()) {
      return;
    }
    try {
      process.getOutputStream().close(); // end of input: the server stops cleanly
    } catch (IOException e) {
      // already closed; the fallbacks below still apply
    }
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroy(); // SIGTERM
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private String awaitReady() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> ready = readyLine();
      if (ready.isPresent()) {
        return ready.get().substring(READY_PREFIX.length()).strip();
      }
      if (!process.isAlive()) {
        throw new IOException(
            "the "
                + name
                + " exited with code "
                + process.exitValue()
                + " before it was ready; its log "
                + log
                + " ends with:\n"
                + tail());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the " + name, e);
      }
    }
    throw new IOException(
        "the "
            + name
            + " was not ready within "
            + START_TIMEOUT.toSeconds()
            + " s; its log "
            + log
            + " ends with:\n"
            + tail());
  }

  private Optional<String> readyLine() throws IOException {
    if (!Files.exists(log)) {
      return Optional.empty();
    }
    // as bytes, and only whole lines: the server may be writing the ready line right now
    String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    return text.substring(0, text.lastIndexOf('\n') + 1)
        .lines()
        .filter(line -> line.startsWith(READY_PREFIX))
        .findFirst();
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  private static String javaBinary() {
    Optional<String> current = ProcessHandle.current().info().command();
    if (current.isPresent() && Files.isExecutable(Path.of(current.get()))) {
      return current.get();
    }
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
