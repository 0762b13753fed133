package dev.filetables.io.files;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;

/** A leaf partition directory of a table (the root itself for an unpartitioned table). */
@Internal
@AutoValue
public abstract class PartitionDirectory implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Absolute path of the directory. */
  public abstract String path();

  /** Partition key → raw (unescaped) value, null for the default partition, in key order. */
  public abstract Map<String, String> partition();

  static PartitionDirectory of(String path, Map<String, String> partition) {
    return new AutoValue_PartitionDirectory(
        path, Collections.unmodifiableMap(new LinkedHashMap<>(partition)));
  }
}
