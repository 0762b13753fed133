package dev.filetables.pipelines.sql;

import java.time.ZoneId;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/** A SELECT over bounded tables: its rows, in FileTables' column types, for printing. */
@Internal
public final class SelectJob implements SqlJob {
  private final SqlQuery query;

  SelectJob(SqlQuery query) {
    this.query = query;
  }

  @Override
  public String describe() {
    return "SELECT (line " + query.statement().position().line() + ")";
  }

  @Override
  public ZoneId timeZone() {
    return query.zone();
  }

  /** Adds the query to {@code pipeline}; the rows have {@link SinkRows#displaySchema} types. */
  public PCollection<Row> expand(Pipeline pipeline) {
    PCollection<Row> result = query.apply(new TableReads(pipeline, query.zone()), describe());
    Schema display = SinkRows.displaySchema(result.getSchema());
    int[] identity = new int[display.getFieldCount()];
    for (int i = 0; i < identity.length; i++) {
      identity[i] = i;
    }
    return result
        .apply(
            describe() + " ToDisplayRows",
            ParDo.of(new SinkRows.ToTargetFn(display, identity, query.zone())))
        .setRowSchema(display);
  }
}
