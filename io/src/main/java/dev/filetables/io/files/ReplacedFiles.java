package dev.filetables.io.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 *
 * <p>The sidecar also records, when the merge could tell ({@link
 * dev.filetables.io.format.FileMerger#mergePlaced}), the <b>origins</b> of the merged file: every
 * file whose rows it holds — a replaced file, or for a replaced file that was itself merged, the
 * files that one holds — with the modification time it had and the byte range of the merged file
 * that reads exactly its rows. A reader that remembers which files it has read (the watched source)
 * takes the rows of the files it has not read from there, and no others.
 *
 * <p>Sidecar text: the replaced names, one per line; then, if known, a line {@value #ORIGINS} and
 * one line per origin: {@code name<TAB>modification millis<TAB>start<TAB>end}.
 */
@Internal
public final class ReplacedFiles {
  private static final Logger LOG = LoggerFactory.getLogger(ReplacedFiles.class);
  private static final String SUFFIX = ".replaces";
  private static final String GRACE_SUFFIX = ".replaced";
  private static final String ORIGINS = "#origins";

  /**
   * A file whose rows a merged file holds: its name (in the merged file's directory), its
   * modification time when it was merged, and the byte range {@code [start, end)} of the merged
   * file that reads exactly its rows with the format's ranged reader.
   */
  public record Origin(String name, long modificationTimeMillis, long start, long end) {
    public Origin {
      if (name.isEmpty() || name.contains("\t") || name.contains("\n")) {
        throw new IllegalArgumentException("not a file name for a sidecar: '" + name + "'");
      }
      if (start < 0 || end < start) {
        throw new IllegalArgumentException("invalid range [" + start + ", " + end + ") of " + name);
      }
    }

    /** This origin inside a file that holds the merged file's bytes moved by {@code shift}. */
    public Origin movedBy(long shift) {
      return new Origin(name, modificationTimeMillis, start + shift, end + shift);
    }
  }

  /**
   * What a sidecar says: the names of the files a merged file replaces, and its origins (empty when
   * the merge could not tell, or the sidecar was written before origins were recorded).
   */
  public record Sidecar(List<String> replaced, List<Origin> origins) {
    public Sidecar {
      replaced = List.copyOf(replaced);
      origins = List.copyOf(origins);
    }
  }

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
    write(merged, replacedNames, List.of());
  }

  /** Writes the sidecar of {@code merged} with its origins (none: unknown). */
  public static void write(Path merged, List<String> replacedNames, List<Origin> origins)
      throws IOException {
    StringBuilder text = new StringBuilder();
    replacedNames.forEach(name -> text.append(name).append('\n'));
    if (!origins.isEmpty()) {
      text.append(ORIGINS).append('\n');
      for (Origin origin : origins) {
        text.append(origin.name())
            .append('\t')
            .append(origin.modificationTimeMillis())
            .append('\t')
            .append(origin.start())
            .append('\t')
            .append(origin.end())
            .append('\n');
      }
    }
    Path sidecar = sidecarOf(merged);
    Path temporary = sidecar.resolveSibling(sidecar.getFileName() + ".tmp");
    FileOps.writeWhole(sidecar, temporary, text.toString().getBytes(StandardCharsets.UTF_8), true);
  }

  /** The names a merged file replaces; empty if it has no sidecar. */
  public static List<String> read(Path merged) throws IOException {
    return readWhole(merged).map(Sidecar::replaced).orElse(List.of());
  }

  /** The sidecar of a merged file; empty if it has none. */
  public static Optional<Sidecar> readWhole(Path merged) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(sidecarOf(merged), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    List<String> names = new ArrayList<>();
    List<Origin> origins = new ArrayList<>();
    boolean inOrigins = false;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("#")) {
        inOrigins = line.trim().equals(ORIGINS);
      } else if (inOrigins) {
        origins.add(parseOrigin(merged, line));
      } else {
        names.add(line.trim());
      }
    }
    return Optional.of(new Sidecar(names, origins));
  }

  private static Origin parseOrigin(Path merged, String line) throws IOException {
    String[] fields = line.split("\t", -1);
    try {
      if (fields.length == 4) {
        return new Origin(
            fields[0],
            Long.parseLong(fields[1]),
            Long.parseLong(fields[2]),
            Long.parseLong(fields[3]));
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new IOException(
        "The sidecar of " + merged + " has an origin line that does not parse: '" + line + "'");
  }

  /**
   * The files of one directory listing that are replaced by a merged file of the same listing: what
   * readers leave out.
   */
  public static Set<String> replacedNames(Path dir, List<String> visibleNames) throws IOException {
    Set<String> replaced = new HashSet<>();
    sidecars(dir, visibleNames).values().forEach(sidecar -> replaced.addAll(sidecar.replaced()));
    return replaced;
  }

  /**
   * The sidecars of the merged files of one directory listing, by merged file name (a merged file
   * without one, logged, is read as any other file).
   */
  public static Map<String, Sidecar> sidecars(Path dir, List<String> visibleNames)
      throws IOException {
    Map<String, Sidecar> sidecars = new LinkedHashMap<>();
    for (String name : visibleNames) {
      if (mayReplace(name)) {
        Optional<Sidecar> sidecar = readWhole(dir.resolve(name));
        if (sidecar.isEmpty() || sidecar.get().replaced().isEmpty()) {
          LOG.warn(
              "{} has no sidecar {}; reading it with every other file",
              dir.resolve(name),
              sidecarOf(dir.resolve(name)).getFileName());
        } else {
          sidecars.put(name, sidecar.get());
        }
      }
    }
    return sidecars;
  }
}
