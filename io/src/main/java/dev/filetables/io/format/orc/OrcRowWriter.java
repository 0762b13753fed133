package dev.filetables.io.format.orc;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.format.internal.WriteChecks;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;

/**
 * Writes one ORC file of Beam rows to a stream: rows collect in a column batch of {@value
 * #BATCH_ROWS} rows (fewer with a small {@code orc.rows.between.memory.checks}: a stripe ends only
 * between batches) that orc-core's writer takes whole. A row is checked before any of its values
 * reach the batch (a null in a NOT NULL column, a decimal that does not fit, a timestamp ORC cannot
 * store), so a bad row leaves nothing behind and the file stays valid.
 */
@Internal
public final class OrcRowWriter implements RowWriter {
  /** Rows per batch handed to orc-core (its default batch size). */
  static final int BATCH_ROWS = VectorizedRowBatch.DEFAULT_SIZE;

  /**
   * Bytes on disk per raw byte assumed until the first stripe is written and tells the real ratio
   * (raw: the values' plain sizes, see {@link VectorWriters}).
   */
  private static final double FIRST_RATIO = 0.7;

  private final OrcFiles.Output output;
  private final VectorizedRowBatch batch;
  private final VectorWriters.VectorWriter[] writers;
  private final String[] names;
  private final boolean[] nullable;
  private final int[] decimalPrecision;
  private final int[] decimalScale;
  private final ColumnType[] types;
  private final Object[] values;
  private long rows;
  private boolean closed;

  /** Raw bytes of the rows written so far (what {@link VectorWriters} count). */
  private long raw;

  private long rawInStripes;
  private long written;
  private double ratio = FIRST_RATIO;

  public OrcRowWriter(OutputStream out, Schema schema, OrcOptions options) throws IOException {
    TypeDescription type = OrcSchemas.toOrc(schema);
    this.output = OrcFiles.createWriter(out, options.writerOptions().setSchema(type));
    this.batch = type.createRowBatch(Math.min(BATCH_ROWS, options.rowsBetweenMemoryChecks()));
    int n = schema.getFieldCount();
    this.writers = new VectorWriters.VectorWriter[n];
    this.names = new String[n];
    this.nullable = new boolean[n];
    this.decimalPrecision = new int[n];
    this.decimalScale = new int[n];
    this.types = new ColumnType[n];
    this.values = new Object[n];
    for (int i = 0; i < n; i++) {
      Schema.Field field = schema.getField(i);
      ColumnType column = ColumnType.of(field.getType());
      names[i] = field.getName();
      types[i] = column;
      nullable[i] = field.getType().getNullable();
      writers[i] = VectorWriters.of(column);
      if (column == ColumnType.DECIMAL) {
        decimalPrecision[i] = ColumnType.decimalPrecision(field.getType());
        decimalScale[i] = ColumnType.decimalScale(field.getType());
      }
    }
  }

  @Override
  public void write(Row row) throws IOException {
    check(row);
    int r = batch.size++;
    for (int i = 0; i < values.length; i++) {
      ColumnVector vector = batch.cols[i];
      if (values[i] == null) {
        vector.noNulls = false;
        vector.isNull[r] = true;
      } else {
        raw += writers[i].set(vector, r, values[i]);
      }
    }
    rows++;
    if (batch.size == batch.getMaxSize()) {
      flushBatch();
    }
  }

  /** Reads and validates the values of {@code row} into {@link #values}. */
  private void check(Row row) throws BadRecordException {
    for (int i = 0; i < values.length; i++) {
      Object value = row.getValue(i);
      if (value == null) {
        if (!nullable[i]) {
          throw WriteChecks.nullInNotNull(rows, names[i]);
        }
      } else if (decimalPrecision[i] > 0) {
        value =
            WriteChecks.fitDecimal(
                rows, names[i], (BigDecimal) value, decimalPrecision[i], decimalScale[i]);
      } else if (types[i] == ColumnType.TIMESTAMP || types[i] == ColumnType.TIMESTAMP_LTZ) {
        checkStorable(i, value);
      }
      values[i] = value;
    }
  }

  /**
   * ORC cannot store a time in the second before 1970-01-01T00:00:00 (of the writer's zone, UTC
   * here) with a fraction of a second: orc-core writes the seconds rounded towards zero and its
   * readers take them back one second late (ORC-645). Such a value is a bad record rather than a
   * timestamp silently moved by a second.
   */
  private void checkStorable(int column, Object value) throws BadRecordException {
    long millis =
        types[column] == ColumnType.TIMESTAMP
            ? TimeValues.epochMillis((LocalDateTime) value)
            : TimeValues.epochMillis(value);
    if (millis > -1000 && millis < 0) {
      throw new BadRecordException(
          "Row "
              + rows
              + ": column '"
              + names[column]
              + "': "
              + value
              + " lies in the second before 1970-01-01T00:00:00"
              + (types[column] == ColumnType.TIMESTAMP ? "" : "Z")
              + ", which ORC cannot store with a fraction of a second (orc-core would read it back"
              + " one second later, ORC-645)");
    }
  }

  private void flushBatch() throws IOException {
    if (batch.size == 0) {
      return;
    }
    long before = output.position();
    output.writer.addRowBatch(batch);
    batch.reset();
    long after = output.position();
    if (after != before) {
      // a stripe was written, holding every row handed over: its bytes per raw byte
      written = after;
      rawInStripes = raw;
      ratio = raw > 0 ? (double) after / raw : ratio;
    }
  }

  /**
   * Bytes written (header and complete stripes) plus the raw bytes of the rows not yet in a stripe
   * at the ratio of the stripes written so far: orc-core knows the compressed size of a stripe only
   * once it writes it. About right once a stripe was written, a guess before.
   */
  @Override
  public long estimatedSize() {
    return written + (long) ((raw - rawInStripes) * ratio);
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      flushBatch();
      output.writer.close();
    }
  }
}
