package dev.filetables.pipelines.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A real single-node Kafka broker (KRaft: broker and controller in one process) on loopback with
 * free ports, for tests and {@code filetables demo --kafka}.
 *
 * <p>It runs as a child JVM on the classpath that the {@code kafka-broker} module resolves into
 * {@code kafka-broker/target/broker.classpath}: the broker's Scala, Jackson and logging versions
 * never meet Beam's. Its data and log live under the directory given to {@link #start}. {@link
 * #close} stops the process (also done by a shutdown hook, so an aborted test or demo leaves no
 * broker).
 */
@Internal
public final class LocalKafkaBroker implements AutoCloseable {
  /**
   * System property naming the broker classpath file (or the classpath itself, when it holds no
   * file).
   */
  static final String CLASSPATH_PROPERTY = "filetables.kafka.broker.classpath";

  static final String CLASSPATH_FILE = "kafka-broker/target/broker.classpath";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Process process;
  private final Path directory;
  private final String bootstrapServers;
  private final Thread shutdownHook;

  private LocalKafkaBroker(Process process, Path directory, String bootstrapServers) {
    this.process = process;
    this.directory = directory;
    this.bootstrapServers = bootstrapServers;
    this.shutdownHook = new Thread(this::stopProcess, "stop-local-kafka");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Formats a fresh log directory under {@code directory}, starts the broker and waits until it
   * answers.
   */
  public static LocalKafkaBroker start(Path directory) throws IOException {
    Files.createDirectories(directory);
    String classpath = brokerClasspath();
    int brokerPort = freePort();
    int controllerPort = freePort();
    while (controllerPort == brokerPort) {
      controllerPort = freePort();
    }
    Path config = directory.resolve("server.properties");
    Files.writeString(
        config,
        serverProperties(directory.resolve("data"), brokerPort, controllerPort),
        StandardCharsets.UTF_8);
    Path log = directory.resolve("broker.log");

    // KRaft needs a formatted log directory (what kafka-storage.sh format does) before the first
    // start.
    Process format =
        javaProcess(
            classpath,
            List.of(
                "kafka.tools.StorageTool",
                "format",
                "-t",
                Uuid.randomUuid().toString(),
                "-c",
                config.toString()),
            log,
            false);
    try {
      if (!format.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || format.exitValue() != 0) {
        format.destroyForcibly();
        throw new IOException(
            "formatting the Kafka log directory failed; see " + log + ":\n" + tail(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while formatting the Kafka log directory", e);
    }

    Process broker = javaProcess(classpath, List.of("kafka.Kafka", config.toString()), log, true);
    LocalKafkaBroker started = new LocalKafkaBroker(broker, directory, "127.0.0.1:" + brokerPort);
    try {
      started.awaitReady(log);
    } catch (IOException | RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  /** {@code host:port} for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public Path directory() {
    return directory;
  }

  /** Creates a topic with {@code partitions} partitions (replication 1). */
  public void createTopic(String topic, int partitions) {
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create Kafka topic '" + topic + "': " + e, e);
    }
  }

  /**
   * A producer of byte arrays with {@code acks=all}, idempotence on and no batching delay beyond 5
   * ms.
   */
  public KafkaProducer<byte[], byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** Committed offsets of a consumer group, per partition (empty when nothing is committed). */
  public Map<org.apache.kafka.common.TopicPartition, Long> committedOffsets(String groupId) {
    try (Admin admin = admin()) {
      Map<
              org.apache.kafka.common.TopicPartition,
              org.apache.kafka.clients.consumer.OffsetAndMetadata>
          committed =
              admin
                  .listConsumerGroupOffsets(groupId)
                  .partitionsToOffsetAndMetadata()
                  .get(30, TimeUnit.SECONDS);
      Map<org.apache.kafka.common.TopicPartition, Long> offsets =
          new java.util.TreeMap<>(
              java.util.Comparator.comparing(org.apache.kafka.common.TopicPartition::toString));
      committed.forEach(
          (tp, om) -> {
            if (om != null) {
              offsets.put(tp, om.offset());
            }
          });
      return offsets;
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot read the committed offsets of group '" + groupId + "': " + e, e);
    }
  }

  Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    return Admin.create(p);
  }

  @Override
  public void close() {
    stopProcess();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or has run
    }
  }

  private void stopProcess() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy(); // SIGTERM: Kafka shuts down cleanly
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void awaitReady(Path log) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "the Kafka broker exited with code "
                + process.exitValue()
                + "; its log "
                + log
                + " ends with:\n"
                + tail(log));
      }
      if (!accepts(bootstrapServers)) {
        sleep(200); // not listening yet: an admin client would only log connection warnings
        continue;
      }
      try (Admin admin = admin()) {
        if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
          return;
        }
      } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the Kafka broker", e);
      }
      sleep(250);
    }
    throw new IOException(
        "the Kafka broker did not answer on "
            + bootstrapServers
            + " within "
            + START_TIMEOUT.toSeconds()
            + " s ("
            + last
            + "); its log "
            + log
            + " ends with:\n"
            + tail(log));
  }

  private static boolean accepts(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(
          new java.net.InetSocketAddress(
              hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
          500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  static String serverProperties(Path dataDir, int brokerPort, int controllerPort) {
    return String.join(
        "\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:"
            + brokerPort
            + ",CONTROLLER://127.0.0.1:"
            + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + dataDir.toAbsolutePath(),
        "num.partitions=1",
        "auto.create.topics.enable=false",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "log.retention.hours=-1",
        "");
  }

  private static Process javaProcess(
      String classpath, List<String> mainAndArgs, Path log, boolean append) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    // Small and quick to start: the broker shares 2 cores with the pipeline under test.
    command.addAll(
        List.of(
            "-Xms128m",
            "-Xmx512m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Djava.awt.headless=true"));
    command.add("-cp");
    command.add(classpath);
    command.addAll(mainAndArgs);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(
        append
            ? ProcessBuilder.Redirect.appendTo(log.toFile())
            : ProcessBuilder.Redirect.to(log.toFile()));
    return builder.start();
  }

  private static String javaBinary() {
    Optional<String> current = ProcessHandle.current().info().command();
    if (current.isPresent() && Files.isExecutable(Path.of(current.get()))) {
      return current.get();
    }
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The broker classpath: the {@value #CLASSPATH_PROPERTY} property, else {@value #CLASSPATH_FILE}
   * under {@code filetables.home}, the working directory or one of its parents.
   */
  static String brokerClasspath() throws IOException {
    String property = System.getProperty(CLASSPATH_PROPERTY);
    if (property != null && !property.isBlank()) {
      Path file = Path.of(property);
      return Files.isRegularFile(file) ? Files.readString(file).strip() : property;
    }
    List<Path> candidates = new ArrayList<>();
    String home = System.getProperty("filetables.home");
    if (home != null) {
      candidates.add(Path.of(home).resolve(CLASSPATH_FILE));
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      candidates.add(dir.resolve(CLASSPATH_FILE));
    }
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        String classpath = Files.readString(candidate).strip();
        if (!classpath.isEmpty()) {
          return classpath;
        }
      }
    }
    throw new IOException(
        "no Kafka broker classpath: build the kafka-broker module first (mvn -pl kafka-broker generate-resources"
            + " writes "
            + CLASSPATH_FILE
            + ") or set -D"
            + CLASSPATH_PROPERTY
            + "=<file>; looked at "
            + candidates);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** For messages. */
  @Override
  public String toString() {
    return "Kafka broker at " + bootstrapServers + " (" + directory + ")";
  }
}
