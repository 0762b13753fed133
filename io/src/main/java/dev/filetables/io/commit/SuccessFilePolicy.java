package dev.filetables.io.commit;

import dev.filetables.io.files.FileOps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The {@code success-file} policy: writes {@code sink.partition-commit.success-file.name} (default
 * {@code _SUCCESS}) into the partition directory — an empty file as Flink does, or with {@code
 * sink.partition-commit.success-file.manifest} the partition's {@link CommitManifest}.
 *
 * <p>Atomic and idempotent: the content goes to a hidden temporary file in the same directory,
 * which is then renamed over the success file, so a reader sees the old file or the new one, never
 * a partial one, and a re-commit simply replaces it.
 */
@Internal
public final class SuccessFilePolicy implements PartitionCommitPolicy {
  private final String fileName;
  private final boolean manifest;

  SuccessFilePolicy(String fileName, boolean manifest) {
    if (fileName.isEmpty() || fileName.contains("/") || fileName.contains("\\")) {
      throw new IllegalArgumentException(
          "A success file name must be a plain file name, was '" + fileName + "'");
    }
    this.fileName = fileName;
    this.manifest = manifest;
  }

  public String fileName() {
    return fileName;
  }

  public boolean writesManifest() {
    return manifest;
  }

  @Override
  public void commit(PartitionCommitContext context) throws IOException {
    Path dir = context.partitionDirectory();
    Files.createDirectories(dir);
    byte[] content =
        manifest ? CommitManifest.toJson(context).getBytes(StandardCharsets.UTF_8) : new byte[0];
    Path temp = dir.resolve("." + fileName + "." + UUID.randomUUID() + ".tmp");
    FileOps.writeWhole(dir.resolve(fileName), temp, content, true);
  }

  @Override
  public String toString() {
    return "success-file(" + fileName + (manifest ? ", manifest" : "") + ")";
  }
}
