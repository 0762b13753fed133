package dev.filetables.testfixtures;

import dev.filetables.pipelines.FileTablesCli;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The {@code filetables} command line in a process of its own: a child JVM on this JVM's class
 * path, for what a JVM reads once from its environment (e.g. {@code HADOOP_CONF_DIR}: each run gets
 * the environment it is given), or a given command such as {@code bin/filetables} itself, started
 * as a user starts it. Its standard output and error go to one log file, which the caller can watch
 * while it runs. For the tests and benchmarks that kill, stop and restart the command (public for
 * them alone).
 */
@Internal
public final class CliProcess implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final long started = System.nanoTime();

  private CliProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code filetables <args>} with this JVM's environment changed by {@code environment} (a
   * null value removes the variable) and with the system properties {@code properties}.
   */
  public static CliProcess start(
      List<String> args, Map<String, String> environment, Map<String, String> properties, Path log)
      throws IOException {
    return start(FileTablesCli.class, args, environment, properties, log);
  }

  /** Like {@link #start(List, Map, Map, Path)}, with another main class that runs the CLI. */
  public static CliProcess start(
      Class<?> main,
      List<String> args,
      Map<String, String> environment,
      Map<String, String> properties,
      Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // the opens Beam needs on Java 17, as this JVM got them (the build's argLine)
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> arg.startsWith("--add-opens"))
        .forEach(command::add);
    // a small JVM that starts quickly
    command.addAll(List.of("-Xmx1g", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return startCommand(command, environment, log);
  }

  /**
   * Starts {@code command} as it is (e.g. {@code bin/filetables run ...}, which replaces itself
   * with the JVM), with this JVM's environment changed by {@code environment}.
   */
  public static CliProcess startCommand(
      List<String> command, Map<String, String> environment, Path log) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    environment.forEach(
        (name, value) -> {
          if (value == null) {
            builder.environment().remove(name);
          } else {
            builder.environment().put(name, value);
          }
        });
    return new CliProcess(builder.start(), log);
  }

  public long pid() {
    return process.pid();
  }

  /** Time since the start. */
  public Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - started);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Sends SIGTERM, which runs the JVM's shutdown hooks as Ctrl-C's SIGINT does. */
  public void terminate() {
    process.destroy();
  }

  /**
   * Ends the process and its child processes, if it has any, with SIGKILL ({@code kill -9}) and
   * waits until it is gone.
   */
  public void kill() throws InterruptedException {
    // listed first: once the parent is gone its children are no longer its descendants
    List<ProcessHandle> children = process.descendants().toList();
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * Waits until the output has a line containing {@code text}; false when the process ended first
   * or {@code timeout} passed.
   */
  public boolean awaitOutput(String text, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      boolean alive = process.isAlive();
      if (output().contains(text)) {
        return true;
      }
      if (!alive) {
        return false;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /** Waits for the exit code; fails if the process still runs after {@code timeout}. */
  public int awaitExit(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          "the command still runs after " + timeout.toSeconds() + " s:\n" + output());
    }
    return process.exitValue();
  }

  /** Everything it printed so far. */
  public String output() throws IOException {
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
      }
    }
  }
}
