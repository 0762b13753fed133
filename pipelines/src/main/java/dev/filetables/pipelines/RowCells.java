package dev.filetables.pipelines;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.DateTimeZone;
import org.joda.time.Instant;

/**
 * The display form of a row: one string per column, null for SQL NULL.
 *
 * <p>Values print the way Flink SQL shows them: {@code TIMESTAMP(3)} as {@code 2020-05-20
 * 12:00:00.000}, {@code TIMESTAMP_LTZ(3)} the same in UTC with a {@code Z}, DECIMAL without
 * exponent.
 */
final class RowCells {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  private static final org.joda.time.format.DateTimeFormatter TIMESTAMP_LTZ =
      org.joda.time.format.DateTimeFormat.forPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'")
          .withZone(DateTimeZone.UTC);

  private RowCells() {}

  /** Column types of a schema, in field order. */
  static List<ColumnType> types(Schema schema) {
    List<ColumnType> types = new ArrayList<>();
    for (Schema.Field field : schema.getFields()) {
      types.add(ColumnType.of(field.getType()));
    }
    return types;
  }

  /** The row's cells, in field order. */
  static List<String> of(Row row, List<ColumnType> types) {
    List<String> cells = new ArrayList<>(types.size());
    for (int i = 0; i < types.size(); i++) {
      cells.add(format(row.getValue(i), types.get(i)));
    }
    return cells;
  }

  /** One value's display string (null stays null). */
  static String format(Object value, ColumnType type) {
    if (value == null) {
      return null;
    }
    switch (type) {
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case DATE:
        return ((LocalDate) value).toString();
      case TIMESTAMP:
        return TIMESTAMP.format((LocalDateTime) value);
      case TIMESTAMP_LTZ:
        return TIMESTAMP_LTZ.print((Instant) value);
      default:
        return value.toString();
    }
  }
}
