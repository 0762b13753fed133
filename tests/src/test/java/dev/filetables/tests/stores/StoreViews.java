package dev.filetables.tests.stores;

import dev.filetables.pipelines.storage.StorageServers;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * A table on a store as plain local files, for the independent readers (DuckDB, Avro's and
 * Parquet's own readers), without FileTables' code in between: on S3, the objects themselves (the
 * server keeps each object as a file {@code <bucket directory>/<key>}); on HDFS, a copy made by
 * Hadoop's own client.
 */
public final class StoreViews {
  private StoreViews() {}

  public static Path localView(StorageServers servers, String storeRoot, Path scratch)
      throws IOException {
    URI uri = URI.create(storeRoot.replace(" ", "%20"));
    switch (uri.getScheme()) {
      case "s3":
        return servers.s3().bucketDirectory(uri.getAuthority()).resolve(uri.getPath().substring(1));
      case "hdfs":
        Path copy = Files.createTempDirectory(scratch, "hdfs-view-");
        FileSystem fs = FileSystem.get(uri, new Configuration());
        fs.copyToLocalFile(
            false,
            new org.apache.hadoop.fs.Path(uri),
            new org.apache.hadoop.fs.Path(copy.toUri()),
            true);
        return copy.resolve(Path.of(uri.getPath()).getFileName().toString());
      default:
        throw new IllegalArgumentException("not a store root: " + storeRoot);
    }
  }
}
