package dev.filetables.pipelines;

import dev.filetables.pipelines.storage.StorageServers;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The files under a directory of a store as the store itself holds them, without FileTables' code:
 * on S3 the server's own files (each object is a plain file), on HDFS Hadoop's client. For checks
 * by an independent reader.
 */
final class StoreFiles {
  private StoreFiles() {}

  /** Relative path → bytes of every file whose path has no component starting '.' or '_'. */
  static Map<String, byte[]> visible(StorageServers servers, String dir) throws IOException {
    Map<String, byte[]> visible = new TreeMap<>();
    for (Map.Entry<String, byte[]> file : all(servers, dir).entrySet()) {
      if (!isHidden(file.getKey())) {
        visible.put(file.getKey(), file.getValue());
      }
    }
    return visible;
  }

  /** Relative paths of the files a Hive-style reader skips. */
  static List<String> hidden(StorageServers servers, String dir) throws IOException {
    List<String> hidden = new ArrayList<>();
    for (String name : all(servers, dir).keySet()) {
      if (isHidden(name)) {
        hidden.add(name);
      }
    }
    return hidden;
  }

  private static boolean isHidden(String relative) {
    for (String name : relative.split("/")) {
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  /** A UTF-8 text file's bytes as text. */
  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static Map<String, byte[]> all(StorageServers servers, String dir) throws IOException {
    URI uri = URI.create(dir);
    Map<String, byte[]> files = new TreeMap<>();
    if (uri.getScheme().equals("s3")) {
      Path root =
          servers.s3().bucketDirectory(uri.getAuthority()).resolve(uri.getPath().substring(1));
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path file : walk.filter(Files::isRegularFile).toList()) {
          files.put(root.relativize(file).toString(), Files.readAllBytes(file));
        }
      }
      return files;
    }
    FileSystem fs = FileSystem.get(uri, new Configuration());
    org.apache.hadoop.fs.Path root = fs.makeQualified(new org.apache.hadoop.fs.Path(uri));
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
    while (it.hasNext()) {
      org.apache.hadoop.fs.Path file = it.next().getPath();
      try (InputStream in = fs.open(file)) {
        files.put(
            file.toUri().getPath().substring(root.toUri().getPath().length() + 1),
            in.readAllBytes());
      }
    }
    return files;
  }
}
