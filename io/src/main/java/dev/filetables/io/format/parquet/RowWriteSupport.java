package dev.filetables.io.format.parquet;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.internal.Decimals;
import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.format.internal.WriteChecks;
import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Beam rows straight to Parquet's record consumer: no Avro record in between, and every
 * per-column decision (type, nullability, decimal layout) taken once per file.
 *
 * <p>{@link #check} must accept a row before it is handed to the Parquet writer: it rejects rows
 * that cannot be written (a null in a NOT NULL column, a decimal that does not fit) before any of
 * their values reach the column writers, so a bad row never leaves a half-written record behind.
 */
final class RowWriteSupport extends WriteSupport<Row> {
  private final MessageType messageType;
  private final Map<String, String> extraMetadata;
  private final String[] names;
  private final ValueWriter[] writers;
  private final boolean[] nullable;
  private final int[] decimalPrecision;
  private final int[] decimalScale;
  private final Object[] values;
  private Row checkedRow;
  private RecordConsumer consumer;

  RowWriteSupport(Schema schema, Map<String, String> extraMetadata) {
    this.messageType = ParquetSchemas.toParquet(schema);
    this.extraMetadata = extraMetadata;
    int n = schema.getFieldCount();
    this.names = new String[n];
    this.writers = new ValueWriter[n];
    this.nullable = new boolean[n];
    this.decimalPrecision = new int[n];
    this.decimalScale = new int[n];
    this.values = new Object[n];
    for (int i = 0; i < n; i++) {
      Schema.Field field = schema.getField(i);
      ColumnType type = ColumnType.of(field.getType());
      names[i] = field.getName();
      nullable[i] = field.getType().getNullable();
      if (type == ColumnType.DECIMAL) {
        decimalPrecision[i] = ColumnType.decimalPrecision(field.getType());
        decimalScale[i] = ColumnType.decimalScale(field.getType());
      }
      writers[i] = writerFor(type, decimalPrecision[i]);
    }
  }

  MessageType messageType() {
    return messageType;
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(messageType, extraMetadata);
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public String getName() {
    return "filetables";
  }

  /** Reads and validates the values of the next row to write; {@code rowNumber} is for messages. */
  void check(Row row, long rowNumber) throws BadRecordException {
    checkedRow = null;
    for (int i = 0; i < values.length; i++) {
      Object value = row.getValue(i);
      if (value == null) {
        if (!nullable[i]) {
          throw WriteChecks.nullInNotNull(rowNumber, names[i]);
        }
      } else if (decimalPrecision[i] > 0) {
        value =
            WriteChecks.fitDecimal(
                rowNumber, names[i], (BigDecimal) value, decimalPrecision[i], decimalScale[i]);
      }
      values[i] = value;
    }
    checkedRow = row;
  }

  @Override
  public void write(Row row) {
    if (row != checkedRow) {
      throw new IllegalStateException("Row was not checked before writing");
    }
    RecordConsumer c = consumer;
    c.startMessage();
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      if (value != null) {
        c.startField(names[i], i);
        writers[i].write(c, value);
        c.endField(names[i], i);
      }
    }
    c.endMessage();
    checkedRow = null;
  }

  /** Writes one non-null value of a column. */
  private interface ValueWriter {
    void write(RecordConsumer c, Object value);
  }

  private static ValueWriter writerFor(ColumnType type, int decimalPrecision) {
    switch (type) {
      case STRING:
        StringBinaries binaries =
            new StringBinaries(); // one per column: values repeat within a column
        return (c, v) -> c.addBinary(binaries.of((String) v));
      case BOOLEAN:
        return (c, v) -> c.addBoolean((Boolean) v);
      case INT:
        return (c, v) -> c.addInteger(((Number) v).intValue());
      case BIGINT:
        return (c, v) -> c.addLong(((Number) v).longValue());
      case FLOAT:
        return (c, v) -> c.addFloat(((Number) v).floatValue());
      case DOUBLE:
        return (c, v) -> c.addDouble(((Number) v).doubleValue());
      case DECIMAL:
        if (decimalPrecision <= 9) {
          return (c, v) -> c.addInteger(((BigDecimal) v).unscaledValue().intValue());
        }
        if (decimalPrecision <= 18) {
          return (c, v) -> c.addLong(((BigDecimal) v).unscaledValue().longValue());
        }
        int length = Decimals.fixedLength(decimalPrecision);
        return (c, v) ->
            c.addBinary(
                Binary.fromConstantByteArray(
                    Decimals.toFixed(((BigDecimal) v).unscaledValue(), length)));
      case DATE:
        return (c, v) -> c.addInteger(TimeValues.epochDay((LocalDate) v));
      case TIMESTAMP:
        return (c, v) -> c.addLong(TimeValues.epochMillis((LocalDateTime) v));
      case TIMESTAMP_LTZ:
        return (c, v) -> c.addLong(TimeValues.epochMillis(v));
      default:
        throw new AssertionError(type);
    }
  }
}
