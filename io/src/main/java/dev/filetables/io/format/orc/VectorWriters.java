package dev.filetables.io.format.orc;

import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Puts the Java value of a FileTables column into the ORC column vector of its type ({@link
 * OrcSchemas}), as Flink's {@code RowDataVectorizer} fills them: timestamps as epoch millis read in
 * UTC (the writer converts in UTC), dates as epoch days, decimals as Hive decimals.
 */
final class VectorWriters {
  private VectorWriters() {}

  /**
   * Sets one non-null value at a row of a column vector; returns about how many bytes the value
   * takes before compression (for the writer's size estimate).
   */
  interface VectorWriter {
    int set(ColumnVector vector, int row, Object value);
  }

  static VectorWriter of(ColumnType type) {
    switch (type) {
      case STRING:
        return (v, row, value) -> {
          byte[] bytes = ((String) value).getBytes(StandardCharsets.UTF_8);
          ((BytesColumnVector) v).setRef(row, bytes, 0, bytes.length);
          return bytes.length + 1;
        };
      case BOOLEAN:
        return (v, row, value) -> {
          ((LongColumnVector) v).vector[row] = (Boolean) value ? 1 : 0;
          return 1;
        };
      case INT:
        return (v, row, value) -> {
          ((LongColumnVector) v).vector[row] = ((Number) value).longValue();
          return 4;
        };
      case BIGINT:
        return (v, row, value) -> {
          ((LongColumnVector) v).vector[row] = ((Number) value).longValue();
          return 8;
        };
      case FLOAT:
        return (v, row, value) -> {
          ((DoubleColumnVector) v).vector[row] = ((Number) value).floatValue();
          return 4;
        };
      case DOUBLE:
        return (v, row, value) -> {
          ((DoubleColumnVector) v).vector[row] = ((Number) value).doubleValue();
          return 8;
        };
      case DECIMAL:
        // the value was fitted to the column's precision and scale before (OrcRowWriter.check)
        return (v, row, value) -> {
          BigDecimal decimal = (BigDecimal) value;
          ((DecimalColumnVector) v).set(row, HiveDecimal.create(decimal));
          return decimal.unscaledValue().bitLength() / 8 + 2;
        };
      case DATE:
        return (v, row, value) -> {
          ((LongColumnVector) v).vector[row] = TimeValues.epochDay((LocalDate) value);
          return 4;
        };
      case TIMESTAMP:
        return (v, row, value) ->
            setMillis(
                (TimestampColumnVector) v, row, TimeValues.epochMillis((LocalDateTime) value));
      case TIMESTAMP_LTZ:
        return (v, row, value) ->
            setMillis((TimestampColumnVector) v, row, TimeValues.epochMillis(value));
      default:
        throw new AssertionError(type);
    }
  }

  /** As {@code java.sql.Timestamp} holds it: floor millis, and the nanos of that second. */
  private static int setMillis(TimestampColumnVector vector, int row, long millis) {
    vector.time[row] = millis;
    vector.nanos[row] = (int) Math.floorMod(millis, 1000L) * 1_000_000;
    return 10;
  }
}
