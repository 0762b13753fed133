package dev.filetables.io.files.store;

import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One bucket of S3 or one HDFS name service ({@code scheme://authority}) as a {@link FileSystem}.
 * It is never closed: it holds no resources of its own, the store's client is shared.
 */
final class StoreFileSystem extends FileSystem {
  private final StoreFileSystemProvider provider;
  private final String authority;

  StoreFileSystem(StoreFileSystemProvider provider, String authority) {
    this.provider = provider;
    this.authority = authority;
  }

  String scheme() {
    return provider.getScheme();
  }

  String authority() {
    return authority;
  }

  /** {@code scheme://authority}. */
  String uriPrefix() {
    return scheme() + "://" + authority;
  }

  Store store() {
    return provider.store();
  }

  @Override
  public FileSystemProvider provider() {
    return provider;
  }

  @Override
  public void close() {}

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public String getSeparator() {
    return "/";
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return List.of(new StorePath(this, true, List.of()));
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return List.of();
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return Set.of("basic");
  }

  @Override
  public StorePath getPath(String first, String... more) {
    StringBuilder path = new StringBuilder(first);
    for (String name : more) {
      path.append('/').append(name);
    }
    return StorePath.parse(this, path.toString());
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    throw new UnsupportedOperationException(uriPrefix() + ": path matchers are not supported");
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    throw new UnsupportedOperationException(uriPrefix() + ": stores have no user principals");
  }

  @Override
  public java.nio.file.WatchService newWatchService() {
    throw new UnsupportedOperationException(uriPrefix() + ": stores have no watch service");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoreFileSystem
        && ((StoreFileSystem) o).provider == provider
        && ((StoreFileSystem) o).authority.equals(authority);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme(), authority);
  }

  @Override
  public String toString() {
    return uriPrefix();
  }
}
