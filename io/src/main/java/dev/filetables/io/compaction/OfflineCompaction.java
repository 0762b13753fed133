package dev.filetables.io.compaction;

import dev.filetables.io.compaction.OfflineCompactionFailpoints.Point;
import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.DirectoryEntries;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.InputPlacement;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the visible files of committed partition directories into files of about a target size,
 * atomically for FileTables readers ({@link ReplacedFiles} describes the protocol), hides the
 * replaced files from every other reader before it returns, and cleans up what earlier runs left.
 * One run per table at a time.
 *
 * <p>Only part files of the table's format ({@code part-…<ext>}, written by FileTables) smaller
 * than the target are merged; other files are left alone. Files are grouped in name order until a
 * group reaches the target; a group of one is left as it is. Each group is merged without decoding
 * where the format allows ({@link dev.filetables.io.format.FileMergers}). Merged names derive from
 * the inputs, so a run that crashed is finished by the next one.
 *
 * <p>A run has two phases over its partitions, each in parallel on a thread pool: first every
 * partition is cleaned up ({@link CompactionCleanup}) and its groups merged and committed; then,
 * after a short settle time, the files each commit replaced are moved to their hidden grace names
 * (or deleted, with a zero grace period). The settle time is waited once per run, not per
 * partition.
 */
