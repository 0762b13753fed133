package dev.filetables.io.format.avro;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.internal.Decimals;
import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.format.internal.WriteChecks;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.avro.io.Encoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Encodes Beam rows in the Avro binary encoding of {@link AvroSchemas#toAvro}'s schema, directly
 * (no GenericRecord); the encoding of every column is chosen once.
 */
final class RowEncoder {
  private final String[] names;
  private final boolean[] nullable;
  private final ValueEncoder[] encoders;

  RowEncoder(Schema schema) {
    int n = schema.getFieldCount();
    this.names = new String[n];
    this.nullable = new boolean[n];
    this.encoders = new ValueEncoder[n];
    for (int i = 0; i < n; i++) {
      Schema.Field field = schema.getField(i);
      names[i] = field.getName();
      nullable[i] = field.getType().getNullable();
      encoders[i] = encoderFor(field.getType());
    }
  }

  /**
   * Encodes one row; on a bad value nothing useful is left in {@code out} (the caller discards it).
   */
  void encode(Row row, Encoder out, long rowNumber) throws IOException {
    for (int i = 0; i < encoders.length; i++) {
      Object value = row.getValue(i);
      if (value == null) {
        if (!nullable[i]) {
          throw WriteChecks.nullInNotNull(rowNumber, names[i]);
        }
        out.writeIndex(0);
        continue;
      }
      if (nullable[i]) {
        out.writeIndex(1);
      }
      try {
        encoders[i].encode(value, out);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new BadRecordException(
            "Row " + rowNumber + ": column '" + names[i] + "': " + e.getMessage(), e);
      }
    }
  }

  private interface ValueEncoder {
    void encode(Object value, Encoder out) throws IOException;
  }

  private static ValueEncoder encoderFor(Schema.FieldType type) {
    ColumnType columnType = ColumnType.of(type);
    switch (columnType) {
      case STRING:
        return (v, out) -> out.writeString((String) v);
      case BOOLEAN:
        return (v, out) -> out.writeBoolean((Boolean) v);
      case INT:
        return (v, out) -> out.writeInt(((Number) v).intValue());
      case BIGINT:
        return (v, out) -> out.writeLong(((Number) v).longValue());
      case FLOAT:
        return (v, out) -> out.writeFloat(((Number) v).floatValue());
      case DOUBLE:
        return (v, out) -> out.writeDouble(((Number) v).doubleValue());
      case DECIMAL:
        int precision = ColumnType.decimalPrecision(type);
        int scale = ColumnType.decimalScale(type);
        return (v, out) ->
            out.writeBytes(
                Decimals.fit((BigDecimal) v, precision, scale).unscaledValue().toByteArray());
      case DATE:
        return (v, out) -> out.writeInt(TimeValues.epochDay((LocalDate) v));
      case TIMESTAMP:
        return (v, out) -> out.writeLong(TimeValues.epochMillis((LocalDateTime) v));
      case TIMESTAMP_LTZ:
        return (v, out) -> out.writeLong(TimeValues.epochMillis(v));
      default:
        throw new AssertionError(columnType);
    }
  }
}
