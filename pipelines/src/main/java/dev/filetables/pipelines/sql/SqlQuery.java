package dev.filetables.pipelines.sql;

import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.beam.sdk.extensions.sql.SqlTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlIdentifier;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The query of a SELECT or of an INSERT's SELECT, ready for the engine: its text rewritten for Beam
 * SQL ({@link FlinkSqlRewriter}) at its script position, and the script tables it reads.
 */
final class SqlQuery {
  private final ScriptStatement statement;
  private final String text;
  private final Map<String, ScriptTable> tables;
  private final ZoneId zone;

  private SqlQuery(
      ScriptStatement statement, String text, Map<String, ScriptTable> tables, ZoneId zone) {
    this.statement = statement;
    this.text = text;
    this.tables = tables;
    this.zone = zone;
  }

  /**
   * The query {@code query}, a part of {@code root} (parsed from the statement's placed text): the
   * text before it (an INSERT's head) is blanked, so positions stay those of the script.
   */
  static SqlQuery of(
      ScriptStatement statement,
      SqlNode root,
      SqlNode query,
      Map<String, ScriptTable> declared,
      ZoneId zone) {
    String placed = statement.placedText();
    String rewritten = new FlinkSqlRewriter(zone).rewrite(placed, root);
    SqlParserPos start = query.getParserPosition();
    int from = ScriptPosition.offset(rewritten, start.getLineNum(), start.getColumnNum());
    StringBuilder text = new StringBuilder(rewritten);
    for (int i = 0; i < from; i++) {
      if (text.charAt(i) != '\n') {
        text.setCharAt(i, ' ');
      }
    }
    Map<String, ScriptTable> used = new LinkedHashMap<>();
    query.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlIdentifier id) {
            ScriptTable table = declared.get(id.names.get(id.names.size() - 1));
            if (table != null) {
              used.put(table.name(), table);
            }
            return null;
          }
        });
    if (used.isEmpty()) {
      throw statement.error("the query reads no table declared by the script");
    }
    return new SqlQuery(statement, text.toString(), used, zone);
  }

  ScriptStatement statement() {
    return statement;
  }

  ZoneId zone() {
    return zone;
  }

  /** The first table that never ends, if any. */
  java.util.Optional<ScriptTable> unboundedSource() {
    return tables.values().stream().filter(ScriptTable::unbounded).findFirst();
  }

  /** Applies the query to the tables' rows; engine errors name the statement's position. */
  PCollection<Row> apply(TableReads reads, String stepName) {
    PCollectionTuple input = PCollectionTuple.empty(reads.pipeline());
    for (ScriptTable table : tables.values()) {
      input = input.and(new TupleTag<Row>(table.name()), reads.rows(table));
    }
    try {
      return input.apply(stepName, FlinkFunctions.registeredIn(SqlTransform.query(text)));
    } catch (SqlScriptException e) {
      throw e;
    } catch (RuntimeException e) {
      throw statement.error(EngineMessages.of(e));
    }
  }
}
