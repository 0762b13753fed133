package dev.filetables.io.format.orc;

import dev.filetables.io.format.internal.ValueConversions;
import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.orc.TypeDescription;

/**
 * Readers from one ORC column (of any writer: FileTables, Flink, Hive, Spark, orc-core) to the Java
 * value of a FileTables column, chosen once per file from the column's ORC type. Integers of every
 * width, floating point, decimals, dates, both timestamp kinds and the string kinds (string,
 * varchar, char) convert as the Parquet reader converts them; binary and nested columns do not.
 *
 * <p>Timestamps are read in UTC: an ORC {@code timestamp} gives its wall-clock time (TIMESTAMP) or
 * that wall-clock time taken as UTC (TIMESTAMP_LTZ, how Flink writes one); a {@code timestamp with
 * local time zone} gives its instant (TIMESTAMP_LTZ) or the instant's UTC wall-clock time.
 */
final class VectorReaders {
  private VectorReaders() {}

  /** Reads the non-null value at a row of a column vector. */
  interface VectorReader {
    Object get(ColumnVector vector, int row);
  }

  /** A file column that cannot be read as the requested type. */
  static final class IncompatibleColumnException extends Exception {
    private static final long serialVersionUID = 1L;

    IncompatibleColumnException(String message) {
      super(message);
    }
  }

  /** The reader of the file column {@code fileType} as the requested column {@code target}. */
  static VectorReader of(TypeDescription fileType, Schema.Field target)
      throws IncompatibleColumnException {
    ColumnType type = ColumnType.of(target.getType());
    VectorReader reader = readerOrNull(fileType, type, target.getType());
    if (reader == null) {
      throw new IncompatibleColumnException(
          "Column '"
              + target.getName()
              + "' is stored as '"
              + fileType
              + "' in the ORC file, which cannot be read as "
              + type);
    }
    return reader;
  }

  private static VectorReader readerOrNull(
      TypeDescription fileType, ColumnType type, Schema.FieldType target) {
    switch (fileType.getCategory()) {
      case BOOLEAN:
        return type == ColumnType.BOOLEAN
            ? (v, row) -> ((LongColumnVector) v).vector[row] != 0
            : null;
      case BYTE:
      case SHORT:
      case INT:
      case LONG:
        return longs(ValueConversions.fromInteger(type, target));
      case FLOAT:
      case DOUBLE:
        {
          DoubleFunction<Object> f = ValueConversions.fromFloating(type, target);
          return f == null ? null : (v, row) -> f.apply(((DoubleColumnVector) v).vector[row]);
        }
      case DECIMAL:
        {
          int scale = fileType.getScale();
          Function<BigDecimal, Object> f =
              ValueConversions.fromDecimal(type, target, fileType.getPrecision(), scale);
          // Hive decimals drop trailing zeros: back to the column's scale
          return f == null
              ? null
              : (v, row) ->
                  f.apply(
                      ((DecimalColumnVector) v)
                          .vector[row]
                          .getHiveDecimal()
                          .bigDecimalValue()
                          .setScale(scale));
        }
      case DATE:
        return longs(ValueConversions.fromEpochDay(type));
      case TIMESTAMP:
      case TIMESTAMP_INSTANT:
        {
          LongFunction<Object> f = ValueConversions.fromEpochMillis(type, null);
          return f == null ? null : (v, row) -> f.apply(((TimestampColumnVector) v).time[row]);
        }
      case STRING:
      case VARCHAR:
      case CHAR:
        return type == ColumnType.STRING
            ? (v, row) -> {
              BytesColumnVector bytes = (BytesColumnVector) v;
              return new String(
                  bytes.vector[row], bytes.start[row], bytes.length[row], StandardCharsets.UTF_8);
            }
            : null;
      default:
        return null; // binary, list, map, struct, union: no FileTables counterpart
    }
  }

  private static VectorReader longs(LongFunction<Object> f) {
    return f == null ? null : (v, row) -> f.apply(((LongColumnVector) v).vector[row]);
  }
}
