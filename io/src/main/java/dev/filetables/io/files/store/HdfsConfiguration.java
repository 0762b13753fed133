package dev.filetables.io.files.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration of HDFS paths: Hadoop's defaults and the {@code *-site.xml} files on the
 * class path, then {@code core-site.xml} and {@code hdfs-site.xml} of {@code HADOOP_CONF_DIR} when
 * it is set, as Hadoop's own tools do. The NameNode comes from the path's URI.
 *
 * <p>One default differs from Hadoop's, unless a configuration file sets it: the client's first
 * wait before it asks the NameNode again to complete a file (or to add a block) whose last block
 * the DataNodes have not reported yet. Hadoop waits 400 ms first, tuned for few large files; the
 * streaming sink closes a small segment file per open partition and bundle, and nearly every close
 * paid those 400 ms (thread dumps of {@code bench streaming --store=hdfs}: the closing threads
 * sleep in {@code DFSOutputStream.completeFile}). FileTables waits 20 ms first and doubles it, with
 * more retries, so the whole wait before a close fails stays about Hadoop's (20 s against 12 s).
 */
final class HdfsConfiguration {
  static final String COMPLETE_FIRST_WAIT_KEY =
      "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
  static final String COMPLETE_RETRIES_KEY = "dfs.client.block.write.locateFollowingBlock.retries";

  private static Configuration configuration;

  private HdfsConfiguration() {}

  static synchronized Configuration get() throws IOException {
    if (configuration == null) {
      Configuration conf = new Configuration();
      String dir = System.getenv("HADOOP_CONF_DIR");
      if (dir != null && !dir.isBlank()) {
        for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
          Path file = Path.of(dir, name);
          if (Files.isRegularFile(file)) {
            conf.addResource(file.toUri().toURL());
          }
        }
      }
      setUnlessGiven(conf, COMPLETE_FIRST_WAIT_KEY, "20");
      setUnlessGiven(conf, COMPLETE_RETRIES_KEY, "10");
      configuration = conf;
    }
    return configuration;
  }

  /** Sets {@code key} unless a configuration file did (Hadoop's own defaults do not count). */
  private static void setUnlessGiven(Configuration conf, String key, String value) {
    String[] sources = conf.getPropertySources(key);
    boolean given =
        sources != null
            && Arrays.stream(sources)
                .anyMatch(source -> source.endsWith(".xml") && !source.endsWith("-default.xml"));
    if (!given) {
      conf.set(key, value, "FileTables");
    }
  }
}
