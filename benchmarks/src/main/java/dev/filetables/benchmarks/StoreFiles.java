package dev.filetables.benchmarks;

import dev.filetables.pipelines.storage.LocalS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A table's files as each store's own client sees them, with no FileTables code in between: the
 * JDK's file walk on the local disk, Hadoop's {@code FileSystem} on HDFS ({@link HdfsFiles}), the
 * AWS SDK on S3 (which also sees the multipart uploads still open there). Paths are relative to the
 * table root, with {@code /}.
 */
interface StoreFiles extends AutoCloseable {
  /** Every file under the table root, hidden ones included. */
  List<String> list() throws IOException;

  /** Hidden state a listing does not show: on S3 the keys of multipart uploads still open. */
  default List<String> openUploads() {
    return List.of();
  }

  /** Reads {@code file}. */
  InputStream open(String file) throws IOException;

  @Override
  default void close() throws IOException {}

  static StoreFiles local(Path root) {
    return new StoreFiles() {
      @Override
      public List<String> list() throws IOException {
        if (!Files.isDirectory(root)) {
          return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
          return walk.filter(Files::isRegularFile)
              .map(p -> root.relativize(p).toString().replace('\\', '/'))
              .toList();
        } catch (UncheckedIOException e) {
          if (!(e.getCause() instanceof NoSuchFileException)) {
            throw e;
          }
          return list(); // a hidden file vanished while walking (a running job): again
        }
      }

      @Override
      public InputStream open(String file) throws IOException {
        return Files.newInputStream(root.resolve(file));
      }
    };
  }

  static StoreFiles s3(LocalS3Server s3, String bucket, String rootKey) {
    S3Client client = s3.client();
    String prefix = rootKey + "/";
    return new StoreFiles() {
      @Override
      public List<String> list() {
        return client
            .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
            .contents()
            .stream()
            .map(S3Object::key)
            .map(key -> key.substring(prefix.length()))
            .toList();
      }

      @Override
      public List<String> openUploads() {
        return s3.openUploads(bucket, prefix);
      }

      @Override
      public InputStream open(String file) {
        return client.getObject(b -> b.bucket(bucket).key(prefix + file));
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }
}
