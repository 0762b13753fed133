package dev.filetables.transforms.sink;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TablePaths;
import java.io.Serializable;
import java.nio.file.Path;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Where the part files of one write go: {@code root/<partition path>/} with names from {@link
 * PartFileName} carrying this write's uuid, so files of different writes never collide and a write
 * can recognise its own in-progress leftovers.
 */
@Internal
public final class PartFiles implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String root;
  private final String writeUuid;
  private final String extension;

  public PartFiles(Path root, String writeUuid, String extension) {
    this.root = root.toAbsolutePath().normalize().toString();
    this.writeUuid = writeUuid;
    this.extension = extension;
  }

  public Path root() {
    return TablePaths.of(root);
  }

  public String writeUuid() {
    return writeUuid;
  }

  public Path directory(String partitionPath) {
    return partitionPath.isEmpty() ? root() : root().resolve(partitionPath);
  }

  /** In-progress file name of a writer's {@code counter}-th file. */
  public String inProgressName(String writerId, long counter) {
    return PartFileName.hidden(writeUuid, writerId, counter, extension);
  }

  /** Absolute in-progress path of a writer's {@code counter}-th file in a partition. */
  public Path inProgress(String partitionPath, String writerId, long counter) {
    return directory(partitionPath).resolve(inProgressName(writerId, counter));
  }

  /** The visible path an in-progress file is published under (same directory). */
  public static Path visibleOf(Path inProgress) {
    return inProgress.resolveSibling(PartFileName.visibleOf(inProgress.getFileName().toString()));
  }

  /** True for an in-progress file name of this write (any writer, any attempt). */
  public boolean isInProgressOfThisWrite(String fileName) {
    return PartFileName.parse(fileName)
        .map(parts -> parts.inProgress() && parts.uuid().equals(writeUuid))
        .orElse(false);
  }
}