public final class OfflineCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(OfflineCompaction.class);

  /**
   * How long a merged file is visible before the files it replaces disappear: a FileTables listing
   * of the directory that began before the merged file's sidecar was written must have ended by
   * then (a listing of one directory takes milliseconds; on S3 one request per 1000 entries).
   */
  static final Duration LISTING_SETTLE = Duration.ofSeconds(2);

  /** Before/after figures of one partition. */
  public record Result(
      Path directory,
      int filesBefore,
      long bytesBefore,
      int filesAfter,
      long bytesAfter,
      int groups,
      int retired,
      int deleted) {

    private Result plus(CompactionCleanup.Counts counts) {
      return new Result(
          directory,
          filesBefore,
          bytesBefore,
          filesAfter,
          bytesAfter,
          groups,
          retired + counts.retired(),
          deleted + counts.deleted());
    }
  }

  private final FileMerger merger;
  private final String extension;
  private final long targetSize;
  private final CompactionCleanup cleanup;

  /**
   * @param grace how long replaced files stay under their hidden grace names for FileTables readers
   *     that listed the directory before the swap; they are deleted by the first run after it
   *     (zero: deleted at once instead of moved)
   */
  public OfflineCompaction(FileMerger merger, String extension, long targetSize, Duration grace) {
    if (targetSize <= 0) {
      throw new IllegalArgumentException("target size must be positive, got " + targetSize);
    }
    if (grace.isNegative()) {
      throw new IllegalArgumentException("the grace period must not be negative, got " + grace);
    }
    this.merger = merger;
    this.extension = extension;
    this.targetSize = targetSize;
    this.cleanup = new CompactionCleanup(grace, LISTING_SETTLE);
  }

  /**
   * A visible data file of the directory as readers see it, with the origins its sidecar records if
   * it is itself a merged file (empty otherwise, or when unknown).
   */
  private record Visible(
      Path path, long size, long modificationTimeMillis, List<ReplacedFiles.Origin> origins) {}

  /**
   * Compacts the partition directories {@code dirs} on a thread pool (one thread per core), or with
   * {@code dryRun} only computes what it would do; one result per directory, in order.
   */
  public List<Result> compact(List<Path> dirs, boolean dryRun) throws IOException {
    int threads = Math.max(1, Math.min(dirs.size(), Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Result> merged = inParallel(pool, dirs, dir -> merge(dir, dryRun));
      if (dryRun) {
        return merged;
      }
      return inParallel(
          pool,
          merged,
          result -> result.groups() > 0 ? result.plus(cleanup.run(result.directory())) : result);
    } finally {
      pool.shutdownNow();
    }
  }

  /** One step of a phase, for one directory. */
  private interface Step<I, T> {
    T apply(I input) throws IOException;
  }

  private static <I, T> List<T> inParallel(ExecutorService pool, List<I> inputs, Step<I, T> step)
      throws IOException {
    List<Future<T>> futures = new ArrayList<>();
    for (I input : inputs) {
      futures.add(pool.submit(() -> step.apply(input)));
    }
    List<T> results = new ArrayList<>();
    try {
      for (Future<T> future : futures) {
        results.add(future.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while compacting");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IOException(cause);
    }
    return results;
  }

  /**
   * Phase one for {@code dir}: cleans up what earlier runs left, then merges and commits its groups
   * (or, with {@code dryRun}, only computes what it would do).
   */
  private Result merge(Path dir, boolean dryRun) throws IOException {
    CompactionCleanup.Counts cleaned =
        dryRun ? new CompactionCleanup.Counts(0, 0) : cleanup.run(dir);
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
    long bytesBefore = before.stream().mapToLong(Visible::size).sum();
    return new Result(
        dir,
        before.size(),
        bytesBefore,
        filesAfter,
        dryRun ? bytesBefore : bytesAfter,
        groups.size(),
        cleaned.retired(),
        cleaned.deleted());
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

  /**
   * Merges one group and commits it: merged hidden → sidecar (with the merged file's origins) →
   * rename (the commit point). Its inputs are moved out of sight in phase two.
   */
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
    Optional<List<InputPlacement>> placements;
    try (OutputStream out = FileOps.createForPublish(dir, hiddenName)) { // published unread
      placements = merger.mergePlaced(inputs, out);
    } catch (IOException | RuntimeException e) {
      FileOps.deleteQuietly(hidden);
      throw e;
    }
    OfflineCompactionFailpoints.reached(Point.MERGED, hidden);
    ReplacedFiles.write(visible, names, placements.map(p -> origins(group, p)).orElse(List.of()));
    OfflineCompactionFailpoints.reached(Point.SIDECAR_WRITTEN, hidden);
    FileOps.publish(
        hidden); // the commit point: from here on FileTables readers take the merged file
    cleanup.committed(visible);
    OfflineCompactionFailpoints.reached(Point.COMMITTED, visible);
    LOG.info("Merged {} files of {} into {}", names.size(), dir, visible.getFileName());
    return Files.size(visible);
  }

  /**
   * The origins of a merged group: each input's rows where the merge placed them, and for an input
   * that was itself merged, the origins it holds, moved as its bytes were. So a reader that has
   * read some of those files (the watched source) can take the rest of them from the merged file.
   */
  private static List<ReplacedFiles.Origin> origins(
      List<Visible> group, List<InputPlacement> placements) {
    List<ReplacedFiles.Origin> origins = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      Visible input = group.get(i);
      InputPlacement placed = placements.get(i);
      if (input.origins().isEmpty()) {
        origins.add(
            new ReplacedFiles.Origin(
                input.path().getFileName().toString(),
                input.modificationTimeMillis(),
                placed.rows().start(),
                placed.rows().end()));
      } else {
        input.origins().forEach(inner -> origins.add(inner.movedBy(placed.shift())));
      }
    }
    return origins;
  }

  /** The visible data files of {@code dir}, sorted, without files replaced per the protocol. */
  private static List<Visible> visibleFiles(Path dir) throws IOException {
    Map<String, BasicFileAttributes> visible = DirectoryEntries.visible(dir);
    Map<String, ReplacedFiles.Sidecar> sidecars =
        ReplacedFiles.sidecars(dir, new ArrayList<>(visible.keySet()));
    Set<String> replaced = new HashSet<>();
    sidecars.values().forEach(sidecar -> replaced.addAll(sidecar.replaced()));
    List<Visible> files = new ArrayList<>();
    visible.forEach(
        (name, attrs) -> {
          if (!replaced.contains(name) && attrs.isRegularFile()) {
            ReplacedFiles.Sidecar sidecar = sidecars.get(name);
            files.add(
                new Visible(
                    dir.resolve(name),
                    attrs.size(),
                    attrs.lastModifiedTime().toMillis(),
                    sidecar == null ? List.of() : sidecar.origins()));
          }
        });
    return files;
  }
}
