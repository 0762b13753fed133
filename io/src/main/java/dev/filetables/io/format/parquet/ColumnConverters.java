package dev.filetables.io.format.parquet;

import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.format.internal.ValueConversions;
import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.ZoneId;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Converters from one Parquet column (of any writer: FileTables, DuckDB, Spark, Flink, ...) to the
 * Java value of a FileTables column, chosen once per file from the column's physical type and
 * annotation. Each converter stores its value into a slot of the row being built; dictionary
 * entries are converted once per row group, not once per row.
 */
final class ColumnConverters {
  private ColumnConverters() {}

  /** The values of the row being assembled; converters write into it. */
  static final class RowSlots {
    Object[] values;
  }

  /** A file column that cannot be read as the requested type. */
  static final class IncompatibleColumnException extends Exception {
    private static final long serialVersionUID = 1L;

    IncompatibleColumnException(String message) {
      super(message);
    }
  }

  /** A converter for the file column {@code fileType} to the requested {@code target} column. */
  static PrimitiveConverter forColumn(
      PrimitiveType fileType, Schema.Field target, boolean int96IsUtc, RowSlots row, int slot)
      throws IncompatibleColumnException {
    ColumnType type = ColumnType.of(target.getType());
    LogicalTypeAnnotation annotation = fileType.getLogicalTypeAnnotation();
    switch (fileType.getPrimitiveTypeName()) {
      case BOOLEAN:
        if (type == ColumnType.BOOLEAN) {
          return new BooleanConverter(row, slot);
        }
        break;
      case INT32:
        {
          boolean unsigned32 =
              annotation instanceof IntLogicalTypeAnnotation
                  && !((IntLogicalTypeAnnotation) annotation).isSigned()
                  && ((IntLogicalTypeAnnotation) annotation).getBitWidth() == 32;
          if (type == ColumnType.INT && !unsigned32 && !isTemporalOrDecimal(annotation)) {
            return new IntConverter(row, slot, Integer::valueOf);
          }
          LongFunction<Object> f = fromInteger(type, target, annotation);
          if (f != null) {
            return unsigned32
                ? new IntConverter(row, slot, v -> f.apply(Integer.toUnsignedLong(v)))
                : new IntConverter(row, slot, f::apply);
          }
          break;
        }
      case INT64:
        {
          LongFunction<Object> f = fromInteger(type, target, annotation);
          if (f != null) {
            return new LongConverter(row, slot, f);
          }
          break;
        }
      case INT96:
        if (type == ColumnType.TIMESTAMP || type == ColumnType.TIMESTAMP_LTZ) {
          LongFunction<Object> timestamp =
              ValueConversions.fromEpochMillis(type, int96IsUtc ? null : ZoneId.systemDefault());
          return new BinaryConverter(row, slot, b -> timestamp.apply(int96Millis(b)));
        }
        break;
      case FLOAT:
      case DOUBLE:
        DoubleFunction<Object> floating = ValueConversions.fromFloating(type, target.getType());
        if (floating != null) {
          return fileType.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT
              ? new FloatConverter(row, slot, floating)
              : new DoubleConverter(row, slot, floating);
        }
        break;
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        Function<Binary, Object> binary = fromBinary(type, target, annotation);
        if (binary != null) {
          return new BinaryConverter(row, slot, binary);
        }
        break;
      default:
        break;
    }
    throw new IncompatibleColumnException(
        "Column '"
            + target.getName()
            + "' is stored as '"
            + fileType
            + "' in the Parquet file, which cannot be read as "
            + type);
  }

  private static boolean isTemporalOrDecimal(LogicalTypeAnnotation annotation) {
    return annotation instanceof DecimalLogicalTypeAnnotation
        || annotation instanceof TimestampLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
  }

  /**
   * Values of an INT32/INT64 column (plain, decimal, date or timestamp) as {@code type}; null if
   * none.
   */
  private static LongFunction<Object> fromInteger(
      ColumnType type, Schema.Field target, LogicalTypeAnnotation annotation) {
    if (annotation instanceof DecimalLogicalTypeAnnotation) {
      int scale = ((DecimalLogicalTypeAnnotation) annotation).getScale();
      int precision = ((DecimalLogicalTypeAnnotation) annotation).getPrecision();
      Function<BigDecimal, Object> decimal =
          ValueConversions.fromDecimal(type, target.getType(), precision, scale);
      return decimal == null ? null : v -> decimal.apply(BigDecimal.valueOf(v, scale));
    }
    if (annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return ValueConversions.fromEpochDay(type);
    }
    if (annotation instanceof TimestampLogicalTypeAnnotation) {
      return ValueConversions.fromEpochUnits(
          type, unitsPerMilli((TimestampLogicalTypeAnnotation) annotation));
    }
    if (annotation != null && !(annotation instanceof IntLogicalTypeAnnotation)) {
      return null; // TIME and others have no FileTables counterpart
    }
    return ValueConversions.fromInteger(type, target.getType());
  }

