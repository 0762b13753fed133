package dev.filetables.io.compaction;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.format.FileMerger;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the visible files of one committed partition directory into files of about a target
 * size, atomically for FileTables readers ({@link ReplacedFiles} describes the protocol), and
 * cleans up what earlier runs left. One run per table at a time.
 *
 * <p>Only part files of the table's format ({@code part-…<ext>}, written by FileTables) smaller
 * than the target are merged; other files are left alone. Files are grouped in name order until a
 * group reaches the target; a group of one is left as it is. Each group is merged without decoding
 * where the format allows ({@link dev.filetables.io.format.FileMergers}). Merged names derive from
 * the inputs, so a run that crashed is finished by the next one.
 */
public final class OfflineCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(OfflineCompaction.class);

  /** Before/after figures of one partition. */
  public record Result(
      Path directory,
      int filesBefore,
      long bytesBefore,
      int filesAfter,
      long bytesAfter,
      int groups,
      int deleted) {}

  private final FileMerger merger;
  private final String extension;
  private final long targetSize;
  private final Duration grace;

  /**
   * @param grace how long replaced files stay for readers that listed the directory before the
   *     swap; they are deleted by the first run after it (zero: at once)
   */
  public OfflineCompaction(FileMerger merger, String extension, long targetSize, Duration grace) {
    if (targetSize <= 0) {
      throw new IllegalArgumentException("target size must be positive, got " + targetSize);
    }
    this.merger = merger;
    this.extension = extension;
    this.targetSize = targetSize;
    this.grace = grace;
  }

  /** A visible data file of the directory as readers see it. */
  private record Visible(Path path, long size) {}

  /** Compacts {@code dir} (or, with {@code dryRun}, only computes what it would do). */
  public Result compact(Path dir, boolean dryRun) throws IOException {
    int deleted = dryRun ? 0 : cleanUp(dir);
    List<Visible> before = visibleFiles(dir);
    List<List<Visible>> groups = plan(before);
    int filesAfter = before.size();
    long bytesAfter = 0;
    for (Visible file : before) {
      bytesAfter += file.size();
    }
    for (List<Visible> group : groups) {
      filesAfter -= group.size() - 1;
      if (!dryRun) {
        long merged = merge(dir, group);
        for (Visible input : group) {
          bytesAfter -= input.size();
        }
        bytesAfter += merged;
      }
    }
    if (!dryRun && grace.isZero()) {
      deleted += cleanUp(dir);
    }
    long bytesBefore = before.stream().mapToLong(Visible::size).sum();
    return new Result(
        dir,
        before.size(),
        bytesBefore,
        filesAfter,
        dryRun ? bytesBefore : bytesAfter,
        groups.size(),
        deleted);
  }

  /**
   * The groups to merge: small part files of the format in name order, each group up to the target.
   */
  List<List<Visible>> plan(List<Visible> files) {
    List<List<Visible>> groups = new ArrayList<>();
    List<Visible> current = new ArrayList<>();
    long size = 0;
    for (Visible file : files) {
      String name = file.path().getFileName().toString();
      boolean mergeable =
          file.size() < targetSize
              && PartFileName.parse(name)
                  .map(p -> !p.inProgress() && p.extension().equals(extension))
                  .orElse(false);
      if (!mergeable) {
        continue;
      }
      current.add(file);
      size += file.size();
      if (size >= targetSize) {
        groups.add(current);
        current = new ArrayList<>();
        size = 0;
      }
    }
    if (current.size() > 1) {
      groups.add(current);
    }
    groups.removeIf(group -> group.size() < 2);
    return groups;
  }

  /** Merges one group and swaps it in: merged hidden → sidecar → rename (commit) → delete later. */
  private long merge(Path dir, List<Visible> group) throws IOException {
    List<String> names = new ArrayList<>();
    List<Path> inputs = new ArrayList<>();
    for (Visible input : group) {
      names.add(input.path().getFileName().toString());
      inputs.add(input.path());
    }
    String hiddenName = CompactedFileName.hidden(CompactedFileName.OFFLINE_UUID, names, extension);
    Path hidden = dir.resolve(hiddenName);
    Path visible = dir.resolve(PartFileName.visibleOf(hiddenName));
    FileOps.deleteQuietly(hidden); // a partial output of a crashed run
    try (OutputStream out = FileOps.createForPublish(dir, hiddenName)) { // published unread
      merger.merge(inputs, out);
    } catch (IOException | RuntimeException e) {
      FileOps.deleteQuietly(hidden);
      throw e;
    }
    ReplacedFiles.write(visible, names);
    FileOps.publish(hidden); // the commit point: from here on readers take the merged file
    LOG.info("Merged {} files of {} into {}", names.size(), dir, visible.getFileName());
    return Files.size(visible);
  }

  /**
   * Deletes what earlier runs left in {@code dir}: replaced files whose merged file is visible and
   * whose grace period has passed, sidecars whose merged file is gone (never published, or itself
   * replaced and deleted), and hidden partial outputs of offline compaction. Returns how many.
   */
  int cleanUp(Path dir) throws IOException {
    int deleted = 0;
    long now = System.currentTimeMillis();
    for (Path entry : entries(dir)) {
      String name = entry.getFileName().toString();
      if (ReplacedFiles.isSidecar(name)) {
        Path merged = ReplacedFiles.mergedOf(entry);
        if (!Files.exists(merged, LinkOption.NOFOLLOW_LINKS)) {
          // deleted before its merged file only if that file is gone: readers never miss a sidecar
          deleted += FileOps.deleteQuietly(entry) ? 1 : 0;
          continue;
        }
        long age = now - Files.getLastModifiedTime(entry).toMillis();
        if (age >= grace.toMillis()) {
          for (String replaced : ReplacedFiles.read(merged)) {
            deleted += FileOps.deleteQuietly(dir.resolve(replaced)) ? 1 : 0;
          }
        }
      } else if (PartFileName.isInProgress(name)
          && name.startsWith(".part-" + CompactedFileName.OFFLINE_UUID + "-")) {
        deleted += FileOps.deleteQuietly(entry) ? 1 : 0;
      }
    }
    return deleted;
  }

  /** The visible data files of {@code dir}, sorted, without files replaced per the protocol. */
  private static List<Visible> visibleFiles(Path dir) throws IOException {
    List<Path> all = entries(dir);
    List<String> visibleNames = new ArrayList<>();
    for (Path entry : all) {
      if (!PartFileName.isHidden(entry.getFileName().toString())) {
        visibleNames.add(entry.getFileName().toString());
      }
    }
    Set<String> replaced = ReplacedFiles.replacedNames(dir, visibleNames);
    List<Visible> files = new ArrayList<>();
    for (String name : visibleNames) {
      if (replaced.contains(name)) {
        continue;
      }
      try {
        BasicFileAttributes attrs =
            Files.readAttributes(
                dir.resolve(name), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attrs.isRegularFile()) {
          files.add(new Visible(dir.resolve(name), attrs.size()));
        }
      } catch (NoSuchFileException e) {
        // deleted meanwhile
      }
    }
    return files;
  }

  private static List<Path> entries(Path dir) throws IOException {
    Set<Path> entries = new LinkedHashSet<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entries::add);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    List<Path> sorted = new ArrayList<>(entries);
    Collections.sort(sorted);
    return sorted;
  }
}
