package dev.filetables.pipelines.sql;

import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.kafka.KafkaTables;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.DdlStatement;
import dev.filetables.io.table.DdlStatement.Column;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.table.WatermarkSpec;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;

/**
 * A table a script declared: a file table ({@link TableSpec}) or a Kafka table ({@link
 * KafkaTableSpec}) as its connector reads and writes it, plus what only SQL evaluates: its computed
 * columns and a watermark declared on one of them.
 */
final class ScriptTable {
  private final ScriptStatement declaration;
  private final DdlStatement statement;
  private final TableSpec file; // null for a Kafka table
  private final KafkaTableSpec kafka; // null for a file table

  private ScriptTable(
      ScriptStatement declaration, DdlStatement statement, TableSpec file, KafkaTableSpec kafka) {
    this.declaration = declaration;
    this.statement = statement;
    this.file = file;
    this.kafka = kafka;
  }

  /** Parses a CREATE TABLE of the script; DDL errors name the script line. */
  static ScriptTable declare(ScriptStatement create) {
    try {
      DdlStatement statement =
          DdlParser.parseStatement(create.placedText(), Optional.of(create.sourceName()));
      DdlStatement stored = statement.withoutComputedColumns();
      if (KafkaTables.isKafka(stored)) {
        return new ScriptTable(create, statement, null, KafkaTables.fromStatement(stored));
      }
      return new ScriptTable(create, statement, DdlParser.toTableSpec(stored), null);
    } catch (TableDefinitionException e) {
      throw new SqlScriptException(e.getMessage(), e);
    }
  }

  String name() {
    return statement.name();
  }

  ScriptStatement declaration() {
    return declaration;
  }

  Optional<TableSpec> file() {
    return Optional.ofNullable(file);
  }

  Optional<KafkaTableSpec> kafka() {
    return Optional.ofNullable(kafka);
  }

  /** The columns the connector reads, in declared order (metadata columns included). */
  Schema storedSchema() {
    return file != null ? file.schema() : kafka.schema();
  }

  List<Column> columns() {
    return statement.columns();
  }

  List<Column> computedColumns() {
    return statement.computedColumns();
  }

  /** The declared watermark, also when it is on a computed column. */
  Optional<WatermarkSpec> watermark() {
    return statement.watermark();
  }

  /** True for a watched directory or a Kafka topic: reading never ends by itself. */
  boolean unbounded() {
    return kafka != null || file.options().sourceMonitorInterval().isPresent();
  }

  /** Why the table is unbounded, for messages. */
  String streamingReason() {
    return kafka != null
        ? "`" + name() + "` is a Kafka table"
        : "`" + name() + "` watches its directory (source.monitor-interval)";
  }
}
