package dev.filetables.io.commit;

import com.google.auto.value.AutoValue;
import dev.filetables.io.files.TablePaths;
import java.io.Serializable;
import java.util.OptionalLong;

/** A visible data file of a committed partition: its path, size and (when known) row count. */
@AutoValue
public abstract class CommittedFile implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Absolute path of the visible file. */
  public abstract String path();

  public abstract long sizeBytes();

  // Stored as a long (-1 = unknown): OptionalLong is not Serializable.
  abstract long rowCountOrMinusOne();

  /**
   * Rows in the file; empty when unknown (a file this job did not write and no earlier manifest
   * counted).
   */
  public OptionalLong rowCount() {
    long rows = rowCountOrMinusOne();
    return rows < 0 ? OptionalLong.empty() : OptionalLong.of(rows);
  }

  /** The file name (last path element). */
  public String name() {
    return TablePaths.of(path()).getFileName().toString();
  }

  public static CommittedFile of(String path, long sizeBytes, long rowCount) {
    if (rowCount < 0) {
      throw new IllegalArgumentException(
          "row count must be >= 0, was " + rowCount + " for " + path);
    }
    return new AutoValue_CommittedFile(path, sizeBytes, rowCount);
  }

  public static CommittedFile of(String path, long sizeBytes, OptionalLong rowCount) {
    return new AutoValue_CommittedFile(path, sizeBytes, rowCount.orElse(-1L));
  }
}
