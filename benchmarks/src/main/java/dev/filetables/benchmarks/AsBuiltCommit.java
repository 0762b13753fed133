package dev.filetables.benchmarks;

import dev.filetables.benchmarks.S3RequestCounter.Counts;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.TablePaths;
import dev.filetables.pipelines.storage.LocalS3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * (c) What FileTables does, through its own store and file operations: {@code
 * FileOps.createForPublish} (the parts of a multipart upload at the final key, and a marker at the
 * hidden key, when the stream closes) before the checkpoint, {@code FileOps.publish} (its existence
 * checks, CompleteMultipartUpload, the delete of the marker) at it. Its requests are sent by the
 * stores' own client, counted by {@link CountingS3ClientFactory} like the others'.
 */
final class AsBuiltCommit implements S3CommitProtocol {
  private final S3Client s3;
  private final String bucket;
  private final S3RequestCounter counter;
  private final LocalS3Server server;

  /** (b), whose requests are the store's until the marker is written. */
  private final MultipartCompleteCommit beforeMarker;

  AsBuiltCommit(
      S3Client s3, String bucket, int partSize, S3RequestCounter counter, LocalS3Server server) {
    this.s3 = s3;
    this.bucket = bucket;
    this.counter = counter;
    this.server = server;
    this.beforeMarker = new MultipartCompleteCommit(s3, bucket, partSize);
  }

  @Override
  public String label() {
    return "(c) FileTables as built";
  }

  @Override
  public boolean appliesTo(long size) {
    return true;
  }

  @Override
  public Staged stage(String finalKey, byte[] data) {
    Path hidden = path(HiddenKeyCopyCommit.hiddenKey(finalKey));
    try (OutputStream out =
        FileOps.createForPublish(hidden.getParent(), hidden.getFileName().toString())) {
      out.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Staged(finalKey, HiddenKeyCopyCommit.hiddenKey(finalKey), null, List.of());
  }

  /** Returns the bytes copied: the file's size per CopyObject the publish sent (none expected). */
  @Override
  public long commit(Staged staged) {
    Counts before = counter.snapshot();
    try {
      FileOps.publish(path(staged.uploadKey()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long copies = counter.snapshot().minus(before).requests().getOrDefault("CopyObject", 0L);
    return copies == 0
        ? 0
        : copies * s3.headObject(b -> b.bucket(bucket).key(staged.finalKey())).contentLength();
  }

  /** What the store has sent when a crash stops it before the marker: an upload begun, a part. */
  @Override
  public boolean stageInterrupted(String finalKey, byte[] data) {
    return beforeMarker.stageInterrupted(finalKey, data);
  }

  /** The publish stopped between CompleteMultipartUpload and the delete of the marker. */
  @Override
  public boolean commitInterrupted(Staged staged) {
    try {
      server.completeLeavingMarker(bucket, staged.uploadKey());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return true;
  }

  private Path path(String key) {
    return TablePaths.of("s3://" + bucket + "/" + key);
  }
}
