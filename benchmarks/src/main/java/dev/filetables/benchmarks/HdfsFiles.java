package dev.filetables.benchmarks;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** A table's files on HDFS as Hadoop's own client lists and reads them. */
final class HdfsFiles implements StoreFiles {
  private final FileSystem fs;
  private final Path root;
  private final String rootPrefix;

  HdfsFiles(String root) throws IOException {
    this.fs = FileSystem.newInstance(URI.create(root), new Configuration());
    this.root = fs.makeQualified(new Path(root));
    this.rootPrefix = this.root.toUri().getPath() + "/";
  }

  @Override
  public List<String> list() throws IOException {
    if (!fs.exists(root)) {
      return List.of();
    }
    List<String> files = new ArrayList<>();
    try {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
      while (it.hasNext()) {
        files.add(it.next().getPath().toUri().getPath().substring(rootPrefix.length()));
      }
    } catch (FileNotFoundException e) {
      return list(); // a hidden file vanished while listing (a running job): again
    }
    return files;
  }

  @Override
  public InputStream open(String file) throws IOException {
    return fs.open(new Path(root, file));
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }
}
