package dev.filetables.io.files.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Files created for a publish ({@link PublishedAt}): the bytes go to a multipart upload at the
 * visible key, left open (invisible to HEAD and listings); a small <b>marker</b> object at the
 * hidden key records the upload ({@link PendingUpload}: visible key, upload id, part ETags, size).
 * The marker stands for the file wherever the table code handles the hidden file: its stat reports
 * the file's size (object metadata), a move to the visible name completes the upload, a delete
 * aborts it. Reading it fails: the bytes exist only once published.
 *
 * <p>Why: publishing a hidden object on S3 is a server-side copy of the whole file and a delete;
 * completing an upload is one request and copies nothing (docs/storage.md, measured in
 * docs/benchmarks.md).
 */
final class S3PendingUploads {
  private static final Logger LOG = LoggerFactory.getLogger(S3PendingUploads.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Object metadata of a marker (S3 lower-cases user metadata names). */
  private static final String VISIBLE_KEY = "filetables-pending-key";

  private static final String UPLOAD_ID = "filetables-upload-id";
  private static final String SIZE = "filetables-size";

  private static final String IN_PROGRESS = ".inprogress";

  /** Parts of 8 MiB (more for files above 78 GiB, see {@link S3Multipart#partSize}). */
  private static final long PART_SIZE = 8L << 20;

  private final Supplier<S3Client> client;

  S3PendingUploads(Supplier<S3Client> client) {
    this.client = client;
  }

  /** What a marker records; the parts only in its body, the rest also in its metadata. */
  record PendingUpload(String visibleKey, String uploadId, long size, List<Part> parts) {
    record Part(int number, String etag) {}
  }

  /**
   * The visible key of the upload a marker's HEAD describes, or empty for a plain object. Metadata
   * travels in HTTP headers, which take ASCII only: the key is stored URL-encoded.
   */
  static Optional<String> visibleKeyOf(HeadObjectResponse head) {
    return visibleKeyOf(head.metadata());
  }

  /** {@link #visibleKeyOf(HeadObjectResponse)} from an object's metadata (a GET's too). */
  static Optional<String> visibleKeyOf(Map<String, String> metadata) {
    return Optional.ofNullable(metadata.get(VISIBLE_KEY))
        .map(key -> URLDecoder.decode(key, StandardCharsets.UTF_8));
  }

  /** The size of the file an object stands for: a marker's upload, or the object itself. */
  static long sizeOf(HeadObjectResponse head) {
    String size = head.metadata().get(SIZE);
    return size == null ? head.contentLength() : Long.parseLong(size);
  }

  /**
   * Uploads the spooled file in parts to an upload at {@code visible}, then writes the marker at
   * {@code marker}. A failure aborts the upload; without its id (the answer to the create was
   * lost), every open upload at {@code visible}: the marker's name was free, so none is live. A
   * crash between the two leaves an open upload that no marker names (see {@link
   * S3Store#abortOpenUploads}).
   */
  void begin(StorePath marker, StorePath visible, Path spool, long size) throws IOException {
    S3Multipart upload = multipart(visible);
    String started = null;
    try {
      started = upload.create();
      String uploadId = started;
      List<CompletedPart> sent =
          upload.uploadParts(uploadId, spool, size, S3Multipart.partSize(size, PART_SIZE));
      PendingUpload pending =
          new PendingUpload(
              visible.key(),
              uploadId,
              size,
              sent.stream().map(p -> new PendingUpload.Part(p.partNumber(), p.eTag())).toList());
      byte[] body = JSON.writeValueAsBytes(pending);
      S3Store.call(
          marker,
          () ->
              client
                  .get()
                  .putObject(
                      b ->
                          b.bucket(bucket(marker))
                              .key(marker.key())
                              .contentType("application/json")
                              .metadata(
                                  Map.of(
                                      VISIBLE_KEY,
                                      URLEncoder.encode(visible.key(), StandardCharsets.UTF_8),
                                      UPLOAD_ID,
                                      uploadId,
                                      SIZE,
                                      Long.toString(size))),
                      RequestBody.fromBytes(body)));
    } catch (IOException | RuntimeException e) {
      upload.abortAfter(started, e);
      throw e;
    }
  }

  /**
   * Publishes the marker {@code marker} at {@code target}: completes its upload, never over an
   * existing object unless {@code replace}, then deletes the marker. A replay after a completed
   * upload (the Complete answers 404 NoSuchUpload on S3, or 412 since the key exists) is recognised
   * by the visible object's size, as Flink's S3 committer does.
   */
  void publish(StorePath marker, StorePath target, boolean replace) throws IOException {
    PendingUpload pending = read(marker);
    if (!bucket(marker).equals(bucket(target)) || !pending.visibleKey().equals(target.key())) {
      throw new IOException(
          marker
              + " is a pending upload to s3://"
              + bucket(marker)
              + "/"
              + pending.visibleKey()
              + " and can only be published there, not at "
              + target);
    }
    S3Multipart upload = multipart(target);
    List<CompletedPart> parts =
        pending.parts().stream()
            .map(p -> CompletedPart.builder().partNumber(p.number()).eTag(p.etag()).build())
            .toList();
    try {
      upload.complete(pending.uploadId(), parts, !replace);
    } catch (S3Exception e) {
      if (e.statusCode() != 404 && e.statusCode() != 412) {
        throw S3Errors.toIOException(target, e);
      }
      Optional<Long> visibleSize = sizeAt(target);
      if (visibleSize.isEmpty() || visibleSize.get() != pending.size()) {
        if (e.statusCode() == 412) {
          throw new FileAlreadyExistsException(
              target.toString(),
              marker.toString(),
              "refusing to complete a pending upload over an existing object of another size");
        }
        throw new NoSuchFileException(
            target.toString(),
            marker.toString(),
            "the pending upload is gone (aborted?) and no object of its size is at its key");
      }
      LOG.info("{} was completed before; deleting its marker {}", target, marker);
    } catch (RuntimeException e) {
      throw S3Errors.toIOException(target, e);
    }
    deleteMarker(marker);
  }

  /** Deletes a marker and aborts its upload (nothing if the upload was completed or aborted). */
  void delete(StorePath marker, HeadObjectResponse head) throws IOException {
    StorePath visible = sibling(marker, visibleKeyOf(head).orElseThrow());
    multipart(visible).abort(head.metadata().get(UPLOAD_ID));
    deleteMarker(marker);
  }

  /**
   * Aborts the open uploads whose key is {@code prefix} + a name whose hidden name ({@code
   * .<name>.inprogress}) matches: one ListMultipartUploads per 1,000 uploads, one abort each.
   */
  int abortOpen(StorePath dir, String prefix, Predicate<String> hiddenName) throws IOException {
    int aborted = 0;
    String keyMarker = null;
    String uploadIdMarker = null;
    do {
      String keys = keyMarker;
      String ids = uploadIdMarker;
      ListMultipartUploadsResponse page =
          S3Store.call(
              dir,
              () ->
                  client
                      .get()
                      .listMultipartUploads(
                          b ->
                              b.bucket(bucket(dir))
                                  .prefix(prefix)
                                  .delimiter("/")
                                  .keyMarker(keys)
                                  .uploadIdMarker(ids)));
      for (MultipartUpload upload : page.uploads()) {
        String name = upload.key().substring(prefix.length());
        if (hiddenName.test("." + name + IN_PROGRESS)) {
          LOG.info("Aborting the open upload of {} (its marker was never written)", upload.key());
          multipart(sibling(dir, upload.key())).abort(upload.uploadId());
          aborted++;
        }
      }
      boolean more = Boolean.TRUE.equals(page.isTruncated());
      keyMarker = more ? page.nextKeyMarker() : null;
      uploadIdMarker = more ? page.nextUploadIdMarker() : null;
    } while (keyMarker != null);
    return aborted;
  }

  /** The one-line failure of reading a marker. */
  static IOException unreadable(StorePath marker, String visibleKey) {
    return new IOException(
        marker
            + " is a pending upload to "
            + visibleKey
            + ", readable only at its visible name after its publish");
  }

  private PendingUpload read(StorePath marker) throws IOException {
    byte[] body =
        S3Store.call(
                marker,
                () ->
                    client.get().getObjectAsBytes(b -> b.bucket(bucket(marker)).key(marker.key())))
            .asByteArray();
    try {
      return JSON.readValue(body, PendingUpload.class);
    } catch (IOException e) {
      throw new IOException(marker + " is not a readable pending-upload marker: " + e, e);
    }
  }

  private Optional<Long> sizeAt(StorePath path) throws IOException {
    try {
      HeadObjectResponse head =
          S3Store.call(
              path, () -> client.get().headObject(b -> b.bucket(bucket(path)).key(path.key())));
      return Optional.of(head.contentLength());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private void deleteMarker(StorePath marker) throws IOException {
    S3Store.call(
        marker, () -> client.get().deleteObject(b -> b.bucket(bucket(marker)).key(marker.key())));
  }

  private S3Multipart multipart(StorePath file) {
    return new S3Multipart(client.get(), file, bucket(file), file.key());
  }

  /** The path of {@code key} in the bucket of {@code path}. */
  private static StorePath sibling(StorePath path, String key) {
    return (StorePath) path.getFileSystem().getPath("/" + key);
  }

  private static String bucket(StorePath path) {
    return path.getFileSystem().authority();
  }
}
