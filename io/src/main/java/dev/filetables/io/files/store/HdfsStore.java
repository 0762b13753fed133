package dev.filetables.io.files.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;

/**
 * HDFS through Hadoop's own client ({@code hadoop-client-api}, which Parquet brings anyway),
 * configured from the URI and {@code HADOOP_CONF_DIR} ({@link HdfsConfiguration}). Renames are
 * atomic at the NameNode; a file being written is listed (length 0 until closed) under its name,
 * which is why in-progress files keep hidden names here as on a local disk.
 */
final class HdfsStore implements Store {

  private FileSystem fileSystem(StorePath path) throws IOException {
    URI uri = URI.create("hdfs://" + path.getFileSystem().authority());
    try {
      return FileSystem.get(uri, HdfsConfiguration.get());
    } catch (IOException e) {
      throw unusable(path, e);
    }
  }

  private static Path hadoopPath(StorePath path) {
    return new Path("hdfs://" + path.getFileSystem().authority() + "/" + path.key());
  }

  @Override
  public Optional<StoreEntry> stat(StorePath path) throws IOException {
    try {
      return Optional.of(entry(path, fileSystem(path).getFileStatus(hadoopPath(path))));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw translate(path, e);
    }
  }

  @Override
  public List<StoreEntry> list(StorePath dir) throws IOException {
    FileStatus[] statuses;
    try {
      statuses = fileSystem(dir).listStatus(hadoopPath(dir));
    } catch (IOException e) {
      throw translate(dir, e);
    }
    if (statuses.length == 1
        && statuses[0].isFile()
        && statuses[0].getPath().toUri().getPath().equals("/" + dir.key())) {
      throw new NotDirectoryException(dir.toString()); // listStatus of a file lists the file
    }
    List<StoreEntry> entries = new ArrayList<>();
    for (FileStatus status : statuses) {
      entries.add(entry((StorePath) dir.resolve(status.getPath().getName()), status));
    }
    return entries;
  }

  @Override
  public SeekableByteChannel openForRead(StorePath file) throws IOException {
    try {
      FileSystem fs = fileSystem(file);
      long size = fs.getFileStatus(hadoopPath(file)).getLen();
      return new ReadChannel(fs.open(hadoopPath(file)), size);
    } catch (IOException e) {
      throw translate(file, e);
    }
  }

  /**
   * A file that may replace one (the streaming sink's segment files: many small files, one per open
   * partition and bundle) is spooled to a local file and created, written and synced on HDFS at
   * close. The NameNode's create and the DataNode pipeline then cost the writer nothing while it
   * writes rows: the sink closes a bundle's segments together, so their creates and syncs overlap
   * instead of stopping the writer once per segment. A file created with {@code failIfExists} (part
   * files, large) is written to HDFS directly and fails at once if it exists.
   */
  @Override
  public OutputStream create(StorePath file, boolean failIfExists) throws IOException {
    if (!failIfExists) {
      return new SpooledOutput((spool, size) -> sendWhole(file, spool));
    }
    return createDirect(file, false);
  }

  private OutputStream createDirect(StorePath file, boolean overwrite) throws IOException {
    try {
      return synced(fileSystem(file).create(hadoopPath(file), overwrite));
    } catch (IOException e) {
      throw translate(file, e);
    }
  }

  private void sendWhole(StorePath file, java.nio.file.Path spool) throws IOException {
    try (OutputStream out = createDirect(file, true)) {
      Files.copy(spool, out);
    }
  }

  /**
   * A file whose close first waits until every DataNode holding it has written it to its disk
   * ({@code hsync}): a plain close leaves the last block in the DataNodes' memory, and a checkpoint
   * or a publish must not refer to bytes a power cut of the DataNodes can take.
   */
  private static OutputStream synced(FSDataOutputStream out) {
    return new SyncOnClose(out, out::hsync, () -> {});
  }

  /** A plain hidden file: HDFS publishes it by its atomic rename. */
  @Override
  public OutputStream createForPublish(StorePath file, StorePath visible, boolean failIfExists)
      throws IOException {
    return create(file, failIfExists);
  }

