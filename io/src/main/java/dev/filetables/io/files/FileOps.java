package dev.filetables.io.files;

import dev.filetables.io.files.store.PublishedAt;
import dev.filetables.io.files.store.Stores;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.annotations.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file operations a table sink needs, on a local disk, HDFS or S3: create a hidden in-progress
 * file, publish it under its visible name, delete quietly, and find the leftovers of a write for
 * clean-up.
 *
 * <p>Publishing never overwrites: it checks that the visible name is free and then renames
 * atomically. A POSIX rename would replace a file created between the check and the rename; that
 * race is excluded by construction, because part file names are unique per write (uuid), writer and
 * counter, so no other writer ever creates the same visible name. On S3, which has no rename, the
 * move itself refuses an existing target (a pending upload completes with {@code If-None-Match: *};
 * see {@link #createForPublish}).
 */
@Internal
public final class FileOps {
  private static final Logger LOG = LoggerFactory.getLogger(FileOps.class);

  /** Attempts to create the file when a concurrent clean-up removes an empty parent in between. */
  private static final int CREATE_ATTEMPTS = 3;

  private FileOps() {}

  /**
   * Creates {@code dir/hiddenName} for writing, creating missing parent directories (safe against
   * other writers creating them at the same time). Fails if the file already exists: two writers
   * must never share an in-progress name. The stream is unbuffered.
   */
  public static OutputStream createHidden(Path dir, String hiddenName) throws IOException {
    return create(dir, hiddenName, false, false);
  }

  /**
   * Like {@link #createHidden}, but replaces a file of that name: for hidden files whose names a
   * replay after a restore writes again (segments, combined segments). On a local disk the old file
   * is deleted first, so that a failed attempt still writing it keeps its own, unlinked file; on
   * HDFS and S3 the create replaces it (S3: the new object appears whole at close, and no request
   * checks for the old one).
   */
  public static OutputStream replaceHidden(Path dir, String hiddenName) throws IOException {
    if (!Stores.isStore(dir)) {
      deleteQuietly(dir.resolve(hiddenName));
      return createHidden(dir, hiddenName);
    }
    return create(dir, hiddenName, false, true);
  }

  /**
   * Like {@link #createHidden}, for a file that {@link #publish} will make visible without anyone
   * reading it before (the sink's part files without auto-compaction, the batch sink's files,
   * merged compaction outputs). On S3 its bytes then go straight to a multipart upload at the
   * visible name, which the publish completes instead of copying the file ({@link PublishedAt});
   * the hidden name holds a marker that cannot be read. On local disks and HDFS it is a plain
   * hidden file. Never use it for a file that is read before its publish (segments, compaction
   * inputs).
   */
  public static OutputStream createForPublish(Path dir, String hiddenName) throws IOException {
    return create(dir, hiddenName, true, false);
  }

  private static OutputStream create(
      Path dir, String hiddenName, boolean forPublish, boolean replace) throws IOException {
    if (!hiddenName.startsWith(".") || hiddenName.indexOf('/') >= 0 || hiddenName.length() < 2) {
      throw new IllegalArgumentException(
          "An in-progress file name must be a single name starting with '.', was '"
              + hiddenName
              + "'");
    }
    Path file = dir.resolve(hiddenName);
    List<OpenOption> options =
        new ArrayList<>(
            replace
                ? List.of(
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)
                : List.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    if (forPublish && Stores.isStore(file)) {
      options.add(new PublishedAt(visibleOf(file)));
    }
    for (int attempt = 1; ; attempt++) {
      // createDirectories tolerates directories created concurrently by other writers. Stores need
      // none: HDFS creates a file's parents itself (a mkdirs per file would be one more NameNode
      // call), S3 has no directories.
      if (!Stores.isStore(dir)) {
        DurableFiles.createDirectories(dir);
      }
      try {
        return Stores.isStore(file)
            ? Files.newOutputStream(file, options.toArray(new OpenOption[0]))
            : DurableFiles.create(file, new HashSet<>(options));
      } catch (FileAlreadyExistsException e) {
        throw new FileAlreadyExistsException(
            file.toString(),
            null,
            "in-progress file exists already; two writers share a part file name");
      } catch (NoSuchFileException e) {
        if (attempt >= CREATE_ATTEMPTS) {
          throw e;
        }
        LOG.debug(
            "Directory {} vanished before {} was created; creating it again", dir, hiddenName);
      }
    }
  }

  /** The visible name {@link #publish} gives a hidden file, in the same directory. */
  private static Path visibleOf(Path hidden) {
    return hidden.resolveSibling(PartFileName.visibleOf(hidden.getFileName().toString()));
  }

  /**
   * Renames a hidden in-progress file to its visible name ({@link PartFileName#visibleOf})
   * atomically and returns the visible path.
   *
   * <p>Fails with {@link FileAlreadyExistsException} if the visible name exists while the hidden
   * file is still there: it never overwrites. If the hidden file is gone and the visible file
   * exists, the file was published before (a retried commit) and the visible path is returned. If
   * neither exists, a {@link NoSuchFileException}.
   */
  public static Path publish(Path hidden) throws IOException {
    Path visible = visibleOf(hidden);
    if (!Stores.canRenameAtomically(hidden)) {
      return publishByMove(hidden, visible);
    }
    boolean hiddenExists = Files.exists(hidden, LinkOption.NOFOLLOW_LINKS);
    if (Files.exists(visible, LinkOption.NOFOLLOW_LINKS)) {
      if (!hiddenExists) {
        LOG.info("{} was published before; nothing to do", visible);
        return visible;
      }
      throw publishedOver(hidden, visible);
    }
    if (!hiddenExists) {
      throw neitherExists(hidden, visible);
    }
    moveIntoPlace(hidden, visible, false);
    return visible;
  }

  /**
   * {@link #publish} on a store without rename (S3), where the move itself never overwrites (a
   * pending upload completes with {@code If-None-Match: *}, a copy checks the target first): the
   * move is tried first, and the names are looked at only when it fails, so a publish costs the
   * move's requests alone.
   */
  private static Path publishByMove(Path hidden, Path visible) throws IOException {
    try {
      moveIntoPlace(hidden, visible, false);
      return visible;
    } catch (FileAlreadyExistsException e) {
      if (Files.size(hidden) != Files.size(visible)) {
        throw publishedOver(hidden, visible);
      }
      // Published, and the hidden object was not deleted yet (a crash in between): a copy's
      // source, or the marker of a completed upload (deleting it aborts nothing any more).
      LOG.info("{} was published before; deleting what is left under its hidden name", hidden);
      Files.deleteIfExists(hidden);
      return visible;
    } catch (NoSuchFileException e) {
      if (Files.exists(visible, LinkOption.NOFOLLOW_LINKS)) {
        LOG.info("{} was published before; nothing to do", visible);
        return visible;
      }
      if (Files.exists(hidden, LinkOption.NOFOLLOW_LINKS)) {
        throw e; // the store's own reason, e.g. a pending upload that was aborted
      }
      throw neitherExists(hidden, visible);
    }
  }

  private static FileAlreadyExistsException publishedOver(Path hidden, Path visible) {
    return new FileAlreadyExistsException(
        visible.toString(),
        hidden.toString(),
        "refusing to publish over an existing file; part file names are unique per write, writer and "
            + "counter, so another writer used the same name");
  }

  private static NoSuchFileException neitherExists(Path hidden, Path visible) {
    return new NoSuchFileException(
        hidden.toString(),
        visible.toString(),
        "neither the in-progress file nor its visible name exists");
  }

  /**
   * Moves a file to {@code target} so that readers of {@code target} see it appear whole: an atomic
   * rename where the file system has one; on S3, which has none, the completion of the file's
   * pending upload if it was created {@link #createForPublish for publishing}, else a server-side
   * copy (an object appears whole) and then a delete of the source. A crash between completion (or
   * copy) and delete leaves the source behind under its hidden name, which {@link #publish} and the
   * leftover clean-up recognise.
   */
  public static void moveIntoPlace(Path source, Path target, boolean replace) throws IOException {
    List<CopyOption> options = new ArrayList<>();
    if (Stores.canRenameAtomically(source)) {
      options.add(StandardCopyOption.ATOMIC_MOVE);
    }
    if (replace) {
      options.add(StandardCopyOption.REPLACE_EXISTING);
    }
    Files.move(source, target, options.toArray(new CopyOption[0]));
    if (!Stores.isStore(target)) {
      // the rename is durable only with its directory (a publish must not vanish in a power cut)
      DurableFiles.syncDirectory(target.toAbsolutePath().getParent());
      if (!source.toAbsolutePath().getParent().equals(target.toAbsolutePath().getParent())) {
        DurableFiles.syncDirectory(source.toAbsolutePath().getParent());
      }
    }
  }

  /**
   * Writes a small file (a success file, a manifest, an intent) so that it appears whole under
   * {@code target}: where writes appear whole anyway (S3) directly, else under {@code temporary}
   * and then {@link #moveIntoPlace moved}. Fails with {@link FileAlreadyExistsException} if {@code
   * target} exists and not {@code replace}.
   */
  public static void writeWhole(Path target, Path temporary, byte[] content, boolean replace)
      throws IOException {
    if (Stores.writesAppearWhole(target)) {
      if (replace) {
        Files.write(target, content);
      } else {
        Files.write(target, content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      }
      return;
    }
    try {
      if (Stores.isStore(temporary)) {
        Files.write(temporary, content);
      } else {
        try (OutputStream out =
            DurableFiles.create(
                temporary,
                Set.of(
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE))) {
          out.write(content);
        }
      }
      moveIntoPlace(temporary, target, replace);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /**
   * Deletes a file or empty directory if it exists; logs instead of failing. True if it was
   * deleted.
   */
  public static boolean deleteQuietly(Path path) {
    try {
      return Files.deleteIfExists(path);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not delete {}: {}", path, e.toString());
      return false;
    }
  }

  /**
   * Deletes hidden files written by {@link #createHidden} or {@link #replaceHidden} (never by
   * {@link #createForPublish}) like {@link #deleteQuietly}, as a batch where the store has one (S3:
   * one request per 1000 files instead of two per file).
   */
  public static void deleteHiddenQuietly(List<Path> files) {
    if (files.isEmpty()) {
      return;
    }
    Path first = files.get(0);
    boolean oneStore =
        Stores.isStore(first)
            && files.stream()
                .allMatch(
                    f -> Stores.isStore(f) && f.getFileSystem().equals(first.getFileSystem()));
    if (!oneStore) {
      files.forEach(FileOps::deleteQuietly);
      return;
    }
    try {
      Stores.deleteFiles(files);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not delete {} files such as {}: {}", files.size(), first, e.toString());
    }
  }

  /**
   * The hidden in-progress files of one write under a table root, at any depth, sorted: names
   * starting with '.', ending in {@code .inprogress} and containing {@code part-<uuidPrefix>} (also
   * hidden compaction outputs named after such a file). Symbolic links are not followed; unreadable
   * directories are logged and skipped (clean-up is best effort). A missing root gives an empty
   * list.
   */
  public static List<Path> listHidden(Path root, String uuidPrefix) throws IOException {
    if (uuidPrefix == null || uuidPrefix.isEmpty()) {
      throw new IllegalArgumentException(
          "listHidden needs a non-empty uuid prefix: it finds files to delete");
    }
    String marker = "part-" + uuidPrefix;
    return listFiles(root, name -> PartFileName.isInProgress(name) && name.contains(marker));
  }

  /**
   * The regular files under {@code root} whose name matches, at any depth, sorted. Symbolic links
   * are not followed; entries that cannot be read are logged and skipped. A missing root gives an
   * empty list.
   */
  public static List<Path> listFiles(Path root, java.util.function.Predicate<String> name)
      throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<Path> found = new ArrayList<>();
    if (Stores.isStore(root)) {
      listStoreFiles(root, name, found);
      Collections.sort(found);
      return found;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile() && name.test(file.getFileName().toString())) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            LOG.warn("Skipping {} while listing {}: {}", file, root, e.toString());
            return FileVisitResult.CONTINUE;
          }
        });
    Collections.sort(found);
    return found;
  }

  /** Like the walk, on a store: one listing per directory, attributes from the listing. */
  private static void listStoreFiles(
      Path dir, java.util.function.Predicate<String> name, List<Path> found) throws IOException {
    List<Stores.Entry> entries;
    try {
      entries = Stores.list(dir);
    } catch (NoSuchFileException e) {
      return; // deleted meanwhile
    }
    for (Stores.Entry entry : entries) {
      if (entry.isDirectory()) {
        listStoreFiles(entry.path(), name, found);
      } else if (name.test(entry.path().getFileName().toString())) {
        found.add(entry.path());
      }
    }
  }
}
