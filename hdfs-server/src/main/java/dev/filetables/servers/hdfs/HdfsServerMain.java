package dev.filetables.servers.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Runs HDFS on 127.0.0.1: one NameNode and one DataNode (Hadoop's {@code MiniDFSCluster}) keeping
 * their storage under a base directory.
 *
 * <pre>
 * java -cp "$(cat hdfs-server/target/server.classpath)" dev.filetables.servers.hdfs.HdfsServerMain \
 *   --basedir=DIR [--port=N] [--stop-on-stdin-eof]
 * </pre>
 *
 * <p>{@code --port} is the NameNode's RPC port ({@code 0}, the default, takes any free port; the
 * other ports always do). A base directory that holds a NameNode already is started as it is, with
 * its files; otherwise it is formatted. The NameNode refuses writes (safe mode) until the DataNode
 * has registered. Once it has, the server prints one line {@code READY hdfs://127.0.0.1:<port>} on
 * standard output. SIGTERM stops it; with {@code --stop-on-stdin-eof} so does the end of standard
 * input, which a parent JVM that starts it through a pipe uses: the pipe closes when the parent
 * dies, even by {@code kill -9}, so no server outlives its user.
 */
public final class HdfsServerMain {
  /** MiniDFSCluster's first NameNode directory under the base directory. */
  private static final String NAME_DIRECTORY = "name-0-1";

  private HdfsServerMain() {}

  public static void main(String[] args) throws Exception {
    Path basedir = null;
    int port = 0;
    boolean stopOnStdinEof = false;
    for (String arg : args) {
      if (arg.startsWith("--basedir=")) {
        basedir = Path.of(arg.substring("--basedir=".length())).toAbsolutePath();
      } else if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      } else if (arg.equals("--stop-on-stdin-eof")) {
        stopOnStdinEof = true;
      } else {
        usage("unknown argument " + arg);
      }
    }
    if (basedir == null) {
      usage("--basedir is required");
    }
    Files.createDirectories(basedir);
    boolean formatted = Files.isDirectory(basedir.resolve(NAME_DIRECTORY));

    Configuration conf = new Configuration();
    // one DataNode: the default of three replicas could never be met
    conf.setInt("dfs.replication", 1);
    // The NameNode stays in safe mode until its DataNode has registered, after a restart too: with
    // the minicluster's safe-mode extension of 0 (a NameNode's default is 30 s) it would leave safe
    // mode before and take writes it cannot place on any DataNode, where a client that waited for
    // it (dfs.client.retry.policy.enabled) would fail.
    conf.setInt("dfs.namenode.safemode.min.datanodes", 1);
    MiniDFSCluster cluster =
        new MiniDFSCluster.Builder(conf, basedir.toFile())
            .nameNodePort(port)
            .numDataNodes(1)
            .format(!formatted)
            .build();
    cluster.waitActive();
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown, "stop-hdfs"));
    System.out.println("READY hdfs://127.0.0.1:" + cluster.getNameNodePort());
    System.out.flush();
    if (stopOnStdinEof) {
      awaitEndOfInput(System.in);
      System.exit(0); // the shutdown hook stops the cluster
    }
    // otherwise the NameNode's and DataNode's threads keep the JVM alive until SIGTERM
  }

  private static void awaitEndOfInput(InputStream in) {
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) >= 0) {
        // nothing is sent: only the end matters
      }
    } catch (IOException e) {
      // a broken pipe is an end too
    }
  }

  private static void usage(String problem) {
    System.err.println(
        "HdfsServerMain: "
            + problem
            + "\nusage: HdfsServerMain --basedir=DIR [--port=N] [--stop-on-stdin-eof]");
    System.exit(2);
  }
}
