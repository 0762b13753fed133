package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
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
  /** S3 takes up to 5 GiB in one PUT; above, the upload goes in parts. */
  static final long SINGLE_PUT_LIMIT = 5L << 30;

  private static final long LARGE_PART_SIZE = 256L << 20;

  /** S3's limit on the keys of one DeleteObjects request. */
  private static final int MAX_KEYS_PER_DELETE = 1000;

  private final Supplier<S3Client> client;
  private final S3PendingUploads pending;

  S3Store(Supplier<S3Client> client) {
    this.client = client;
    this.pending = new S3PendingUploads(client);
  }

  @Override
  public Optional<StoreEntry> stat(StorePath path) throws IOException {
    String key = path.key();
    if (!key.isEmpty()) {
      Optional<HeadObjectResponse> head = head(path);
      if (head.isPresent()) {
        return Optional.of(
            StoreEntry.file(
                path,
                S3PendingUploads.sizeOf(head.get()),
                head.get().lastModified().toEpochMilli()));
      }
    }
    return key.isEmpty() || hasKeysBelow(path)
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
    Optional<String> pendingAt = S3PendingUploads.visibleKeyOf(head);
    if (pendingAt.isPresent()) {
      throw S3PendingUploads.unreadable(file, pendingAt.get());
    }
    return new S3ReadChannel(client.get(), file, bucket(file), file.key(), head.contentLength());
  }

  /** One GET: a HEAD first would double the requests of every whole-file read (segments, CSV). */
  @Override
  public InputStream openStream(StorePath file) throws IOException {
    ResponseInputStream<GetObjectResponse> stream =
        call(file, () -> client.get().getObject(b -> b.bucket(bucket(file)).key(file.key())));
    Optional<String> pendingAt = S3PendingUploads.visibleKeyOf(stream.response().metadata());
    if (pendingAt.isPresent()) {
      stream.abort();
      stream.close();
      throw S3PendingUploads.unreadable(file, pendingAt.get());
    }
    return stream;
  }

  @Override
  public OutputStream create(StorePath file, boolean failIfExists) throws IOException {
    checkCreate(file, failIfExists);
    return new SpooledOutput((spool, size) -> putWhole(file, spool, size));
  }

  @Override
  public OutputStream createForPublish(StorePath file, StorePath visible, boolean failIfExists)
      throws IOException {
    checkCreate(file, failIfExists);
    return new SpooledOutput((spool, size) -> pending.begin(file, visible, spool, size));
  }

  private void checkCreate(StorePath file, boolean failIfExists) throws IOException {
    if (file.key().isEmpty()) {
      throw new IOException(file + " is a bucket, not a file");
    }
    // S3 (and Beam's SDK version) offers no create-if-absent, so this check and the upload are
    // two steps; part and in-progress names are unique per writer, so no one else races for them.
    if (failIfExists && head(file).isPresent()) {
      throw new FileAlreadyExistsException(file.toString());
    }
  }

  /** One PutObject, or a multipart upload above {@link #SINGLE_PUT_LIMIT}: whole at close. */
  private void putWhole(StorePath file, Path spool, long size) throws IOException {
    if (size <= SINGLE_PUT_LIMIT) {
      call(
          file,
          () ->
              client
                  .get()
                  .putObject(
                      b -> b.bucket(bucket(file)).key(file.key()), RequestBody.fromFile(spool)));
      return;
    }
    S3Multipart upload = new S3Multipart(client.get(), file, bucket(file), file.key());
    String uploadId = upload.create();
    try {
      List<CompletedPart> parts = upload.uploadParts(uploadId, spool, size, LARGE_PART_SIZE);
      call(
          file,
          () -> {
            upload.complete(uploadId, parts, false);
            return null;
          });
    } catch (IOException | RuntimeException e) {
      upload.abortAfter(uploadId, e);
      throw e;
    }
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
    Optional<HeadObjectResponse> head = head(path);
    if (head.isPresent()) {
      if (S3PendingUploads.visibleKeyOf(head.get()).isPresent()) {
        pending.delete(path, head.get());
      } else {
        deleteObject(path);
      }
      return true;
    }
    if (hasKeysBelow(path)) {
      throw new DirectoryNotEmptyException(path.toString());
    }
    return false;
  }

  /** Whether a key lies below {@code path} (a directory that exists): one listing of one key. */
  private boolean hasKeysBelow(StorePath path) throws IOException {
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
    return page.keyCount() > 0;
  }

  @Override
  public void deleteFiles(List<StorePath> files) throws IOException {
    Map<String, List<StorePath>> byBucket = new LinkedHashMap<>();
    for (StorePath file : files) {
      byBucket.computeIfAbsent(bucket(file), b -> new ArrayList<>()).add(file);
    }
    for (Map.Entry<String, List<StorePath>> bucket : byBucket.entrySet()) {
      List<StorePath> all = bucket.getValue();
      for (int from = 0; from < all.size(); from += MAX_KEYS_PER_DELETE) {
        List<StorePath> chunk = all.subList(from, Math.min(all.size(), from + MAX_KEYS_PER_DELETE));
        List<ObjectIdentifier> keys = new ArrayList<>(chunk.size());
        chunk.forEach(file -> keys.add(ObjectIdentifier.builder().key(file.key()).build()));
        DeleteObjectsResponse response =
            call(
                chunk.get(0),
                () ->
                    client
                        .get()
                        .deleteObjects(
                            b ->
                                b.bucket(bucket.getKey())
                                    .delete(d -> d.objects(keys).quiet(true))));
        if (!response.errors().isEmpty()) {
          S3Error error = response.errors().get(0);
          throw new IOException(
              "Cannot delete s3://"
                  + bucket.getKey()
                  + "/"
                  + error.key()
                  + ": "
                  + error.code()
                  + " "
                  + error.message()
                  + (response.errors().size() > 1
                      ? " (and " + (response.errors().size() - 1) + " more)"
                      : ""));
        }
      }
    }
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

  /**
   * A pending upload's marker is published by completing its upload; any other object by a
   * server-side copy and a delete.
   */
  @Override
  public void moveWithoutRename(StorePath from, StorePath to, boolean replace) throws IOException {
    HeadObjectResponse head =
        head(from).orElseThrow(() -> new NoSuchFileException(from.toString()));
    if (S3PendingUploads.visibleKeyOf(head).isPresent()) {
      pending.publish(from, to, replace);
      return;
    }
    if (!replace && head(to).isPresent()) {
      throw new FileAlreadyExistsException(to.toString());
    }
    copy(from, to);
    deleteObject(from);
  }

  private void deleteObject(StorePath path) throws IOException {
    call(path, () -> client.get().deleteObject(b -> b.bucket(bucket(path)).key(path.key())));
  }

  @Override
  public int abortOpenUploads(StorePath dir, Predicate<String> hiddenName) throws IOException {
    return pending.abortOpen(dir, prefix(dir), hiddenName);
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
