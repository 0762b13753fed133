package dev.filetables.io.files;

import dev.filetables.io.partition.PartitionFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Lists a table's visible data files by walking its partition directories level by level.
 *
 * <p>SKELETON – contract: only directories named {@code key=value} with the expected key at each level
 * are descended; names starting with '.' or '_' are skipped (files and directories); the filter is
 * tested after each level so non-matching subtrees are never opened; {@code pathRegex} (when present)
 * must match the file's full absolute path. Directories above the root never count as partitions.
 */
public final class TableListing {
  private TableListing() {}

  public static List<DataFile> list(
      Path root,
      List<String> partitionKeys,
      String defaultPartitionName,
      PartitionFilter filter,
      Optional<Pattern> pathRegex)
      throws IOException {
    throw new UnsupportedOperationException("TODO");
  }
}
