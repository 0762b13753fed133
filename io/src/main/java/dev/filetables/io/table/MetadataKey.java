package dev.filetables.io.table;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The file properties a metadata column can expose, with the column type each must be declared as.
 */
public enum MetadataKey {
  FILE_PATH("file.path", ColumnType.STRING),
  FILE_NAME("file.name", ColumnType.STRING),
  FILE_SIZE("file.size", ColumnType.BIGINT),
  FILE_MODIFICATION_TIME("file.modification-time", ColumnType.TIMESTAMP_LTZ);

  private final String key;
  private final ColumnType type;

  MetadataKey(String key, ColumnType type) {
    this.key = key;
    this.type = type;
  }

  /** The key as written in DDL, e.g. {@code file.path}. */
  public String key() {
    return key;
  }

  public ColumnType type() {
    return type;
  }

  /** Looks a key up, or fails naming the supported ones. */
  public static MetadataKey of(String key) {
    for (MetadataKey k : values()) {
      if (k.key.equals(key)) {
        return k;
      }
    }
    throw new TableDefinitionException(
        "Unknown metadata key '"
            + key
            + "'; supported: "
            + Arrays.stream(values()).map(MetadataKey::key).collect(Collectors.joining(", ")));
  }
}
