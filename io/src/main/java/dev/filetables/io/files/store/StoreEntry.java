package dev.filetables.io.files.store;

import java.nio.file.attribute.FileTime;

/** A file or directory of a store with the attributes its listing or stat gave. */
record StoreEntry(StorePath path, boolean directory, long size, long modifiedMillis)
    implements Stores.Entry {

  static StoreEntry file(StorePath path, long size, long modifiedMillis) {
    return new StoreEntry(path, false, size, modifiedMillis);
  }

  static StoreEntry directory(StorePath path, long modifiedMillis) {
    return new StoreEntry(path, true, 0, modifiedMillis);
  }

  @Override
  public FileTime lastModifiedTime() {
    return FileTime.fromMillis(modifiedMillis);
  }

  @Override
  public FileTime lastAccessTime() {
    return lastModifiedTime();
  }

  @Override
  public FileTime creationTime() {
    return lastModifiedTime();
  }

  @Override
  public boolean isRegularFile() {
    return !directory;
  }

  @Override
  public boolean isDirectory() {
    return directory;
  }

  @Override
  public boolean isSymbolicLink() {
    return false;
  }

  @Override
  public boolean isOther() {
    return false;
  }

  @Override
  public Object fileKey() {
    return null;
  }
}
