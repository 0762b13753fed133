package dev.filetables.io.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.annotations.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol that lets the offline compaction swap many files of a partition for one, atomically
 * for FileTables readers, on a plain POSIX directory (which can rename one file atomically, not
 * several), and then hide the replaced files from every other reader:
 *
 * <ol>
 *   <li>the merged file is written hidden ({@code .part-compacted-c<hash>-<n><ext>.inprogress});
 *   <li>its sidecar {@code .part-compacted-c<hash>-<n><ext>.replaces} — the names of the files it
 *       replaces, one per line — is written (to a temporary name, then renamed, so it is complete);
 *   <li>the merged file is renamed to its visible name: <b>the commit point</b> for FileTables
 *       readers;
 *   <li>each replaced file is moved to its hidden <b>grace name</b> {@code .<name>.replaced}
 *       ({@link #graceNameOf}) in the same directory: from then on a listing by any reader (DuckDB,
 *       Spark, Flink) sees every row once;
 *   <li>the grace names are deleted once the grace period has passed; the sidecar once its merged
 *       file is gone and nothing it names is left.
 * </ol>
 *
 * A FileTables reader that lists a partition directory and sees a visible {@code part-compacted-…}
 * file reads its sidecar and ignores the files it names: before the commit point the listing holds
 * only the old files, after it the new file and perhaps old ones it ignores — old or new, never
 * both, never neither. A FileTables reader that listed the old files and opens one after step 4
 * finds it under its grace name ({@link ListedFiles#open}). A crash before the commit point leaves
 * hidden files only (no reader sees them; the next compaction removes them); a crash after it
 * leaves replaced files that every FileTables reader ignores and the next compaction moves out of
 * sight. Readers that do not know the protocol may see both old and new files between steps 3 and
 * 4.
 */
@Internal
public final class ReplacedFiles {
  private static final Logger LOG = LoggerFactory.getLogger(ReplacedFiles.class);
  private static final String SUFFIX = ".replaces";
  private static final String GRACE_SUFFIX = ".replaced";

  private ReplacedFiles() {}

  /** True for a visible file name that may have a sidecar (an offline compaction output). */
  static boolean mayReplace(String visibleName) {
    return visibleName.startsWith("part-" + CompactedFileName.OFFLINE_UUID + "-")
        && CompactedFileName.isCompacted(visibleName);
  }

  /** The sidecar of a visible merged file, in the same directory. */
  public static Path sidecarOf(Path merged) {
    return merged.resolveSibling("." + merged.getFileName() + SUFFIX);
  }

  /** True for a sidecar name. */
  public static boolean isSidecar(String name) {
    return name.startsWith(".part-") && name.endsWith(SUFFIX);
  }

  /** The visible merged file a sidecar belongs to. */
  public static Path mergedOf(Path sidecar) {
    String name = sidecar.getFileName().toString();
    return sidecar.resolveSibling(name.substring(1, name.length() - SUFFIX.length()));
  }

  /**
   * The hidden name a replaced file is moved to for the grace period, in the same directory: it
   * starts with '.' (every reader skips it) and does not end in the data extension (globs such as
   * {@code **}{@code /*.parquet} never match it).
   */
  public static Path graceNameOf(Path replaced) {
    return replaced.resolveSibling("." + replaced.getFileName() + GRACE_SUFFIX);
  }

  /** True for a grace name ({@link #graceNameOf}). */
  public static boolean isGraceName(String name) {
    return name.startsWith(".part-") && name.endsWith(GRACE_SUFFIX);
  }

  /** The name of the replaced file a grace name holds. */
  public static String replacedNameOf(String graceName) {
    return graceName.substring(1, graceName.length() - GRACE_SUFFIX.length());
  }

  /** Writes the sidecar of {@code merged} completely ({@link FileOps#writeWhole}). */
  public static void write(Path merged, List<String> replacedNames) throws IOException {
    Path sidecar = sidecarOf(merged);
    Path temporary = sidecar.resolveSibling(sidecar.getFileName() + ".tmp");
    FileOps.writeWhole(
        sidecar,
        temporary,
        (String.join("\n", replacedNames) + "\n").getBytes(StandardCharsets.UTF_8),
        true);
  }

  /** The names a merged file replaces; empty if it has no sidecar. */
  public static List<String> read(Path merged) throws IOException {
    try {
      List<String> names = new ArrayList<>();
      for (String line : Files.readAllLines(sidecarOf(merged), StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          names.add(line.trim());
        }
      }
      return names;
    } catch (NoSuchFileException e) {
      return List.of();
    }
  }

  /**
   * The files of one directory listing that are replaced by a merged file of the same listing: what
   * readers leave out.
   */
  public static Set<String> replacedNames(Path dir, List<String> visibleNames) throws IOException {
    Set<String> replaced = new HashSet<>();
    for (String name : visibleNames) {
      if (mayReplace(name)) {
        List<String> names = read(dir.resolve(name));
        if (names.isEmpty()) {
          LOG.warn(
              "{} has no sidecar {}; reading it with every other file",
              dir.resolve(name),
              sidecarOf(dir.resolve(name)).getFileName());
        }
        replaced.addAll(names);
      }
    }
    return replaced;
  }
}
