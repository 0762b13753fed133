package dev.filetables.transforms.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Makes the in-progress files of one write visible and removes what failed attempts of the same write
 * left behind. Every step is idempotent, so a retried publish finishes the job of an interrupted one.
 */
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
    Path hidden = Path.of(inProgress.path());
    Path visible = PartFiles.visibleOf(hidden);
    try {
      Files.move(hidden, visible, StandardCopyOption.ATOMIC_MOVE);
    } catch (NoSuchFileException e) {
      if (!Files.exists(visible) || Files.exists(hidden)) {
        throw new IOException(
            "Cannot publish "
                + hidden
                + ": neither it nor its visible name "
                + visible
                + " exists (deleted while the write was running?)",
            e);
      }
      // a previous attempt of this publish already renamed it
    }
    return inProgress.withPath(visible.toString());
  }

  /**
   * Deletes this write's in-progress files that are not among {@code kept} (the outputs of failed or
   * superseded writer attempts), in the directories of {@code kept}. Files of other writes are never
   * touched: their names carry another uuid. Returns the deleted paths.
   */
  public List<Path> deleteLeftovers(Collection<WrittenFile> kept) throws IOException {
    Set<String> keptNames = new HashSet<>();
    Set<Path> directories = new LinkedHashSet<>();
    for (WrittenFile file : kept) {
      Path path = Path.of(file.path());
      keptNames.add(path.getFileName().toString());
      directories.add(path.getParent());
    }
    List<Path> deleted = new ArrayList<>();
    for (Path directory : directories) {
      try (Stream<Path> entries = Files.list(directory)) {
        entries
            .filter(p -> files.isInProgressOfThisWrite(p.getFileName().toString()))
            .filter(p -> !keptNames.contains(p.getFileName().toString()))
            .forEach(
                p -> {
                  try {
                    if (Files.deleteIfExists(p)) {
                      deleted.add(p);
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    return deleted;
  }
}
