package dev.filetables.pipelines.sql;

import dev.filetables.io.table.TableSpec;
import java.util.List;
import java.util.Optional;

/**
 * One {@code INSERT INTO sink [(columns)] query}: the sink's columns the query fills, in query
 * column order (all physical columns without a column list).
 */
record Insert(SqlQuery query, TableSpec sink, List<String> columns) {

  String describe() {
    return "INSERT INTO " + sink.name() + " (line " + query.statement().position().line() + ")";
  }

  Optional<ScriptTable> unboundedSource() {
    return query.unboundedSource();
  }
}
