package dev.filetables.io.files.store;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The remote stores a table can live on, {@code s3://bucket/...} and {@code hdfs://host:port/...},
 * as {@link Path}s of the JDK's file system interface: the rest of FileTables uses {@code Files} on
 * them as on local paths.
 */
@Internal
public final class Stores {
  private static final Pattern LOCATION =
      Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://([^/]*)(/.*)?$");

  private static final StoreFileSystemProvider S3 =
      new StoreFileSystemProvider("s3", new S3Store(S3Clients::current));
  private static final StoreFileSystemProvider HDFS =
      new StoreFileSystemProvider("hdfs", new HdfsStore());

  private Stores() {}

  /** The schemes of the stores, for messages. */
  public static final List<String> SCHEMES = List.of("s3", "hdfs");

  /**
   * The store path of {@code location} ({@code s3://bucket/key}, {@code hdfs://host:port/dir}), or
   * empty if it names none of the stores (a local path, or another scheme).
   *
   * @throws IllegalArgumentException for a store location without a bucket or host
   */
  public static Optional<Path> path(String location) {
    Matcher m = LOCATION.matcher(location);
    if (!m.matches()) {
      return Optional.empty();
    }
    StoreFileSystemProvider provider = provider(m.group(1).toLowerCase(Locale.ROOT));
    if (provider == null) {
      return Optional.empty();
    }
    String authority = m.group(2);
    if (authority.isEmpty()) {
      throw new IllegalArgumentException(
          "'"
              + location
              + "' names no "
              + (provider == S3
                  ? "bucket (s3://bucket/path)"
                  : "NameNode (hdfs://host:port/path)"));
    }
    String path = m.group(3) == null ? "/" : m.group(3);
    return Optional.of(provider.fileSystem(authority).getPath(path));
  }

  /** Whether {@code path} lies on a remote store rather than a local disk. */
  public static boolean isStore(Path path) {
    return path instanceof StorePath;
  }

  /**
   * Whether a file written to {@code path} appears whole when its stream closes, never partly
   * written (S3 objects); false on local disks and HDFS, where a file is listed while written.
   */
  public static boolean writesAppearWhole(Path path) {
    return path instanceof StorePath
        && !((StorePath) path).getFileSystem().store().canRenameAtomically();
  }

  /** Whether {@code path}'s file system renames atomically (local disks, HDFS; not S3). */
  public static boolean canRenameAtomically(Path path) {
    return !(path instanceof StorePath)
        || ((StorePath) path).getFileSystem().store().canRenameAtomically();
  }

  /**
   * The entries of directory {@code dir} of a store, each with the attributes the listing gave: one
   * request per listing page, not one per entry.
   */
  public static List<Entry> list(Path dir) throws IOException {
    StorePath store = (StorePath) dir;
    return List.copyOf(((StoreFileSystemProvider) store.getFileSystem().provider()).list(store));
  }

  /**
   * Aborts the open multipart uploads directly under {@code dir} (S3) whose file, by the hidden
   * name it was created under, matches {@code hiddenName}: what a crash between the start of a
   * file's upload and the marker of its hidden name leaves (see {@link PublishedAt}). Use the same
   * rule that picks the hidden files to delete, where none of the matching files can still be
   * published. Nothing on local disks and HDFS. Returns how many were aborted.
   */
  public static int abortOpenUploads(Path dir, Predicate<String> hiddenName) throws IOException {
    if (!(dir instanceof StorePath)) {
      return 0;
    }
    StorePath store = (StorePath) dir;
    return store.getFileSystem().store().abortOpenUploads(store.toAbsolutePath(), hiddenName);
  }

  /**
   * Deletes plain files of one store (written by a create, never pending uploads, see {@link
   * PublishedAt}); missing ones are no error. On S3 one request per 1000 files.
   */
  public static void deleteFiles(List<Path> files) throws IOException {
    if (files.isEmpty()) {
      return;
    }
    List<StorePath> paths = new ArrayList<>(files.size());
    for (Path file : files) {
      paths.add(((StorePath) file).toAbsolutePath());
    }
    paths.get(0).getFileSystem().store().deleteFiles(paths);
  }

  /** A listed entry: its path and its attributes as of the listing. */
  public interface Entry extends BasicFileAttributes {
    Path path();
  }

  private static StoreFileSystemProvider provider(String scheme) {
    switch (scheme) {
      case "s3":
        return S3;
      case "hdfs":
        return HDFS;
      default:
        return null;
    }
  }
}
