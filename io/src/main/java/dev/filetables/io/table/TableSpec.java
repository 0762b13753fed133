package dev.filetables.io.table;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.beam.sdk.schemas.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A file table: its name, columns, partition keys, options, watermark and metadata columns.
 *
 * <p>{@link #schema()} holds every declared column in declared order: physical columns (data and
 * partition columns) and metadata columns. Views derived from it:
 *
 * <ul>
 *   <li>{@link #physicalSchema()} – what a sink consumes: all columns but the metadata ones;
 *   <li>{@link #fileSchema()} – what is stored inside a data file: physical columns minus partition
 *       keys (Hive layout keeps partition values in directory names only);
 *   <li>{@link #schema()} – what a reader produces: everything, metadata filled per file.
 * </ul>
 *
 * <p>Build one in Java with {@link #builder()} or parse a Flink-style DDL with {@code DdlParser}.
 * {@link Builder#build()} validates the combination (partition keys exist, are not metadata, ...).
 */
@AutoValue
public abstract class TableSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  public abstract String name();

  /** All declared columns, in declared order (metadata columns included). */
  public abstract Schema schema();

  /** Partition keys in directory order (outermost first). */
  public abstract List<String> partitionKeys();

  public abstract List<MetadataColumn> metadataColumns();

  /** The watermark, if declared. */
  public Optional<WatermarkSpec> watermark() {
    return Optional.ofNullable(watermarkOrNull());
  }

  // Stored nullable rather than as an Optional field: java.util.Optional is not Serializable, and
  // a TableSpec travels inside DoFns.
  abstract @Nullable WatermarkSpec watermarkOrNull();

  public abstract TableOptions options();

  public static Builder builder() {
    return new AutoValue_TableSpec.Builder()
        .setName("table")
        .setPartitionKeys(List.of())
        .setMetadataColumns(List.of());
  }

  public abstract Builder toBuilder();

  /** Columns a sink consumes: every declared column except metadata columns. */
  public Schema physicalSchema() {
    Set<String> metadata = metadataColumnNames();
    return Schema.builder()
        .addFields(
            schema().getFields().stream()
                .filter(f -> !metadata.contains(f.getName()))
                .collect(Collectors.toList()))
        .build();
  }

  /** Columns stored inside data files: physical columns minus partition keys. */
  public Schema fileSchema() {
    Set<String> metadata = metadataColumnNames();
    return Schema.builder()
        .addFields(
            schema().getFields().stream()
                .filter(f -> !metadata.contains(f.getName()))
                .filter(f -> !partitionKeys().contains(f.getName()))
                .collect(Collectors.toList()))
        .build();
  }

  public Set<String> metadataColumnNames() {
    return metadataColumns().stream().map(MetadataColumn::columnName).collect(Collectors.toSet());
  }

  @AutoValue.Builder
  public abstract static class Builder {
    public abstract Builder setName(String name);

    public abstract Builder setSchema(Schema schema);

    public abstract Builder setPartitionKeys(List<String> keys);

    public abstract Builder setMetadataColumns(List<MetadataColumn> columns);

    abstract Builder setWatermarkOrNull(@Nullable WatermarkSpec watermark);

    public Builder setWatermark(WatermarkSpec watermark) {
      return setWatermarkOrNull(java.util.Objects.requireNonNull(watermark, "watermark"));
    }

    public Builder setWatermark(Optional<WatermarkSpec> watermark) {
      return setWatermarkOrNull(watermark.orElse(null));
    }

    public abstract Builder setOptions(TableOptions options);

    abstract TableSpec autoBuild();

    /** Builds and validates; errors are {@link TableDefinitionException}s that say what to fix. */
    public TableSpec build() {
      TableSpec spec = autoBuild();
      List<String> problems = new ArrayList<>();
      Schema schema = spec.schema();
      Set<String> metadata = spec.metadataColumnNames();
      for (MetadataColumn column : spec.metadataColumns()) {
        if (!schema.hasField(column.columnName())) {
          problems.add(
              "metadata column `" + column.columnName() + "` is not a column of the schema");
        }
      }
      for (String key : spec.partitionKeys()) {
        if (!schema.hasField(key)) {
          problems.add(
              "partition key `" + key + "` is not a column; columns are " + schema.getFieldNames());
        } else if (metadata.contains(key)) {
          problems.add("partition key `" + key + "` is a metadata column; use a physical column");
        }
      }
      if (spec.partitionKeys().size() != Set.copyOf(spec.partitionKeys()).size()) {
        problems.add("partition keys repeat a column: " + spec.partitionKeys());
      }
      spec.watermark()
          .ifPresent(
              w -> {
                if (!schema.hasField(w.column())) {
                  problems.add("watermark column `" + w.column() + "` is not a column");
                } else {
                  ColumnType type = ColumnType.of(schema.getField(w.column()).getType());
                  if (type != ColumnType.TIMESTAMP && type != ColumnType.TIMESTAMP_LTZ) {
                    problems.add(
                        "watermark column `"
                            + w.column()
                            + "` is "
                            + type
                            + "; it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)");
                  }
                }
              });
      for (Schema.Field field : schema.getFields()) {
        ColumnType.of(field.getType()); // throws for an unsupported type
      }
      if (spec.fileSchema().getFieldCount() == 0) {
        problems.add(
            "the table stores no column in its files: declare at least one non-partition column");
      }
      if (!problems.isEmpty()) {
        throw new TableDefinitionException(
            "Table `" + spec.name() + "` is invalid: " + String.join("; ", problems));
      }
      return spec;
    }
  }
}
