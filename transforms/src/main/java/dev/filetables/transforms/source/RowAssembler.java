package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.partition.PartitionValues;
import dev.filetables.io.table.MetadataColumn;
import dev.filetables.io.table.MetadataKey;
import dev.filetables.io.table.TableSpec;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.Field;
import org.apache.beam.sdk.values.Row;

/**
 * Builds output rows of the table schema from rows read from a file (file schema) plus the values
 * that are constant for the whole file: partition columns (parsed from the directory names) and
 * metadata columns.
 *
 * <p>The plan (which output column comes from which file column) is computed once; per file the
 * constants are computed once ({@link #constantsFor}); per row only value references are copied.
 */
@Internal
public final class RowAssembler implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Schema outputSchema;
  private final Schema fileSchema;

  /** Output positions of the file columns, in the same order as {@link #fileColumnSources}. */
  private final int[] fileColumnTargets;

  private final int[] fileColumnSources;
  private final Map<Integer, String> partitionColumns = new HashMap<>();
  private final Map<Integer, MetadataKey> metadataColumns = new HashMap<>();

  public RowAssembler(TableSpec table) {
    this.outputSchema = table.schema();
    this.fileSchema = table.fileSchema();
    Map<String, MetadataKey> metadataByName = new HashMap<>();
    for (MetadataColumn column : table.metadataColumns()) {
      metadataByName.put(column.columnName(), column.key());
    }
    List<Field> fields = outputSchema.getFields();
    // for each output column: its position in the file schema, or -1 for a per-file constant
    int[] filePositions = new int[fields.size()];
    int fileColumns = 0;
    for (int i = 0; i < fields.size(); i++) {
      String name = fields.get(i).getName();
      filePositions[i] = -1;
      if (metadataByName.containsKey(name)) {
        metadataColumns.put(i, metadataByName.get(name));
      } else if (table.partitionKeys().contains(name)) {
        partitionColumns.put(i, name);
      } else {
        filePositions[i] = fileSchema.indexOf(name);
        fileColumns++;
      }
    }
    fileColumnTargets = new int[fileColumns];
    fileColumnSources = new int[fileColumns];
    for (int i = 0, j = 0; i < filePositions.length; i++) {
      if (filePositions[i] >= 0) {
        fileColumnTargets[j] = i;
        fileColumnSources[j] = filePositions[i];
        j++;
      }
    }
  }

  public Schema outputSchema() {
    return outputSchema;
  }

  public Schema fileSchema() {
    return fileSchema;
  }

  /**
   * The output values that are the same for every row of a file (file columns left null). Fails
   * with a message naming the file when a partition value does not parse as its column's type or is
   * null for a NOT NULL column.
   */
  public Object[] constantsFor(DataFile file) {
    Object[] constants = new Object[outputSchema.getFieldCount()];
    for (Map.Entry<Integer, String> entry : partitionColumns.entrySet()) {
      Field field = outputSchema.getField(entry.getKey());
      String raw = file.partition().get(entry.getValue());
      Object value;
      try {
        value = PartitionValues.parse(raw, field.getType());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "Partition value '"
                + raw
                + "' of column `"
                + field.getName()
                + "` of file "
                + file.path()
                + " is not a valid "
                + field.getType()
                + ": "
                + e.getMessage(),
            e);
      }
      if (value == null && !field.getType().getNullable()) {
        throw new IllegalArgumentException(
            "File "
                + file.path()
                + " is in the default (null) partition of NOT NULL column `"
                + field.getName()
                + "`");
      }
      constants[entry.getKey()] = value;
    }
    for (Map.Entry<Integer, MetadataKey> entry : metadataColumns.entrySet()) {
      constants[entry.getKey()] = metadataValue(entry.getValue(), file);
    }
    return constants;
  }

  /** One output row: the file row's values placed by the plan, constants elsewhere. */
  public Row assemble(Row fileRow, Object[] constants) {
    Object[] values = Arrays.copyOf(constants, constants.length);
    for (int j = 0; j < fileColumnTargets.length; j++) {
      values[fileColumnTargets[j]] = fileRow.getValue(fileColumnSources[j]);
    }
    return Row.withSchema(outputSchema).attachValues(Arrays.asList(values));
  }

  private static Object metadataValue(MetadataKey key, DataFile file) {
    switch (key) {
      case FILE_PATH:
        return file.path();
      case FILE_NAME:
        return TablePaths.of(file.path()).getFileName().toString();
      case FILE_SIZE:
        return file.size();
      case FILE_MODIFICATION_TIME:
        return new org.joda.time.Instant(file.modificationTimeMillis());
      default:
        throw new AssertionError(key);
    }
  }
}