  private static long unitsPerMilli(TimestampLogicalTypeAnnotation annotation) {
    switch (annotation.getUnit()) {
      case MILLIS:
        return 1;
      case MICROS:
        return 1_000;
      case NANOS:
        return 1_000_000;
      default:
        throw new AssertionError(annotation.getUnit());
    }
  }

  private static Function<Binary, Object> fromBinary(
      ColumnType type, Schema.Field target, LogicalTypeAnnotation annotation) {
    if (annotation instanceof DecimalLogicalTypeAnnotation) {
      int scale = ((DecimalLogicalTypeAnnotation) annotation).getScale();
      int precision = ((DecimalLogicalTypeAnnotation) annotation).getPrecision();
      Function<BigDecimal, Object> decimal =
          ValueConversions.fromDecimal(type, target.getType(), precision, scale);
      return decimal == null
          ? null
          : b -> decimal.apply(new BigDecimal(new BigInteger(b.getBytesUnsafe()), scale));
    }
    if (type == ColumnType.STRING
        && (annotation == null
            || annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation)) {
      return Binary::toStringUsingUTF8;
    }
    return null;
  }

  private static long int96Millis(Binary value) {
    ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    int start = bytes.position();
    return TimeValues.int96ToMillis(bytes.getLong(start), bytes.getInt(start + 8));
  }

  /** Stores converted values into one slot; caches converted dictionary entries. */
  private abstract static class SlotConverter extends PrimitiveConverter {
    final RowSlots row;
    final int slot;
    private Dictionary dictionary;
    private Object[] decoded;

    SlotConverter(RowSlots row, int slot) {
      this.row = row;
      this.slot = slot;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      this.dictionary = dictionary;
      this.decoded = new Object[dictionary.getMaxId() + 1];
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      Object value = decoded[dictionaryId];
      if (value == null) {
        value = decode(dictionary, dictionaryId);
        decoded[dictionaryId] = value;
      }
      row.values[slot] = value;
    }

    abstract Object decode(Dictionary dictionary, int id);
  }

  private static final class BooleanConverter extends SlotConverter {
    BooleanConverter(RowSlots row, int slot) {
      super(row, slot);
    }

    @Override
    public boolean hasDictionarySupport() {
      return false;
    }

    @Override
    public void addBoolean(boolean value) {
      row.values[slot] = value;
    }

    @Override
    Object decode(Dictionary dictionary, int id) {
      return dictionary.decodeToBoolean(id);
    }
  }

  private interface IntToObject {
    Object apply(int value);
  }

  private static final class IntConverter extends SlotConverter {
    private final IntToObject convert;

    IntConverter(RowSlots row, int slot, IntToObject convert) {
      super(row, slot);
      this.convert = convert;
    }

    @Override
    public void addInt(int value) {
      row.values[slot] = convert.apply(value);
    }

    @Override
    Object decode(Dictionary dictionary, int id) {
      return convert.apply(dictionary.decodeToInt(id));
    }
  }

  private static final class LongConverter extends SlotConverter {
    private final LongFunction<Object> convert;

    LongConverter(RowSlots row, int slot, LongFunction<Object> convert) {
      super(row, slot);
      this.convert = convert;
    }

    @Override
    public void addLong(long value) {
      row.values[slot] = convert.apply(value);
    }

    @Override
    Object decode(Dictionary dictionary, int id) {
      return convert.apply(dictionary.decodeToLong(id));
    }
  }

  private static final class FloatConverter extends SlotConverter {
    private final DoubleFunction<Object> convert;

    FloatConverter(RowSlots row, int slot, DoubleFunction<Object> convert) {
      super(row, slot);
      this.convert = convert;
    }

    @Override
    public void addFloat(float value) {
      row.values[slot] = convert.apply(value);
    }

    @Override
    Object decode(Dictionary dictionary, int id) {
      return convert.apply(dictionary.decodeToFloat(id));
    }
  }

  private static final class DoubleConverter extends SlotConverter {
    private final DoubleFunction<Object> convert;

    DoubleConverter(RowSlots row, int slot, DoubleFunction<Object> convert) {
      super(row, slot);
      this.convert = convert;
    }

    @Override
    public void addDouble(double value) {
      row.values[slot] = convert.apply(value);
    }

    @Override
    Object decode(Dictionary dictionary, int id) {
      return convert.apply(dictionary.decodeToDouble(id));
    }
  }

  private static final class BinaryConverter extends SlotConverter {
    private final Function<Binary, Object> convert;

    BinaryConverter(RowSlots row, int slot, Function<Binary, Object> convert) {
      super(row, slot);
      this.convert = convert;
    }

    @Override
    public void addBinary(Binary value) {
      row.values[slot] = convert.apply(value);
    }

    @Override
    Object decode(Dictionary dictionary, int id) {
      return convert.apply(dictionary.decodeToBinary(id));
    }
  }
}
