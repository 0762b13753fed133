package dev.filetables.pipelines.sql;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.joda.time.ReadableInstant;

/**
 * Query results as rows of a target schema, by position: a sink table's physical columns (INSERT)
 * or the display schema of a SELECT. Numbers convert to the target's numeric type (DECIMAL rounded
 * half up to its scale, as Flink casts), wall-clock times to TIMESTAMP, or to TIMESTAMP_LTZ in the
 * session zone ({@link SqlTimes}); other types must match. Target columns no query column feeds (an
 * INSERT with a column list) are null.
 */
final class SinkRows {
  private SinkRows() {}

  /** The kind of value a SQL result column holds, for matching and messages. */
  private static String sqlKind(FieldType type) {
    TypeName name = type.getTypeName();
    if (name.isNumericType()) {
      return "NUMBER";
    }
    switch (name) {
      case STRING:
        return "STRING";
      case BOOLEAN:
        return "BOOLEAN";
      case DATETIME:
        return "TIMESTAMP";
      case LOGICAL_TYPE:
        String id = type.getLogicalType().getIdentifier();
        if (SqlTypes.DATE.getIdentifier().equals(id)) {
          return "DATE";
        }
        return id;
      default:
        return name.toString();
    }
  }

  private static String targetKind(ColumnType type) {
    switch (type) {
      case INT:
      case BIGINT:
      case FLOAT:
      case DOUBLE:
      case DECIMAL:
        return "NUMBER";
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return "TIMESTAMP";
      default:
        return type.name();
    }
  }

  /**
   * Why result column {@code index} cannot go into {@code target}'s column, or empty when it can.
   */
  static Optional<String> mismatch(Schema result, int index, Schema target, int targetIndex) {
    FieldType from = result.getField(index).getType();
    ColumnType to = ColumnType.of(target.getField(targetIndex).getType());
    if (sqlKind(from).equals(targetKind(to))) {
      return Optional.empty();
    }
    return Optional.of(
        "column "
            + (index + 1)
            + " of the query (`"
            + result.getField(index).getName()
            + "`, "
            + sqlKind(from)
            + ") does not fit column `"
            + target.getField(targetIndex).getName()
            + "` ("
            + to
            + "); CAST it");
  }

  /** The schema a SELECT prints with: SQL types as FileTables' column types. */
  static Schema displaySchema(Schema result) {
    Schema.Builder schema = Schema.builder();
    for (Schema.Field field : result.getFields()) {
      FieldType type = field.getType();
      FieldType display;
      switch (type.getTypeName()) {
        case DATETIME:
          display = ColumnType.TIMESTAMP.fieldType();
          break;
        case BYTE:
        case INT16:
          display = FieldType.INT32;
          break;
        default:
          display = type;
      }
      schema.addField(field.getName(), display.withNullable(true));
    }
    return schema.build();
  }

  /** Converts result rows; {@code targetIndexes[i]} is the target column of result column i. */
  static final class ToTargetFn extends DoFn<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final Schema target;
    private final List<ColumnType> targetTypes;
    private final int[] targetIndexes;
    private final String zone;

    ToTargetFn(Schema target, int[] targetIndexes, ZoneId zone) {
      this.target = target;
      List<ColumnType> types = new ArrayList<>();
      for (Schema.Field field : target.getFields()) {
        types.add(ColumnType.of(field.getType()));
      }
      this.targetTypes = List.copyOf(types);
      this.targetIndexes = targetIndexes.clone();
      this.zone = zone.getId();
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      Object[] values = new Object[targetTypes.size()];
      Arrays.fill(values, null);
      for (int i = 0; i < targetIndexes.length; i++) {
        int to = targetIndexes[i];
        values[to] = convert(row.getValue(i), targetTypes.get(to), target.getField(to).getType());
      }
      out.output(Row.withSchema(target).attachValues(Arrays.asList(values)));
    }

    private Object convert(Object value, ColumnType type, FieldType fieldType) {
      if (value == null) {
        return null;
      }
      switch (type) {
        case INT:
          return ((Number) value).intValue();
        case BIGINT:
          return ((Number) value).longValue();
        case FLOAT:
          return ((Number) value).floatValue();
        case DOUBLE:
          return ((Number) value).doubleValue();
        case DECIMAL:
          BigDecimal decimal =
              value instanceof BigDecimal ? (BigDecimal) value : new BigDecimal(value.toString());
          return fieldType.getTypeName() == TypeName.LOGICAL_TYPE
              ? decimal.setScale(ColumnType.decimalScale(fieldType), RoundingMode.HALF_UP)
              : decimal;
        case TIMESTAMP:
          return SqlTimes.fromSqlValue((ReadableInstant) value);
        case TIMESTAMP_LTZ:
          java.time.Instant instant =
              SqlTimes.instant(SqlTimes.fromSqlValue((ReadableInstant) value), ZoneId.of(zone));
          return new org.joda.time.Instant(instant.toEpochMilli());
        default:
          return value;
      }
    }
  }
}
