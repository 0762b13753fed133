package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JDK's file system interface over one {@link Store}, so that the table code (written against
 * {@code java.nio.file.Files}) runs unchanged on HDFS and S3.
 *
 * <p>What a store cannot do surfaces as the JDK's own exception rather than being emulated behind
 * the caller's back: an {@code ATOMIC_MOVE} on S3 throws {@link AtomicMoveNotSupportedException},
 * and the caller that needs a commit ({@code FileOps}) chooses its protocol for such stores.
 */
final class StoreFileSystemProvider extends FileSystemProvider {
  private final String scheme;
  private final Store store;
  private final Map<String, StoreFileSystem> fileSystems = new ConcurrentHashMap<>();

  StoreFileSystemProvider(String scheme, Store store) {
    this.scheme = scheme;
    this.store = store;
  }

  Store store() {
    return store;
  }

  StoreFileSystem fileSystem(String authority) {
    return fileSystems.computeIfAbsent(authority, a -> new StoreFileSystem(this, a));
  }

  @Override
  public String getScheme() {
    return scheme;
  }

  @Override
  public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
    return getFileSystem(uri);
  }

  @Override
  public FileSystem getFileSystem(URI uri) {
    return fileSystem(uri.getRawAuthority());
  }

  @Override
  public Path getPath(URI uri) {
    return fileSystem(uri.getRawAuthority()).getPath(uri.getRawPath());
  }

  @Override
  public SeekableByteChannel newByteChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    if (!options.contains(StandardOpenOption.WRITE)
        && !options.contains(StandardOpenOption.APPEND)) {
      return store().openForRead(cast(path));
    }
    return new WriteOnlyChannel(newOutputStream(path, options.toArray(new OpenOption[0])));
  }

  @Override
  public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
    return store().openStream(cast(path));
  }

  @Override
  public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
    List<OpenOption> list = Arrays.asList(options);
    if (list.contains(StandardOpenOption.APPEND)) {
      throw new UnsupportedOperationException(path + ": stores cannot append to a file");
    }
    boolean createNew = list.contains(StandardOpenOption.CREATE_NEW);
    if (!createNew && !list.isEmpty() && !list.contains(StandardOpenOption.CREATE)) {
      // WRITE or TRUNCATE_EXISTING without CREATE: the file must exist.
      if (store().stat(cast(path)).isEmpty()) {
        throw new NoSuchFileException(path.toString());
      }
    }
    for (OpenOption option : list) {
      if (option instanceof PublishedAt) {
        return store()
            .createForPublish(cast(path), cast(((PublishedAt) option).visible()), createNew);
      }
    }
    return store().create(cast(path), createNew);
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(
      Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
    List<Path> entries = new ArrayList<>();
    for (StoreEntry entry : store().list(cast(dir))) {
      if (filter == null || filter.accept(entry.path())) {
        entries.add(entry.path());
      }
    }
    return new DirectoryStream<>() {
      @Override
      public Iterator<Path> iterator() {
        return entries.iterator();
      }

      @Override
      public void close() {}
    };
  }

  /** The entries of a directory with the attributes of the listing (no request per entry). */
  List<StoreEntry> list(Path dir) throws IOException {
    return store().list(cast(dir));
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    store().createDirectories(cast(dir));
  }

  @Override
  public void delete(Path path) throws IOException {
    if (!store().delete(cast(path))) {
      throw new NoSuchFileException(path.toString());
    }
  }

  @Override
  public boolean deleteIfExists(Path path) throws IOException {
    return store().delete(cast(path));
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    StorePath from = cast(source);
    StorePath to = cast(target);
    if (!Arrays.asList(options).contains(StandardCopyOption.REPLACE_EXISTING)
        && store().stat(to).isPresent()) {
      throw new FileAlreadyExistsException(target.toString());
    }
    store().copy(from, to);
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    List<CopyOption> list = Arrays.asList(options);
    boolean replace = list.contains(StandardCopyOption.REPLACE_EXISTING);
    StorePath from = cast(source);
    StorePath to = cast(target);
    if (store().canRenameAtomically()) {
      store().renameAtomically(from, to, replace);
      return;
    }
    if (list.contains(StandardCopyOption.ATOMIC_MOVE)) {
      throw new AtomicMoveNotSupportedException(
          source.toString(),
          target.toString(),
          scheme + " has no rename; a move is a copy and a delete");
    }
    store().moveWithoutRename(from, to, replace);
  }

  @Override
  public boolean isSameFile(Path path, Path path2) {
    return path.equals(path2);
  }

  @Override
  public boolean isHidden(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  @Override
  public FileStore getFileStore(Path path) {
    throw new UnsupportedOperationException(path + ": stores have no FileStore");
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    stat(path);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V extends FileAttributeView> V getFileAttributeView(
      Path path, Class<V> type, LinkOption... options) {
    if (type != BasicFileAttributeView.class) {
      return null;
    }
    return (V)
        new BasicFileAttributeView() {
          @Override
          public String name() {
            return "basic";
          }

          @Override
          public BasicFileAttributes readAttributes() throws IOException {
            return stat(path);
          }

          @Override
          public void setTimes(FileTime modified, FileTime access, FileTime create) {
            throw new UnsupportedOperationException(path + ": stores keep their own times");
          }
        };
  }

  @Override
  @SuppressWarnings("unchecked")
  public <A extends BasicFileAttributes> A readAttributes(
      Path path, Class<A> type, LinkOption... options) throws IOException {
    if (!type.isAssignableFrom(StoreEntry.class)) {
      throw new UnsupportedOperationException(path + ": only basic attributes, not " + type);
    }
    return (A) stat(path);
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
      throws IOException {
    StoreEntry entry = stat(path);
    Map<String, Object> all = new HashMap<>();
    all.put("size", entry.size());
    all.put("lastModifiedTime", entry.lastModifiedTime());
    all.put("lastAccessTime", entry.lastAccessTime());
    all.put("creationTime", entry.creationTime());
    all.put("isRegularFile", entry.isRegularFile());
    all.put("isDirectory", entry.isDirectory());
    all.put("isSymbolicLink", false);
    all.put("isOther", false);
    all.put("fileKey", null);
    String names = attributes.startsWith("basic:") ? attributes.substring(6) : attributes;
    if (names.equals("*")) {
      return all;
    }
    Map<String, Object> chosen = new HashMap<>();
    for (String name : names.split(",")) {
      chosen.put(name, all.get(name));
    }
    return chosen;
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
    throw new UnsupportedOperationException(path + ": stores keep their own attributes");
  }

  private StoreEntry stat(Path path) throws IOException {
    return store().stat(cast(path)).orElseThrow(() -> new NoSuchFileException(path.toString()));
  }

  private StorePath cast(Path path) {
    if (!(path instanceof StorePath) || path.getFileSystem().provider() != this) {
      throw new ProviderMismatchException(path + " is not a " + scheme + " path");
    }
    return ((StorePath) path).toAbsolutePath();
  }

  /** A channel over an upload: writes only, in order. */
  private static final class WriteOnlyChannel implements SeekableByteChannel {
    private final OutputStream out;
    private long position;
    private boolean open = true;

    WriteOnlyChannel(OutputStream out) {
      this.out = out;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      int n = src.remaining();
      if (src.hasArray()) {
        out.write(src.array(), src.arrayOffset() + src.position(), n);
        src.position(src.limit());
      } else {
        byte[] bytes = new byte[n];
        src.get(bytes);
        out.write(bytes);
      }
      position += n;
      return n;
    }

    @Override
    public int read(ByteBuffer dst) {
      throw new NonReadableChannelException();
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
      throw new UnsupportedOperationException("a store file is written in order");
    }

    @Override
    public long size() {
      return position;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
      throw new UnsupportedOperationException("a store file is written in order");
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() throws IOException {
      if (open) {
        open = false;
        out.close();
      }
    }
  }
}
