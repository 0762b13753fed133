package dev.filetables.transforms.sink.segment;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.store.Stores;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.format.internal.CountingOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * The files behind one streaming part file: its segments {@code
 * .part-<uuid>-<writer>-<counter><ext>.seg-<n>.attempt-<tag>.inprogress} (complete small files of
 * the table's format), the files that combine consecutive segments {@code first..last} while the
 * part file is open ({@code .seg-<first>-<last>.attempt-<tag>.inprogress}, see {@link
 * SegmentCombiner}), and the hidden part file they are merged into. Every name derives from the
 * part file's name, the segment numbers kept in state and the attempt that wrote the file ({@link
 * PartFileName#withAttempt}, also kept in state): a replay after a restore writes new names beside
 * what a failed attempt left, and a stale attempt still running writes only names of its own.
 */
@Internal
public final class SegmentFiles {
  private static final int BUFFER_BYTES = 64 * 1024;
  private static final String IN_PROGRESS = ".inprogress";

  private SegmentFiles() {}

  /** The hidden name of segment {@code n} of the part file with hidden name {@code partName}. */
  public static String segmentName(String partName, int n) {
    return segmentPrefix(partName) + n + IN_PROGRESS;
  }

  /**
   * The hidden name of the file holding segments {@code first..last} of the part file {@code
   * partName}: {@link #segmentName(String, int)} for a single segment.
   */
  public static String segmentName(String partName, int first, int last) {
    if (first > last) {
      throw new IllegalArgumentException("No segments " + first + ".." + last);
    }
    return first == last
        ? segmentName(partName, first)
        : segmentPrefix(partName) + first + "-" + last + IN_PROGRESS;
  }

  /**
   * The hidden name of the file holding segments {@code first..last} of the part file {@code
   * partName}, written by attempt {@code attempt} ("" for files written before attempts were
   * named).
   */
  public static String segmentName(String partName, int first, int last, String attempt) {
    return PartFileName.withAttempt(segmentName(partName, first, last), attempt);
  }

  /**
   * The start all segment names of a part file share, whichever attempt wrote them; {@code
   * partName} may carry an attempt tag.
   */
  public static String segmentPrefix(String partName) {
    if (!PartFileName.isInProgress(partName)) {
      throw new IllegalArgumentException("Not an in-progress part file name: " + partName);
    }
    String untagged = PartFileName.untagged(partName);
    return untagged.substring(0, untagged.length() - IN_PROGRESS.length()) + ".seg-";
  }

  /**
   * The size of the segment file {@code name} in {@code dir}: a complete segment the open file's
   * state counts, so a missing one is an error.
   */
  public static long segmentSize(Path dir, String name) throws IOException {
    Path segment = dir.resolve(name);
    try {
      return Files.size(segment);
    } catch (NoSuchFileException e) {
      throw new IOException(
          "Segment " + segment + " of an open part file is missing (deleted while the write ran?)",
          e);
    }
  }

  /**
   * Writes rows as a complete file {@code dir/name}, replacing an existing one; returns its size.
   */
  static long writeRows(FileFormat format, Schema schema, Path dir, String name, Iterable<Row> rows)
      throws IOException {
    Path file = dir.resolve(name);
    // names are the attempt's own; a retried bundle on the Direct runner writes the same name again
    CountingOutputStream stored = new CountingOutputStream(FileOps.replaceHidden(dir, name));
    OutputStream out = new BufferedOutputStream(stored, BUFFER_BYTES);
    try (RowWriter writer = format.createWriter(out, schema)) {
      for (Row row : rows) {
        writer.write(row);
      }
    } catch (IOException | RuntimeException e) {
      FileOps.deleteQuietly(file);
      throw e;
    }
    return stored.count();
  }

  /**
   * Merges the segment files {@code names} (in order) into {@code target} (a hidden name in the
   * same directory), replacing an existing target; returns its size. The inputs stay: they are
   * deleted only once no restore can need them (see {@link #deleteSegments} and {@link
   * SegmentCombiner}).
   */
  public static long merge(FileMerger merger, Path dir, List<String> names, String target)
      throws IOException {
    return merge(merger, dir, names, target, false);
  }

  /**
   * {@link #merge} into a part file that will be published without being read before (no
   * auto-compaction): created by {@link FileOps#createForPublish}, so that on S3 the publish
   * completes an upload instead of copying the file.
   */
  public static long mergeForPublish(FileMerger merger, Path dir, List<String> names, String target)
      throws IOException {
    return merge(merger, dir, names, target, true);
  }

  private static long merge(
      FileMerger merger, Path dir, List<String> names, String target, boolean forPublish)
      throws IOException {
    List<Path> inputs = new ArrayList<>(names.size());
    for (String name : names) {
      inputs.add(dir.resolve(name));
    }
    Path file = dir.resolve(target);
    CountingOutputStream out;
    if (forPublish) {
      FileOps.deleteQuietly(file); // also aborts a failed attempt's pending upload
      out = new CountingOutputStream(FileOps.createForPublish(dir, target));
    } else {
      out = new CountingOutputStream(FileOps.replaceHidden(dir, target));
    }
    try {
      merger.merge(inputs, out);
    } catch (NoSuchFileException e) {
      FileOps.deleteQuietly(file);
      // no existence check before: on S3 it would cost a request per input
      throw new IOException(
          "Segment file "
              + e.getFile()
              + " of an open part file is missing (deleted while the write ran?)",
          e);
    } catch (IOException | RuntimeException e) {
      FileOps.deleteQuietly(file);
      throw e;
    }
    return out.count();
  }

  /**
   * Deletes the hidden files (part files and segments) of one writer of one write in {@code dir}
   * whose counter matches; returns how many were deleted. The writer's own state decides which
   * counters cannot belong to a file that will still be published.
   */
  public static int deleteHidden(Path dir, String uuid, String writer, LongPredicate counter)
      throws IOException {
    int deleted = 0;
    for (Path file : hiddenFiles(dir, uuid, writer, counter)) {
      if (FileOps.deleteQuietly(file)) {
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * Aborts the open uploads (S3) of one writer of one write in {@code dir}: call only when none of
   * its files can still be published. Returns how many.
   */
  public static int abortOpenUploads(Path dir, String uuid, String writer) throws IOException {
    return Stores.abortOpenUploads(dir, name -> ofWriter(name, uuid, writer, counter -> true));
  }

  private static boolean ofWriter(String name, String uuid, String writer, LongPredicate counter) {
    Optional<PartFileName.Parts> parts = PartFileName.parse(name);
    return parts.isPresent()
        && parts.get().inProgress()
        && parts.get().uuid().equals(uuid)
        && parts.get().writer().equals(writer)
        && counter.test(parts.get().counter());
  }

  /** The hidden files of one writer of one write in {@code dir} whose counter matches. */
  public static List<Path> hiddenFiles(Path dir, String uuid, String writer, LongPredicate counter)
      throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        if (ofWriter(entry.getFileName().toString(), uuid, writer, counter)) {
          found.add(entry);
        }
      }
    } catch (NoSuchFileException e) {
      // no directory, no files
    }
    return found;
  }

  /**
   * Deletes every segment of the part file {@code partName} in {@code dir}, also those beyond the
   * recorded count that a failed attempt wrote. Returns how many were deleted.
   */
  public static int deleteSegments(Path dir, String partName) throws IOException {
    String prefix = segmentPrefix(partName);
    List<Path> segments = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String name = entry.getFileName().toString();
        if (name.startsWith(prefix) && name.endsWith(IN_PROGRESS)) {
          segments.add(entry);
        }
      }
    } catch (NoSuchFileException e) {
      // nothing left
    }
    FileOps.deleteHiddenQuietly(segments); // segments are plain files, never pending uploads
    return segments.size();
  }
}
