package dev.filetables.io.files.store;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path on a remote store: {@code scheme://authority/a/b/c} when absolute, {@code a/b} when
 * relative. Names are kept exactly as given (never percent-decoded): partition directories carry
 * Hive escapes such as {@code %3A}, and a path must print as the same string it was parsed from.
 */
final class StorePath implements Path {
  private final StoreFileSystem fileSystem;
  private final boolean absolute;
  private final List<String> names;

  StorePath(StoreFileSystem fileSystem, boolean absolute, List<String> names) {
    this.fileSystem = fileSystem;
    this.absolute = absolute;
    this.names = List.copyOf(names);
  }

  /** Parses {@code /a/b} (absolute) or {@code a/b} (relative); empty names are dropped. */
  static StorePath parse(StoreFileSystem fileSystem, String path) {
    List<String> names = new ArrayList<>();
    for (String name : path.split("/")) {
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return new StorePath(fileSystem, path.startsWith("/"), names);
  }

  /** The path below the authority without a leading '/', e.g. an S3 key; "" for the root. */
  String key() {
    return String.join("/", names);
  }

  List<String> names() {
    return names;
  }

  @Override
  public StoreFileSystem getFileSystem() {
    return fileSystem;
  }

  @Override
  public boolean isAbsolute() {
    return absolute;
  }

  @Override
  public Path getRoot() {
    return absolute ? new StorePath(fileSystem, true, List.of()) : null;
  }

  @Override
  public Path getFileName() {
    return names.isEmpty() ? null : new StorePath(fileSystem, false, List.of(last()));
  }

  @Override
  public Path getParent() {
    if (names.isEmpty() || (!absolute && names.size() == 1)) {
      return null;
    }
    return new StorePath(fileSystem, absolute, names.subList(0, names.size() - 1));
  }

  @Override
  public int getNameCount() {
    return names.size();
  }

  @Override
  public Path getName(int index) {
    return new StorePath(fileSystem, false, List.of(names.get(index)));
  }

  @Override
  public Path subpath(int beginIndex, int endIndex) {
    return new StorePath(fileSystem, false, names.subList(beginIndex, endIndex));
  }

  @Override
  public boolean startsWith(Path other) {
    if (!(other instanceof StorePath) || !other.getFileSystem().equals(fileSystem)) {
      return false; // as the JDK's paths answer for a path of another file system
    }
    StorePath that = (StorePath) other;
    return that.absolute == absolute
        && that.names.size() <= names.size()
        && names.subList(0, that.names.size()).equals(that.names);
  }

  @Override
  public boolean endsWith(Path other) {
    boolean sameStore = other instanceof StorePath && other.getFileSystem().equals(fileSystem);
    if (!sameStore && (other instanceof StorePath || other.isAbsolute())) {
      return false; // a relative local path ("dt=1/part-0.csv") still compares by its names
    }
    StorePath that = cast(other);
    if (that.absolute) {
      return equals(that);
    }
    return that.names.size() <= names.size()
        && names.subList(names.size() - that.names.size(), names.size()).equals(that.names);
  }

  @Override
  public Path normalize() {
    List<String> normal = new ArrayList<>();
    for (String name : names) {
      if (name.equals(".")) {
        continue;
      }
      if (name.equals("..") && !normal.isEmpty() && !normal.get(normal.size() - 1).equals("..")) {
        normal.remove(normal.size() - 1);
      } else if (!(name.equals("..") && absolute)) {
        normal.add(name);
      }
    }
    return new StorePath(fileSystem, absolute, normal);
  }

  @Override
  public Path resolve(Path other) {
    StorePath that = cast(other);
    if (that.absolute) {
      return that;
    }
    List<String> joined = new ArrayList<>(names);
    joined.addAll(that.names);
    return new StorePath(fileSystem, absolute, joined);
  }

  @Override
  public Path resolve(String other) {
    return resolve(parse(fileSystem, other));
  }

  @Override
  public Path relativize(Path other) {
    StorePath that = cast(other);
    if (that.absolute != absolute || !that.startsWith(this)) {
      throw new IllegalArgumentException(other + " is not below " + this);
    }
    return new StorePath(fileSystem, false, that.names.subList(names.size(), that.names.size()));
  }

  @Override
  public URI toUri() {
    try {
      return new URI(toAbsolutePath().toString());
    } catch (URISyntaxException e) {
      // Names with characters a URI must escape (spaces): let URI quote them.
      try {
        return new URI(fileSystem.scheme(), fileSystem.authority(), "/" + key(), null, null);
      } catch (URISyntaxException again) {
        throw new IllegalStateException("No URI for " + this, again);
      }
    }
  }

  @Override
  public StorePath toAbsolutePath() {
    return absolute ? this : new StorePath(fileSystem, true, names);
  }

  @Override
  public Path toRealPath(LinkOption... options) throws IOException {
    return toAbsolutePath().normalize();
  }

  @Override
  public WatchKey register(
      WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException(fileSystem.scheme() + ": stores have no watch service");
  }

  @Override
  public int compareTo(Path other) {
    return toString().compareTo(other.toString());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StorePath
        && ((StorePath) o).fileSystem.equals(fileSystem)
        && ((StorePath) o).absolute == absolute
        && ((StorePath) o).names.equals(names);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fileSystem, absolute, names);
  }

  @Override
  public String toString() {
    return absolute ? fileSystem.uriPrefix() + "/" + key() : key();
  }

  private String last() {
    return names.get(names.size() - 1);
  }

  private StorePath cast(Path other) {
    if (!(other instanceof StorePath) || !((StorePath) other).fileSystem.equals(fileSystem)) {
      if (other != null && other.getFileSystem() != fileSystem && !(other instanceof StorePath)) {
        // A relative local path (e.g. from Path.of("name")) joins a store path by its names.
        if (!other.isAbsolute()) {
          List<String> parts = new ArrayList<>();
          other.forEach(p -> parts.add(p.toString()));
          return new StorePath(fileSystem, false, parts);
        }
      }
      throw new ProviderMismatchException(other + " is not a path of " + fileSystem.uriPrefix());
    }
    return (StorePath) other;
  }
}
