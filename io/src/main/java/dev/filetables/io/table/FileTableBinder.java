package dev.filetables.io.table;

import dev.filetables.io.table.DdlStatement.Column;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/**
 * Binds a parsed {@link DdlStatement} to the file table model, the rules {@link
 * DdlParser#toTableSpec} lists: options through the typed option registry ({@link TableOptions}),
 * columns into the Beam schema, metadata keys, partition keys and the watermark column checked
 * against the columns. Each problem is reported at the position of what caused it (option key,
 * partition key, column, {@code WATERMARK}), so the DDL's author finds it.
 */
final class FileTableBinder {

  private FileTableBinder() {}

  static TableSpec toTableSpec(DdlStatement statement) {
    statement.rejectComputedColumns();
    DdlStatement resolved = statement.withOptions(resolvePath(statement.options()));
    TableOptions options = options(resolved);

    List<MetadataColumn> metadata = new ArrayList<>();
    Schema.Builder schema = Schema.builder();
    Map<String, Column> byName = new HashMap<>();
    for (Column column : resolved.columns()) {
      byName.put(column.name(), column);
      schema.addField(column.name(), column.type());
      if (column.isMetadata()) {
        metadata.add(metadataColumn(resolved, column));
      }
    }
    for (String key : resolved.partitionKeys()) {
      Column column = byName.get(key);
      if (column == null) {
        throw resolved.errorAt(
            resolved.partitionKeyLocation(key),
            "partition key `"
                + key
                + "` is not a column of table `"
                + resolved.name()
                + "`; columns are "
                + resolved.columns().stream().map(Column::name).toList());
      }
      if (column.isMetadata()) {
        throw resolved.errorAt(
            resolved.partitionKeyLocation(key),
            "partition key `" + key + "` is a METADATA column; partition by a physical column");
      }
    }
    resolved
        .watermark()
        .ifPresent(
            w -> {
              Column column = byName.get(w.column());
              if (column == null) {
                throw resolved.errorAt(
                    resolved.watermarkLocation(),
                    "watermark column `" + w.column() + "` is not a column of the table");
              }
              ColumnType type = ColumnType.of(column.type());
              if (type != ColumnType.TIMESTAMP && type != ColumnType.TIMESTAMP_LTZ) {
                throw resolved.errorAt(
                    resolved.watermarkLocation(),
                    "watermark column `"
                        + w.column()
                        + "` is "
                        + column.typeText()
                        + "; it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)");
              }
            });
    try {
      return TableSpec.builder()
          .setName(resolved.name())
          .setSchema(schema.build())
          .setPartitionKeys(resolved.partitionKeys())
          .setMetadataColumns(metadata)
          .setWatermark(resolved.watermark())
          .setOptions(options)
          .build();
    } catch (TableDefinitionException e) {
      throw resolved.errorAt(resolved.location(), e.getMessage());
    }
  }

  /**
   * A relative {@code path} means the parsing process's working directory: made absolute here, so
   * every worker reads the same directory. A path the option validation rejects is left as written.
   */
  private static LinkedHashMap<String, String> resolvePath(Map<String, String> options) {
    LinkedHashMap<String, String> copy = new LinkedHashMap<>(options);
    String path = copy.get(TableOptions.PATH);
    if (path == null || path.isBlank() || !path.equals(path.strip())) {
      return copy; // the option validation reports it
    }
    Path local;
    try {
      local = TableLocations.of(TableOptions.PATH, path);
    } catch (TableDefinitionException e) {
      return copy;
    }
    if (!local.isAbsolute()) {
      copy.put(TableOptions.PATH, local.toAbsolutePath().normalize().toString());
    }
    return copy;
  }

  private static TableOptions options(DdlStatement statement) {
    List<OptionProblem> problems = TableOptions.problems(statement.options());
    if (problems.isEmpty()) {
      return TableOptions.of(statement.options());
    }
    if (problems.size() == 1) {
      OptionProblem p = problems.get(0);
      throw statement.errorAt(statement.optionLocation(p.key()), p.message());
    }
    StringBuilder message = new StringBuilder();
    message.append("Invalid table options (").append(problems.size()).append(" problems):");
    for (OptionProblem p : problems) {
      message
          .append("\n  ")
          .append(DdlStatement.prefix(statement.sourceName(), statement.optionLocation(p.key())))
          .append(p.message());
    }
    throw statement.errorAt(statement.optionLocation(problems.get(0).key()), message.toString());
  }

  private static MetadataColumn metadataColumn(DdlStatement statement, Column column) {
    String keyText = column.metadataKey().get();
    MetadataKey key;
    try {
      key = MetadataKey.of(keyText);
    } catch (TableDefinitionException e) {
      throw statement.errorAt(
          column.location(), "METADATA column `" + column.name() + "`: " + e.getMessage());
    }
    if (ColumnType.of(column.type()) != key.type()) {
      throw statement.errorAt(
          column.location(),
          "METADATA column `"
              + column.name()
              + "` is declared "
              + column.typeText()
              + ", but metadata key '"
              + key.key()
              + "' is "
              + typeName(key.type())
              + " NOT NULL; declare it as "
              + typeName(key.type()));
    }
    return MetadataColumn.of(column.name(), key);
  }

  /** A column type as DDL declares it, in the canonical text {@link DdlTypeParser} produces. */
  private static String typeName(ColumnType type) {
    switch (type) {
      case TIMESTAMP:
        return "TIMESTAMP(3)";
      case TIMESTAMP_LTZ:
        return "TIMESTAMP_LTZ(3)";
      default:
        return type.name();
    }
  }
}
