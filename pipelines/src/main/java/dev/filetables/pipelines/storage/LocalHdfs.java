package dev.filetables.pipelines.storage;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;

/**
 * A real HDFS (one NameNode, one DataNode: Hadoop's {@code MiniDFSCluster}) on loopback with free
 * ports, for tests and try-outs.
 *
 * <p>It runs as a child JVM on the classpath that the {@code hdfs-server} module writes to {@code
 * hdfs-server/target/server.classpath} (the minicluster's jars never meet Beam's or Flink's), and
 * stops with {@link #close}, with this JVM, or when this JVM is killed ({@link ServerProcess}). Its
 * storage lives under {@code <directory>/data}, its log is {@code <directory>/hdfs-server.log}.
 * Files are kept with one replica (there is one DataNode): clients should set {@code
 * dfs.replication=1}, or their files stay under-replicated. Permissions are checked; the user who
 * started it is the superuser. Its NameNode is in safe mode (refuses writes) until its DataNode has
 * registered, after a {@link #restart} too.
 */
@Internal
public final class LocalHdfs implements AutoCloseable {
  /** System property naming the server's classpath file (or holding the classpath itself). */
  public static final String CLASSPATH_PROPERTY = "filetables.hdfs.server.classpath";

  static final String CLASSPATH_FILE = "hdfs-server/target/server.classpath";
  static final String MAIN_CLASS = "dev.filetables.servers.hdfs.HdfsServerMain";

  private final ServerProcess process;
  private final Path directory;

  private LocalHdfs(ServerProcess process, Path directory) {
    this.process = process;
    this.directory = directory;
  }

  /**
   * Starts HDFS on the storage under {@code directory} (formatted when new, kept as it is
   * otherwise) and waits until its DataNode has registered.
   */
  public static LocalHdfs start(Path directory) throws IOException {
    return start(directory, 0);
  }

  /**
   * Starts a new server on this one's storage and NameNode port, after {@link #kill}: clients that
   * knew the old one find their files there again.
   */
  public LocalHdfs restart() throws IOException {
    if (isRunning()) {
      throw new IllegalStateException(this + " still runs: kill it first");
    }
    // the new server writes a new log: keep the old one's
    Path log = process.log();
    Files.move(log, log.resolveSibling("hdfs-server-before-restart.log"), REPLACE_EXISTING);
    return start(directory, uri().getPort());
  }

  private static LocalHdfs start(Path directory, int port) throws IOException {
    Path absolute = directory.toAbsolutePath();
    ServerProcess process =
        ServerProcess.start(
            "HDFS",
            ServerClasspath.find(CLASSPATH_PROPERTY, CLASSPATH_FILE),
            "512m",
            MAIN_CLASS,
            List.of("--basedir=" + absolute.resolve("data"), "--port=" + port),
            Map.of(),
            absolute.resolve("hdfs-server.log"));
    return new LocalHdfs(process, absolute);
  }

  /** {@code hdfs://127.0.0.1:<NameNode port>}: the file system's root. */
  public URI uri() {
    return URI.create(process.address());
  }

  public Path directory() {
    return directory;
  }

  public boolean isRunning() {
    return process.isAlive();
  }

  /** The server's process id, for tests. */
  long pid() {
    return process.pid();
  }

  /**
   * Kills NameNode and DataNode at once with {@code kill -9} (what a lost machine does to them) and
   * waits until the process has ended; {@link #restart} brings HDFS back.
   */
  public void kill() {
    process.kill();
  }

  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return "HDFS at " + uri() + " (" + directory + ")";
  }
}
