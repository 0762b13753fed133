package dev.filetables.io.table;

import com.google.auto.value.AutoValue;
import java.io.Serializable;

/**
 * A declared read-only metadata column: {@code `file.path` STRING NOT NULL METADATA [FROM
 * 'file.path']}.
 */
@AutoValue
public abstract class MetadataColumn implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The column's name in the table schema. */
  public abstract String columnName();

  /** Which file property fills it. */
  public abstract MetadataKey key();

  public static MetadataColumn of(String columnName, MetadataKey key) {
    return new AutoValue_MetadataColumn(columnName, key);
  }
}
