package dev.filetables.io.files;

import com.google.auto.value.AutoValue;

/**
 * Something under a table root that a listing did not read, and why (it is also logged at WARN).
 */
@AutoValue
abstract class IgnoredEntry {
  /** Absolute path of the entry. */
  abstract String path();

  abstract String reason();

  static IgnoredEntry of(String path, String reason) {
    return new AutoValue_IgnoredEntry(path, reason);
  }

  @Override
  public String toString() {
    return path() + ": " + reason();
  }
}
