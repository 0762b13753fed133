package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3 (and S3-compatible servers) through the AWS SDK v2 client that Beam's aws2 module configures
 * ({@link S3Clients}). Buckets are {@code s3://bucket/...} authorities; directories are key
 * prefixes: they exist while a key lies below them, creating one does nothing, and a listing is one
 * {@code ListObjectsV2} page with delimiter {@code /} per 1000 entries.
 *
 * <p>Why not Beam's {@code S3FileSystem}: its glob match HEADs every listed object, it cannot list
 * directories, and it buffers 64 MiB per open file (hundreds of open partitions would be
 * gigabytes).
 */
final class S3Store implements Store {
  private final Supplier<S3Client> client;

  S3Store(Supplier<S3Client> client) {
    this.client = client;
  }

  @Override
  public Optional<StoreEntry> stat(StorePath path) throws IOException {
    String key = path.key();
    if (!key.isEmpty()) {
      Optional<HeadObjectResponse> head = head(path);
      if (head.isPresent()) {
        return Optional.of(
            StoreEntry.file(
                path, head.get().contentLength(), head.get().lastModified().toEpochMilli()));
      }
    }
    ListObjectsV2Response page =
        call(
            path,
            () ->
                client
                    .get()
                    .listObjectsV2(
                        ListObjectsV2Request.builder()
                            .bucket(bucket(path))
                            .prefix(prefix(path))
                            .maxKeys(1)
                            .build()));
    return page.keyCount() > 0 || key.isEmpty()
        ? Optional.of(StoreEntry.directory(path, 0))
        : Optional.empty();
  }

  @Override
  public List<StoreEntry> list(StorePath dir) throws IOException {
    List<StoreEntry> entries = new ArrayList<>();
    String prefix = prefix(dir);
    ListObjectsV2Request.Builder request =
        ListObjectsV2Request.builder().bucket(bucket(dir)).prefix(prefix).delimiter("/");
    String token = null;
    do {
      ListObjectsV2Request pageRequest = request.continuationToken(token).build();
      ListObjectsV2Response page = call(dir, () -> client.get().listObjectsV2(pageRequest));
      for (CommonPrefix common : page.commonPrefixes()) {
        String name = common.prefix().substring(prefix.length(), common.prefix().length() - 1);
        if (!name.isEmpty()) {
          entries.add(StoreEntry.directory((StorePath) dir.resolve(name), 0));
        }
      }
      for (S3Object object : page.contents()) {
        String name = object.key().substring(prefix.length());
        if (!name.isEmpty()) { // "dir/" itself: a folder marker some tools write
          entries.add(
              StoreEntry.file(
                  (StorePath) dir.resolve(name),
                  object.size(),
                  object.lastModified().toEpochMilli()));
        }
      }
      token = page.isTruncated() ? page.nextContinuationToken() : null;
    } while (token != null);
    if (entries.isEmpty() && !dir.key().isEmpty()) {
      if (head(dir).isPresent()) {
        throw new NotDirectoryException(dir.toString());
      }
      throw new NoSuchFileException(dir.toString());
    }
    return entries;
  }

  @Override
  public SeekableByteChannel openForRead(StorePath file) throws IOException {
    HeadObjectResponse head =
        head(file).orElseThrow(() -> new NoSuchFileException(file.toString()));
    return new S3ReadChannel(client.get(), file, bucket(file), file.key(), head.contentLength());
  }

  @Override
  public OutputStream create(StorePath file, boolean failIfExists) throws IOException {
    if (file.key().isEmpty()) {
      throw new IOException(file + " is a bucket, not a file");
    }
    // S3 (and Beam's SDK version) offers no create-if-absent, so this check and the upload are
    // two steps; part and in-progress names are unique per writer, so no one else races for them.
    if (failIfExists && head(file).isPresent()) {
      throw new FileAlreadyExistsException(file.toString());
    }
    return new S3Upload(client.get(), file, bucket(file), file.key());
  }

  @Override
  public void createDirectories(StorePath dir) {
    // Prefixes exist by the keys below them.
  }

  @Override
  public boolean delete(StorePath path) throws IOException {
    if (path.key().isEmpty()) {
      throw new IOException(path + " is a bucket; FileTables never deletes buckets");
    }
    if (head(path).isPresent()) {
      call(path, () -> client.get().deleteObject(b -> b.bucket(bucket(path)).key(path.key())));
      return true;
    }
    Optional<StoreEntry> dir = stat(path);
    if (dir.isPresent()) {
      throw new DirectoryNotEmptyException(path.toString());
    }
    return false;
  }

  @Override
  public void copy(StorePath from, StorePath to) throws IOException {
    call(
        from,
        () ->
            client
                .get()
                .copyObject(
                    b ->
                        b.sourceBucket(bucket(from))
                            .sourceKey(from.key())
                            .destinationBucket(bucket(to))
                            .destinationKey(to.key())));
  }

  @Override
  public boolean canRenameAtomically() {
    return false;
  }

  @Override
  public void renameAtomically(StorePath from, StorePath to, boolean replace) {
    throw new UnsupportedOperationException("S3 has no rename");
  }

  private Optional<HeadObjectResponse> head(StorePath path) throws IOException {
    try {
      return Optional.of(
          call(path, () -> client.get().headObject(b -> b.bucket(bucket(path)).key(path.key()))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private static String bucket(StorePath path) {
    return path.getFileSystem().authority();
  }

  /** The key prefix of the entries of a directory: "a/b/" ("" for the bucket). */
  private static String prefix(StorePath dir) {
    return dir.key().isEmpty() ? "" : dir.key() + "/";
  }

  /** Runs a request, turning the SDK's failures into the JDK's ({@link S3Errors}). */
  static <T> T call(StorePath path, Supplier<T> request) throws IOException {
    try {
      return request.get();
    } catch (NoSuchKeyException e) {
      throw new NoSuchFileException(path.toString());
    } catch (RuntimeException e) {
      throw S3Errors.toIOException(path, e);
    }
  }

  static boolean isNotFound(S3Exception e) {
    return e.statusCode() == 404;
  }
}
