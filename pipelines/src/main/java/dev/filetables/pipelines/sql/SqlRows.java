package dev.filetables.pipelines.sql;

import dev.filetables.io.table.ColumnType;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/**
 * Rows of a FileTables table as the SQL engine takes them: TIMESTAMP and TIMESTAMP_LTZ columns as
 * wall-clock times ({@link SqlTimes}; a TIMESTAMP_LTZ in the session zone), DECIMAL as Beam's plain
 * decimal (Beam SQL does not read FileTables' fixed-precision logical type). Other types pass.
 */
final class SqlRows {
  private SqlRows() {}

  /** The SQL view of a table schema. */
  static Schema sqlSchema(Schema table) {
    Schema.Builder schema = Schema.builder();
    for (Schema.Field field : table.getFields()) {
      schema.addField(field.getName(), sqlType(field.getType()));
    }
    return schema.build();
  }

  private static FieldType sqlType(FieldType type) {
    switch (ColumnType.of(type)) {
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return FieldType.DATETIME.withNullable(type.getNullable());
      case DECIMAL:
        return FieldType.DECIMAL.withNullable(type.getNullable());
      default:
        return type;
    }
  }

  /** Table rows to SQL rows. */
  static final class ToSqlFn extends DoFn<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final List<ColumnType> types;
    private final Schema sqlSchema;
    private final String zone;

    ToSqlFn(Schema table, ZoneId zone) {
      List<ColumnType> columnTypes = new ArrayList<>();
      for (Schema.Field field : table.getFields()) {
        columnTypes.add(ColumnType.of(field.getType()));
      }
      this.types = List.copyOf(columnTypes);
      this.sqlSchema = sqlSchema(table);
      this.zone = zone.getId();
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      ZoneId sessionZone = ZoneId.of(zone);
      List<Object> values = new ArrayList<>(types.size());
      for (int i = 0; i < types.size(); i++) {
        Object value = row.getValue(i);
        if (value != null && types.get(i) == ColumnType.TIMESTAMP) {
          value = SqlTimes.toSqlValue((LocalDateTime) value);
        } else if (value != null && types.get(i) == ColumnType.TIMESTAMP_LTZ) {
          java.time.Instant instant = java.time.Instant.ofEpochMilli(((Instant) value).getMillis());
          value = SqlTimes.toSqlValue(SqlTimes.wallClock(instant, sessionZone));
        }
        values.add(value);
      }
      out.output(Row.withSchema(sqlSchema).attachValues(values));
    }
  }
}
