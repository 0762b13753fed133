package dev.filetables.io.table;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

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
 *
 * <p>How it is done, in two steps: syntax, then the table model. {@code DdlLexer} cuts the text
 * into tokens; {@code DdlStatementParser} reads the statement from them (the column definitions
 * with {@code DdlColumnParser}, their types with {@code DdlTypeParser}, the watermark with {@code
 * DdlWatermarkParser}, all over one {@code DdlTokens} cursor) into a {@link DdlStatement}; {@code
 * FileTableBinder} applies the file table rules to it and builds the {@link TableSpec}. Other table
 * kinds (Kafka) take the statement and apply their own rules.
 */
public final class DdlParser {

  private DdlParser() {}

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

  /**
   * {@link #parseStatement(String)} with messages starting {@code <sourceName>:<line>:<column>:}
   * (for a statement taken from a larger file: place it at its position there).
   */
  public static DdlStatement parseStatement(String ddl, Optional<String> sourceName) {
    if (ddl == null) {
      throw new TableDefinitionException("DDL text is null");
    }
    return DdlStatementParser.parse(ddl, sourceName);
  }

  /**
   * Applies the file table rules to a parsed statement: {@code connector} (when given) is {@code
   * filesystem}, options are valid, metadata keys and their types are known, partition keys are
   * physical columns, the watermark column is a {@code TIMESTAMP(3)} or {@code TIMESTAMP_LTZ(3)}
   * column. A relative {@code path} is made absolute against the working directory.
   */
  public static TableSpec toTableSpec(DdlStatement statement) {
    return FileTableBinder.toTableSpec(statement);
  }
}
