package dev.filetables.transforms.sink;

import dev.filetables.io.partition.PartitionPath;
import dev.filetables.io.partition.PartitionValues;
import dev.filetables.io.table.TableSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * Splits an input row into where it goes (its relative partition directory) and what is stored (the
 * row projected onto the table's file schema).
 *
 * <p>Called once per written row, so both are cheap: column positions are resolved once for the
 * input schema, the directory string of the last partition seen is reused while consecutive rows
 * stay in it (the common case for sorted or clustered input), and a small LRU map remembers the
 * directory strings of recently seen partitions; projection copies value references into one list.
 */
@Internal
public final class Partitioner implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final int RECENT_PARTITIONS = 256;

  private final List<String> keys;
  private final FieldType[] keyTypes;
  private final int[] keyPositions;
  private final int[] filePositions;
  private final Schema fileSchema;
  private final String defaultName;

  private transient Object[] lastValues;
  private transient String lastPath;
  private transient Map<List<Object>, String> recent;

  private Partitioner(TableSpec table, Schema inputSchema) {
    this.keys = List.copyOf(table.partitionKeys());
    this.keyTypes = new FieldType[keys.size()];
    this.keyPositions = new int[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      keyTypes[i] = table.schema().getField(keys.get(i)).getType();
      keyPositions[i] = inputSchema.indexOf(keys.get(i));
    }
    this.fileSchema = table.fileSchema();
    this.filePositions = new int[fileSchema.getFieldCount()];
    for (int i = 0; i < filePositions.length; i++) {
      filePositions[i] = inputSchema.indexOf(fileSchema.getField(i).getName());
    }
    this.defaultName = table.options().partitionDefaultName();
  }

  /**
   * A partitioner for rows of {@code inputSchema}, which must have passed {@link SinkInputCheck}.
   */
  public static Partitioner of(TableSpec table, Schema inputSchema) {
    return new Partitioner(table, inputSchema);
  }

  public Schema fileSchema() {
    return fileSchema;
  }

  public boolean isPartitioned() {
    return !keys.isEmpty();
  }

  /** The relative partition directory of a row, {@code ""} for an unpartitioned table. */
  public String partitionPath(Row row) {
    if (keys.isEmpty()) {
      return "";
    }
    if (lastValues != null && sameAsLast(row)) {
      return lastPath;
    }
    Object[] values = new Object[keyPositions.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.getValue(keyPositions[i]);
    }
    if (recent == null) {
      recent = new LruMap(RECENT_PARTITIONS);
    }
    List<Object> cacheKey = Arrays.asList(values);
    String path = recent.get(cacheKey);
    if (path == null) {
      path = format(values);
      recent.put(cacheKey, path);
    }
    lastValues = values;
    lastPath = path;
    return path;
  }

  /** The row's stored columns, in file-schema order. */
  public Row toFileRow(Row row) {
    List<Object> values = new ArrayList<>(filePositions.length);
    for (int position : filePositions) {
      values.add(row.getValue(position));
    }
    return Row.withSchema(fileSchema).attachValues(values);
  }

  private boolean sameAsLast(Row row) {
    for (int i = 0; i < keyPositions.length; i++) {
      if (!Objects.equals(row.getValue(keyPositions[i]), lastValues[i])) {
        return false;
      }
    }
    return true;
  }

  private String format(Object[] values) {
    List<String> formatted = new ArrayList<>(values.length);
    for (int i = 0; i < values.length; i++) {
      formatted.add(PartitionValues.format(values[i], keyTypes[i]));
    }
    return PartitionPath.toRelativePath(keys, formatted, defaultName);
  }

  private static final class LruMap extends LinkedHashMap<List<Object>, String> {
    private static final long serialVersionUID = 1L;
    private final int capacity;

    LruMap(int capacity) {
      super(capacity * 2, 0.75f, true);
      this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<List<Object>, String> eldest) {
      return size() > capacity;
    }
  }
}
