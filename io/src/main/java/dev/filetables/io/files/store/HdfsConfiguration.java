package dev.filetables.io.files.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration of HDFS paths: Hadoop's defaults and the {@code *-site.xml} files on the
 * class path, then {@code core-site.xml} and {@code hdfs-site.xml} of {@code HADOOP_CONF_DIR} when
 * it is set, as Hadoop's own tools do. The NameNode comes from the path's URI.
 */
final class HdfsConfiguration {
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
      configuration = conf;
    }
    return configuration;
  }
}
