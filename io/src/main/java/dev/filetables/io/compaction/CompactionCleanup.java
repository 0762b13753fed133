package dev.filetables.io.compaction;

import dev.filetables.io.compaction.OfflineCompactionFailpoints.Point;
import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.files.store.Stores;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of the {@link ReplacedFiles} protocol after a commit, for one partition directory, and
 * the clean-up of what a crash left at any step. Idempotent: each call finishes what earlier calls
 * or runs did not.
 *
 * <ul>
 *   <li>a replaced file that is still visible (its merged file is visible) is moved to its grace
 *       name, or deleted with a zero grace period: from then on every reader sees its rows once;
 *   <li>grace names are deleted once their sidecar is older than the grace period;
 *   <li>a sidecar is deleted when its merged file is gone and nothing it names is left (or when its
 *       merged file was never published: its inputs are still visible); hidden partial outputs of
 *       the offline compaction are deleted; grace names no sidecar names are deleted.
 * </ul>
 *
 * <p>A replaced file is moved only once its merged file has been visible for {@link #settle} (for
 * merged files this process committed; others come from an earlier run, which ended before this one
 * started), so that a FileTables listing of the directory that began before the sidecar was written
 * has ended before anything it may have listed disappears.
 */
final class CompactionCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionCleanup.class);

  /** What one call did. */
  record Counts(int retired, int deleted) {}

  private final Duration grace;
  private final Duration settle;

  /** Merged files this process committed → {@link System#nanoTime} of their commit. */
  private final Map<Path, Long> committedAt = new ConcurrentHashMap<>();

  CompactionCleanup(Duration grace, Duration settle) {
    this.grace = grace;
    this.settle = settle;
  }

  /** Records the commit of {@code merged} by this process (starts its settle time). */
  void committed(Path merged) {
    committedAt.put(merged, System.nanoTime());
  }

  /** A sidecar and the names it lists. */
  private record Sidecar(Path path, Path merged, List<String> names) {}

  Counts run(Path dir) throws IOException {
    List<Path> entries = entries(dir);
    Set<String> present = new HashSet<>();
    entries.forEach(entry -> present.add(entry.getFileName().toString()));
    int retired = 0;
    int deleted = 0;
    List<Sidecar> live = new ArrayList<>();
    List<Sidecar> dead = new ArrayList<>();
    for (Path entry : entries) {
      String name = entry.getFileName().toString();
      if (ReplacedFiles.isSidecar(name)) {
        Path merged = ReplacedFiles.mergedOf(entry);
        Sidecar sidecar = new Sidecar(entry, merged, ReplacedFiles.read(merged));
        (present.contains(merged.getFileName().toString()) ? live : dead).add(sidecar);
      } else if (PartFileName.isInProgress(name)
          && name.startsWith(".part-" + CompactedFileName.OFFLINE_UUID + "-")) {
        deleted += FileOps.deleteQuietly(entry) ? 1 : 0; // a partial output of a crashed run
      }
    }
    Set<String> liveNames = new HashSet<>();
    live.forEach(sidecar -> liveNames.addAll(sidecar.names()));
    for (Sidecar sidecar : live) {
      List<String> visible = new ArrayList<>();
      for (String name : sidecar.names()) {
        if (present.contains(name)) {
          visible.add(name);
        }
      }
      if (!visible.isEmpty()) {
        awaitSettle(sidecar.merged());
        for (String name : visible) {
          retired += retire(dir.resolve(name)) ? 1 : 0;
        }
      }
      if (hasGraceNames(sidecar.names(), present) && expired(sidecar)) {
        deleted += deleteGraceNames(dir, sidecar.names(), present);
      }
    }
    for (Sidecar sidecar : dead) {
      List<String> own = new ArrayList<>(sidecar.names());
      own.removeAll(liveNames); // replaced again by a visible merged file: that one's business
      if (own.stream().anyMatch(present::contains)) {
        // never committed (its inputs are visible): a leftover of a run that crashed before
        deleted += FileOps.deleteQuietly(sidecar.path()) ? 1 : 0;
        continue;
      }
      // its merged file was itself replaced and is gone: its grace names go at their time
      if (hasGraceNames(own, present)) {
        if (!expired(sidecar)) {
          continue;
        }
        deleted += deleteGraceNames(dir, own, present);
      }
      deleted += FileOps.deleteQuietly(sidecar.path()) ? 1 : 0;
    }
    Set<String> named = new HashSet<>(liveNames);
    dead.forEach(sidecar -> named.addAll(sidecar.names()));
    for (Path entry : entries) {
      String name = entry.getFileName().toString();
      if (ReplacedFiles.isGraceName(name) && !named.contains(ReplacedFiles.replacedNameOf(name))) {
        deleted += FileOps.deleteQuietly(entry) ? 1 : 0; // no sidecar keeps it
      }
    }
    if (retired + deleted > 0) {
      LOG.info(
          "{}: {} replaced file(s) moved out of sight, {} left-over or expired file(s) deleted",
          dir,
          retired,
          deleted);
    }
    return new Counts(retired, deleted);
  }

  /** Moves a replaced file out of sight: to its grace name, or deleted with no grace period. */
  private boolean retire(Path replaced) throws IOException {
    try {
      if (grace.isZero()) {
        if (!Files.deleteIfExists(replaced)) {
          return false;
        }
      } else {
        // Replacing: a move on S3 (a copy and a delete) killed in between leaves both names. Not
        // forced to the disk (no directory sync, unlike a publish): a move lost in a power cut
        // leaves the file visible, and the next run moves it again.
        CopyOption[] options =
            Stores.canRenameAtomically(replaced)
                ? new CopyOption[] {
                  StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING
                }
                : new CopyOption[] {StandardCopyOption.REPLACE_EXISTING};
        Files.move(replaced, ReplacedFiles.graceNameOf(replaced), options);
      }
    } catch (NoSuchFileException e) {
      return false; // gone since the listing
    } catch (IOException e) {
      throw new IOException(
          "Could not move "
              + replaced
              + ", which a merged file replaces, out of sight ("
              + e
              + "); readers other than FileTables see its rows twice until the next compact",
          e);
    }
    OfflineCompactionFailpoints.reached(Point.RETIRED, replaced);
    return true;
  }

  private static boolean hasGraceNames(List<String> names, Set<String> present) {
    return names.stream().anyMatch(name -> present.contains(graceName(name)));
  }

  /** True once the grace period of the files a sidecar names has passed. */
  private boolean expired(Sidecar sidecar) throws IOException {
    return grace.isZero() || age(sidecar.path()).compareTo(grace) >= 0;
  }

  /** Deletes the grace names of {@code names} that are present; returns how many. */
  private static int deleteGraceNames(Path dir, List<String> names, Set<String> present) {
    int deleted = 0;
    for (String name : names) {
      if (present.contains(graceName(name))) {
        Path graceFile = dir.resolve(graceName(name));
        if (FileOps.deleteQuietly(graceFile)) {
          deleted++;
          OfflineCompactionFailpoints.reached(Point.EXPIRED, graceFile);
        }
      }
    }
    return deleted;
  }

  private static String graceName(String replacedName) {
    return ReplacedFiles.graceNameOf(Path.of(replacedName)).getFileName().toString();
  }

  private static Duration age(Path file) throws IOException {
    try {
      return Duration.ofMillis(
          System.currentTimeMillis() - Files.getLastModifiedTime(file).toMillis());
    } catch (NoSuchFileException e) {
      return Duration.ZERO;
    }
  }

  /** Waits until {@code merged}, if this process committed it, has been visible for the settle. */
  private void awaitSettle(Path merged) throws IOException {
    Long committed = committedAt.get(merged);
    if (committed == null) {
      return;
    }
    long waitNanos = settle.toNanos() - (System.nanoTime() - committed);
    if (waitNanos <= 0) {
      return;
    }
    try {
      Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "interrupted before moving the files " + merged + " replaces");
    }
  }

  /** The entries of {@code dir}, sorted; empty if it is gone. */
  static List<Path> entries(Path dir) throws IOException {
    Map<String, Path> entries = new LinkedHashMap<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entry -> entries.put(entry.getFileName().toString(), entry));
    } catch (NoSuchFileException e) {
      return List.of();
    }
    List<Path> sorted = new ArrayList<>(entries.values());
    Collections.sort(sorted);
    return sorted;
  }
}
