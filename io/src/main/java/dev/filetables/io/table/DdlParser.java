package dev.filetables.io.table;

import dev.filetables.io.table.DdlStatement.Column;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;

/**
 * Parses a Flink-style {@code CREATE TABLE} statement:
 *
 * <pre>
 * CREATE TABLE [IF NOT EXISTS] orders (
 *   id BIGINT NOT NULL,
 *   amount DECIMAL(10, 2),
 *   ts TIMESTAMP(3),
 *   dt STRING,
 *   `file.path` STRING NOT NULL METADATA [FROM 'file.path'] [VIRTUAL],
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
 * ) [COMMENT '...'] PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '...', 'format' = 'parquet');
 * </pre>
 *
 * <p>Keywords are case-insensitive; names keep their case and may be back-quoted ({@code ``} inside
 * stands for one back quote); strings are single-quoted ({@code ''} for one quote); {@code --} and
 * {@code /* *}{@code /} comments are skipped; one statement, the trailing {@code ;} is optional.
 *
 * <p>Types: {@code STRING}, {@code VARCHAR(n)}, {@code BOOLEAN}, {@code INT}/{@code INTEGER},
 * {@code BIGINT}, {@code FLOAT}, {@code DOUBLE}, {@code DECIMAL[(p[, s])]} (Flink's default {@code
 * DECIMAL(10, 0)}), {@code DATE}, {@code TIMESTAMP[(0..3)]}, {@code TIMESTAMP_LTZ[(0..3)]} and
 * {@code TIMESTAMP[(0..3)] WITH LOCAL TIME ZONE}. Timestamps carry milliseconds: a bare {@code
 * TIMESTAMP} (microseconds in Flink) is read as {@code TIMESTAMP(3)}.
 *
 * <p>A relative {@code 'path'} is resolved against the current working directory of the process
 * that parses the DDL (not the DDL file's directory), so the table spec carries an absolute path
 * that means the same on every worker; absolute paths and {@code file:} URIs are kept as written.
 *
 * <p>Everything else (computed columns, primary keys, {@code LIKE}, other types, other connectors)
 * is a {@link TableDefinitionException} naming the line and column, the construct and what is
 * supported.
 */
public final class DdlParser {

  private DdlParser() {}

  // ---------------------------------------------------------------- entry points

  /** Parses a file table definition; see the class comment for the accepted DDL. */
  public static TableSpec parse(String ddl) {
    return toTableSpec(parseStatement(ddl));
  }

  /** Parses a DDL file (UTF-8); error messages start with {@code <file>:<line>:<column>:}. */
  public static TableSpec parseFile(Path file) {
    return toTableSpec(parseStatementFile(file));
  }

  /**
   * Parses a {@code CREATE TABLE} statement without applying the rules of a connector: for reuse by
   * other table kinds. Syntax, types and unsupported constructs are checked here.
   */
  public static DdlStatement parseStatement(String ddl) {
    return parseStatement(ddl, Optional.empty());
  }

  /** {@link #parseStatement(String)} for a file (UTF-8); messages start with the file name. */
  public static DdlStatement parseStatementFile(Path file) {
    String ddl;
    try {
      ddl = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TableDefinitionException("Cannot read DDL file '" + file + "': " + e, e);
    }
    return parseStatement(ddl, Optional.of(file.toString()));
  }

  private static DdlStatement parseStatement(String ddl, Optional<String> sourceName) {
    if (ddl == null) {
      throw new TableDefinitionException("DDL text is null");
    }
    return DdlStatementParser.parse(ddl, sourceName);
  }

  /**
   * Applies the file table rules to a parsed statement: {@code connector} (when given) is {@code
   * filesystem}, options are valid, metadata keys and their types are known, partition keys and the
   * watermark column are physical columns. A relative {@code path} is made absolute against the
   * working directory.
   */
  public static TableSpec toTableSpec(DdlStatement statement) {
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

  private static LinkedHashMap<String, String> resolvePath(Map<String, String> options) {
    LinkedHashMap<String, String> copy = new LinkedHashMap<>(options);
    String path = copy.get(TableOptions.PATH);
    if (path == null || path.isBlank() || !path.equals(path.strip())) {
      return copy; // the option validation reports it
    }
    Path local;
    try {
      local = LocalPaths.of(TableOptions.PATH, path);
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
