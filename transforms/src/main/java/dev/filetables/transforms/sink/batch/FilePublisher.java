package dev.filetables.transforms.sink.batch;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.Stores;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Makes the in-progress files of one write visible and removes what failed attempts of the same
 * write left behind. Every step is idempotent, so a retried publish finishes the job of an
 * interrupted one.
 */
@Internal
public final class FilePublisher {
  private final PartFiles files;

  public FilePublisher(PartFiles files) {
    this.files = files;
  }

  /**
   * Renames one in-progress file to its visible name with an atomic move and returns it with the
   * visible path. Already published (in-progress gone, visible present) counts as done.
   */
  public WrittenFile publish(WrittenFile inProgress) throws IOException {
    Path hidden = TablePaths.of(inProgress.path());
    try {
      return inProgress.withPath(FileOps.publish(hidden).toString());
    } catch (NoSuchFileException e) {
      throw new IOException(
          "Cannot publish "
              + hidden
              + ": neither it nor its visible name exists (deleted while the write was running?)",
          e);
    }
  }

  /**
   * Deletes this write's in-progress files that are not among {@code kept} (the outputs of failed
   * or superseded writer attempts), in the directories of {@code kept}. Files of other writes are
   * never touched: their names carry another uuid. Returns the deleted paths.
   *
   * <p>Only the directories this write published into are scanned, not the whole table: a failed
   * attempt wrote the same rows, hence into the same partitions, and a big table is not walked for
   * every write. A leftover elsewhere would still be hidden from every reader.
   */
  public List<Path> deleteLeftovers(Collection<WrittenFile> kept) throws IOException {
    Set<String> keptNames = new HashSet<>();
    Set<Path> directories = new LinkedHashSet<>();
    for (WrittenFile file : kept) {
      Path path = TablePaths.of(file.path());
      keptNames.add(path.getFileName().toString());
      directories.add(path.getParent());
    }
    List<Path> deleted = new ArrayList<>();
    for (Path directory : directories) {
      try (Stream<Path> entries = Files.list(directory)) {
        entries
            .filter(p -> files.isInProgressOfThisWrite(p.getFileName().toString()))
            .filter(p -> !keptNames.contains(p.getFileName().toString()))
            .filter(FileOps::deleteQuietly)
            .forEach(deleted::add);
      } catch (NoSuchFileException e) {
        // the directory is gone: nothing left to clean
      }
      // every kept file is published: an upload of this write still open on S3 is one whose
      // marker a failed attempt never wrote
      Stores.abortOpenUploads(directory, files::isInProgressOfThisWrite);
    }
    return deleted;
  }
}
