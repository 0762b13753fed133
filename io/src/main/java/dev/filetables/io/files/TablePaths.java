package dev.filetables.io.files;

import dev.filetables.io.files.store.Stores;
import java.net.URI;
import java.nio.file.Path;

/**
 * The path a location string stands for: {@code s3://bucket/key} and {@code hdfs://host:port/dir}
 * on their stores, {@code file:///dir} and plain paths on the local disk. The inverse of {@code
 * Path.toString()} for every path FileTables writes, so paths can travel as strings (in elements,
 * state and checkpoints) and come back whole.
 */
public final class TablePaths {
  private TablePaths() {}

  public static Path of(String location) {
    return Stores.path(location)
        .orElseGet(
            () -> location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location));
  }
}
