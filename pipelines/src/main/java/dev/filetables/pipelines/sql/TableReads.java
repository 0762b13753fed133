package dev.filetables.pipelines.sql;

import dev.filetables.io.table.DdlStatement.Column;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.kafka.KafkaTableSource;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.sql.SqlTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * The tables of one job as SQL rows, each read once however many statements use it: the connector's
 * read (FileTableIO's bounded or watched read, the Kafka source), the conversion to SQL values
 * ({@link SqlRows}) in the job's session zone, then the computed columns, evaluated by the SQL
 * engine in declared column order.
 */
final class TableReads {
  private final Pipeline pipeline;
  private final ZoneId zone;
  private final FlinkSqlRewriter rewriter;
  private final Map<String, PCollection<Row>> reads = new HashMap<>();

  TableReads(Pipeline pipeline, ZoneId zone) {
    this.pipeline = pipeline;
    this.zone = zone;
    this.rewriter = new FlinkSqlRewriter(zone);
  }

  Pipeline pipeline() {
    return pipeline;
  }

  PCollection<Row> rows(ScriptTable table) {
    return reads.computeIfAbsent(table.name(), name -> read(table));
  }

  private PCollection<Row> read(ScriptTable table) {
    String name = table.name();
    PCollection<Row> stored =
        table.file().isPresent()
            ? pipeline.apply("Read " + name, FileTableIO.read(table.file().get()))
            : pipeline.apply("Read " + name, KafkaTableSource.of(table.kafka().get()));
    PCollection<Row> rows =
        stored
            .apply("ToSqlValues " + name, ParDo.of(new SqlRows.ToSqlFn(table.storedSchema(), zone)))
            .setRowSchema(SqlRows.sqlSchema(table.storedSchema()));
    if (table.computedColumns().isEmpty()) {
      return rows;
    }
    String query = computedColumnsQuery(table);
    try {
      return rows.apply(
          "ComputedColumns " + name, FlinkFunctions.registeredIn(SqlTransform.query(query)));
    } catch (RuntimeException e) {
      throw table
          .declaration()
          .error(
              "computed columns of table `"
                  + name
                  + "`: "
                  + EngineMessages.of(e)
                  + " (in "
                  + query
                  + ")");
    }
  }

  /** {@code SELECT a, b, <expression> AS c, ... FROM PCOLLECTION}, in declared order. */
  private String computedColumnsQuery(ScriptTable table) {
    List<Column> columns = table.columns();
    String select =
        columns.stream()
            .map(column -> column.isComputed() ? expression(table, column) : quote(column.name()))
            .collect(Collectors.joining(", "));
    return "SELECT " + select + " FROM PCOLLECTION";
  }

  private String expression(ScriptTable table, Column column) {
    Column.Computed computed = column.computed().get();
    ScriptPosition at =
        new ScriptPosition(
            computed.expressionLocation().line(), computed.expressionLocation().column());
    ScriptStatement placed =
        new ScriptStatement(table.declaration().sourceName(), computed.expression(), at);
    String text = placed.placedText();
    String rewritten =
        rewriter.rewrite(
            text,
            FlinkSqlRewriter.parseExpression(placed, "computed column `" + column.name() + "`"));
    return "(" + rewritten.strip() + ") AS " + quote(column.name());
  }

  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
