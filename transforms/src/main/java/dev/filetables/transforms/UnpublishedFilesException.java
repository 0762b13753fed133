package dev.filetables.transforms;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A streaming write ended, its post-job publish ran, and hidden files of the write are still in the
 * table: nothing will ever publish them, so rows in them may be missing from the table. Thrown by
 * {@link FileTableMaintenance#finishWrite} instead of reporting success; the files are left in
 * place for inspection.
 */
public final class UnpublishedFilesException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private static final int NAMED = 10;

  private final List<Path> files;

  UnpublishedFilesException(String table, @Nullable String writeUuid, Path root, List<Path> files) {
    super(message(table, writeUuid, root, files));
    this.files = List.copyOf(files);
  }

  /** The hidden files left, absolute. */
  public List<Path> files() {
    return files;
  }

  private static String message(
      String table, @Nullable String writeUuid, Path root, List<Path> files) {
    String named =
        files.stream()
            .limit(NAMED)
            .map(f -> root.relativize(f).toString())
            .collect(Collectors.joining(", "));
    return "table `"
        + table
        + "`: "
        + (writeUuid == null ? "" : "write " + writeUuid + " ")
        + "ended with "
        + files.size()
        + " hidden file(s) that nothing will publish, so rows in them may"
        + " be missing from the table: "
        + named
        + (files.size() > NAMED ? ", …" : "")
        + " (under "
        + root
        + "; kept for inspection)";
  }
}
