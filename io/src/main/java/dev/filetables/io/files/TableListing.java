package dev.filetables.io.files;

import com.google.auto.value.AutoValue;
import dev.filetables.io.partition.PartitionFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Lists a table's visible data files by walking its partition directories level by level.
 *
 * <p>Only directories named {@code key=value} with the expected key at each level are descended;
 * names starting with '.' or '_' are skipped (files and directories); the filter is tested after
 * each level so non-matching subtrees are never opened; {@code pathRegex} (when present) must match
 * the file's full absolute path. Directories above the root never count as partitions. Data files
 * are the regular files (or links to them) inside the last partition level, directly under the root
 * for an unpartitioned table. Anything else that is not read (a directory of another key, a file
 * above the last level, a directory inside it, a dangling link) is logged at WARN and returned by
 * {@link #scan} as {@link IgnoredEntry ignored}. A missing root is an empty table (logged at INFO).
 * Files replaced by an offline compaction's merged file in the same directory are left out ({@link
 * ReplacedFiles}: the protocol that makes a compaction atomic for readers); the origins their
 * sidecars record come with the listing. Files are sorted by path.
 */
@Internal
public final class TableListing {
  private TableListing() {}

  /** The files of a listing and what it did not read. */
  @AutoValue
  public abstract static class Result {
    public abstract List<DataFile> files();

    abstract List<IgnoredEntry> ignored();

    /**
     * The origins of the listed merged files whose sidecars record them, by merged file path
     * ({@link ReplacedFiles.Origin}).
     */
    public abstract Map<String, List<ReplacedFiles.Origin>> origins();

    static Result of(
        List<DataFile> files,
        List<IgnoredEntry> ignored,
        Map<String, List<ReplacedFiles.Origin>> origins) {
      return new AutoValue_TableListing_Result(
          List.copyOf(files), List.copyOf(ignored), Map.copyOf(origins));
    }
  }

  public static List<DataFile> list(
      Path root,
      List<String> partitionKeys,
      String defaultPartitionName,
      PartitionFilter filter,
      Optional<Pattern> pathRegex)
      throws IOException {
    return scan(root, partitionKeys, defaultPartitionName, filter, pathRegex).files();
  }

  /** Like {@link #list}, also returning the entries that were not read. */
  public static Result scan(
      Path root,
      List<String> partitionKeys,
      String defaultPartitionName,
      PartitionFilter filter,
      Optional<Pattern> pathRegex)
      throws IOException {
    return scan(root, partitionKeys, defaultPartitionName, filter, pathRegex, PartitionWalker.NIO);
  }

  /**
   * Like {@link #scan}, reading only the leaf (last-level) directories {@code readLeaf} accepts: a
   * watching reader skips partitions it knows are complete without listing their files.
   */
  public static Result scan(
      Path root,
      List<String> partitionKeys,
      String defaultPartitionName,
      PartitionFilter filter,
      Optional<Pattern> pathRegex,
      java.util.function.Predicate<Path> readLeaf)
      throws IOException {
    return scan(
        root,
        partitionKeys,
        defaultPartitionName,
        filter,
        pathRegex,
        PartitionWalker.NIO,
        readLeaf);
  }

  static Result scan(
      Path root,
      List<String> partitionKeys,
      String defaultPartitionName,
      PartitionFilter filter,
      Optional<Pattern> pathRegex,
      PartitionWalker.DirectoryOpener opener)
      throws IOException {
    return scan(root, partitionKeys, defaultPartitionName, filter, pathRegex, opener, dir -> true);
  }

  private static Result scan(
      Path root,
      List<String> partitionKeys,
      String defaultPartitionName,
      PartitionFilter filter,
      Optional<Pattern> pathRegex,
      PartitionWalker.DirectoryOpener opener,
      java.util.function.Predicate<Path> readLeaf)
      throws IOException {
    PartitionWalker walker =
        new PartitionWalker(partitionKeys, defaultPartitionName, filter, opener);
    List<DataFile> files = new ArrayList<>();
    Map<String, List<ReplacedFiles.Origin>> origins = new HashMap<>();
    walker.walk(
        root.toAbsolutePath(),
        (dir, partition) -> {
          if (!readLeaf.test(dir)) {
            return;
          }
          List<Path> entries = walker.visibleEntries(dir);
          // files an offline compaction has replaced by a merged file of this listing are not read
          Map<String, ReplacedFiles.Sidecar> sidecars =
              ReplacedFiles.sidecars(
                  dir, entries.stream().map(p -> p.getFileName().toString()).toList());
          Set<String> replaced = new HashSet<>();
          sidecars.values().forEach(sidecar -> replaced.addAll(sidecar.replaced()));
          for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (replaced.contains(name)) {
              continue;
            }
            BasicFileAttributes attrs = walker.attributes(entry);
            if (attrs == null) {
              continue;
            }
            if (attrs.isDirectory()) {
              walker.ignore(
                  entry,
                  "a directory inside the last partition level"
                      + (partitionKeys.isEmpty()
                          ? " of an unpartitioned table"
                          : " " + partitionKeys)
                      + "; only files are read here");
              continue;
            }
            if (!attrs.isRegularFile()) {
              walker.ignore(entry, "not a regular file");
              continue;
            }
            String path = entry.toString();
            if (pathRegex.isPresent() && !pathRegex.get().matcher(path).matches()) {
              continue; // deliberately not read: not ignored
            }
            files.add(
                DataFile.of(path, partition, attrs.size(), attrs.lastModifiedTime().toMillis()));
            ReplacedFiles.Sidecar sidecar = sidecars.get(name);
            if (sidecar != null && !sidecar.origins().isEmpty()) {
              origins.put(path, sidecar.origins());
            }
          }
        });
    files.sort(Comparator.comparing(DataFile::path));
    return Result.of(files, walker.ignored(), origins);
  }
}