  @Override
  public void createDirectories(StorePath dir) throws IOException {
    try {
      fileSystem(dir).mkdirs(hadoopPath(dir));
    } catch (IOException e) {
      throw translate(dir, e);
    }
  }

  @Override
  public boolean delete(StorePath path) throws IOException {
    try {
      return fileSystem(path).delete(hadoopPath(path), false);
    } catch (IOException e) {
      throw translate(path, e);
    }
  }

  @Override
  public void copy(StorePath from, StorePath to) throws IOException {
    FileSystem fs = fileSystem(from);
    try (FSDataInputStream in = fs.open(hadoopPath(from));
        OutputStream out = fs.create(hadoopPath(to), true)) {
      in.transferTo(out);
    } catch (IOException e) {
      throw translate(from, e);
    }
  }

  @Override
  public void moveWithoutRename(StorePath from, StorePath to, boolean replace) {
    throw new UnsupportedOperationException("HDFS renames atomically");
  }

  @Override
  public int abortOpenUploads(StorePath dir, Predicate<String> hiddenName) {
    return 0; // files are created under their hidden names
  }

  @Override
  public boolean canRenameAtomically() {
    return true;
  }

  @Override
  public void renameAtomically(StorePath from, StorePath to, boolean replace) throws IOException {
    FileSystem fs = fileSystem(from);
    try {
      if (fs instanceof DistributedFileSystem) {
        // The NameNode's rename: atomic, fails on an existing target unless OVERWRITE.
        Options.Rename option = replace ? Options.Rename.OVERWRITE : Options.Rename.NONE;
        ((DistributedFileSystem) fs).rename(hadoopPath(from), hadoopPath(to), option);
      } else if (!fs.rename(hadoopPath(from), hadoopPath(to))) {
        throw new IOException("rename of " + from + " to " + to + " failed");
      }
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(to.toString(), from.toString(), "target exists");
    } catch (IOException e) {
      throw translate(from, e);
    }
  }

  private static StoreEntry entry(StorePath path, FileStatus status) {
    return status.isDirectory()
        ? StoreEntry.directory(path, status.getModificationTime())
        : StoreEntry.file(path, status.getLen(), status.getModificationTime());
  }

  /** Hadoop's exceptions as the JDK's; an unreachable NameNode as a {@link StoreException}. */
  private static IOException translate(StorePath path, IOException e) {
    if (e instanceof FileNotFoundException) {
      NoSuchFileException missing = new NoSuchFileException(path.toString(), null, e.getMessage());
      missing.initCause(e);
      return missing;
    }
    if (e instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
      return new FileAlreadyExistsException(path.toString(), null, firstLine(e));
    }
    if (e instanceof PathIsNotEmptyDirectoryException) {
      return new DirectoryNotEmptyException(path.toString());
    }
    if (e instanceof AccessControlException) {
      throw new StoreException(
          "HDFS denied access to " + path + ": " + firstLine(e),
          new AccessDeniedException(path.toString(), null, firstLine(e)));
    }
    if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
      throw unusable(path, e);
    }
    return e;
  }

  private static StoreException unusable(StorePath path, IOException e) {
    return new StoreException(
        "Cannot reach the HDFS NameNode of "
            + path.getFileSystem().uriPrefix()
            + " for "
            + path
            + ": "
            + firstLine(e)
            + " (check the path's host:port and HADOOP_CONF_DIR)",
        e);
  }

  private static String firstLine(Exception e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /** A Hadoop input stream as a channel: Parquet seeks to the footer, then to the columns. */
  private static final class ReadChannel extends ReadOnlyChannel {
    private final FSDataInputStream in;

    ReadChannel(FSDataInputStream in, long size) {
      super(size);
      this.in = in;
    }

    @Override
    int readAt(long position, byte[] buffer, int length) throws IOException {
      if (in.getPos() != position) {
        in.seek(position);
      }
      return in.read(buffer, 0, length);
    }

    @Override
    void release() throws IOException {
      in.close();
    }
  }
}
