package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The operations FileTables needs from a remote store, one implementation per store over its own
 * client library. Everything above (paths, the JDK's {@code Files} API, the table's commit logic)
 * is shared; only these calls differ between HDFS and S3.
 *
 * <p>Failures use the JDK's exceptions ({@code NoSuchFileException}, {@code
 * FileAlreadyExistsException}, {@code AccessDeniedException}, ...) with a message that names the
 * path and, for connection problems, the endpoint.
 */
interface Store {
  /** The file or directory at {@code path}, or empty if there is none. */
  Optional<StoreEntry> stat(StorePath path) throws IOException;

  /**
   * The entries of directory {@code dir} with their attributes, as few requests as the store allows
   * (S3: one listing page per 1000 entries, never a request per entry). {@code NoSuchFileException}
   * if there is no such directory, {@code NotDirectoryException} if it is a file.
   */
  List<StoreEntry> list(StorePath dir) throws IOException;

  /** Reads a file; {@code NoSuchFileException} if it does not exist. */
  SeekableByteChannel openForRead(StorePath file) throws IOException;

  /**
   * Reads a file from its start to its end, as few requests as the store allows (S3: one GET, no
   * HEAD); {@code NoSuchFileException} if it does not exist.
   */
  default InputStream openStream(StorePath file) throws IOException {
    return Channels.newInputStream(openForRead(file));
  }

  /**
   * Creates (or replaces, unless {@code failIfExists}) a file. On S3 the object appears whole when
   * the stream is closed. On HDFS a file that may replace one appears whole at close too (spooled,
   * see {@link HdfsStore#create}); one created with {@code failIfExists} is listed (with a growing
   * length) while it is written.
   */
  OutputStream create(StorePath file, boolean failIfExists) throws IOException;

  /**
   * Creates the hidden file {@code file} that will be moved to {@code visible} without being read
   * first ({@link PublishedAt}). On S3 its bytes go to an open multipart upload at {@code visible}
   * and {@code file} is a marker naming it, which {@link #moveWithoutRename} completes and {@link
   * #delete} aborts; stores that rename create a plain file.
   */
  OutputStream createForPublish(StorePath file, StorePath visible, boolean failIfExists)
      throws IOException;

  /** Creates a directory and its parents; nothing on stores without directories. */
  void createDirectories(StorePath dir) throws IOException;

  /**
   * Deletes a file or an empty directory; false if there was nothing. {@code
   * DirectoryNotEmptyException} for a directory with entries.
   */
  boolean delete(StorePath path) throws IOException;

  /**
   * Deletes plain files (written by {@link #create}, never {@link #createForPublish}: deleting a
   * marker this way would leave its upload open); a missing file is no error. S3: one request per
   * 1000 files instead of a HEAD and a DELETE each.
   */
  default void deleteFiles(List<StorePath> files) throws IOException {
    for (StorePath file : files) {
      delete(file);
    }
  }

  /** Copies a file within the store (server-side where the store can), replacing the target. */
  void copy(StorePath from, StorePath to) throws IOException;

  /**
   * Moves a file on a store that cannot rename ({@link #canRenameAtomically()} false), so that it
   * appears whole at {@code to}: S3 completes a pending upload ({@link #createForPublish}) or
   * copies server-side and deletes. {@code FileAlreadyExistsException} if {@code to} exists and not
   * {@code replace}.
   */
  void moveWithoutRename(StorePath from, StorePath to, boolean replace) throws IOException;

  /**
   * Aborts the open multipart uploads directly under {@code dir} whose file, by the hidden name it
   * was created under ({@link #createForPublish}), matches; returns how many. For the leftovers of
   * a crash between the start of an upload and its marker. Stores without uploads have none.
   */
  int abortOpenUploads(StorePath dir, Predicate<String> hiddenName) throws IOException;

  /** Whether {@link #renameAtomically} exists: false for object stores. */
  boolean canRenameAtomically();

  /**
   * Renames a file atomically, replacing the target if {@code replace}; {@code
   * FileAlreadyExistsException} if the target exists and not {@code replace}. Only called when
   * {@link #canRenameAtomically()}.
   */
  void renameAtomically(StorePath from, StorePath to, boolean replace) throws IOException;
}
