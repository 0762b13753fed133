package dev.filetables.io.files;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;

/** A visible data file of a table: where it is, its partition (raw values by key) and its stat. */
@Internal
@AutoValue
public abstract class DataFile implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Absolute path of the file. */
  public abstract String path();

  /** Partition key → raw (unescaped) value, null for the default partition, in key order. */
  public abstract Map<String, String> partition();

  public abstract long size();

  public abstract long modificationTimeMillis();

  public static DataFile of(
      String path, Map<String, String> partition, long size, long modificationTimeMillis) {
    return new AutoValue_DataFile(
        path,
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partition)),
        size,
        modificationTimeMillis);
  }
}
