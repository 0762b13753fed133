package dev.filetables.io.format.parquet;

import dev.filetables.io.format.RowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;

/** Writes one Parquet file of Beam rows to a stream. */
@Internal
public final class ParquetRowWriter implements RowWriter {
  /**
   * Most rows between two measurements of the buffered size. Measuring walks every column's
   * buffers, which costs about 4% of the write when done for every row (rolling asks after every
   * row).
   */
  static final long MAX_ROWS_BETWEEN_SIZE_CHECKS = 128;

  private final RowWriteSupport writeSupport;
  private final ParquetWriter<Row> writer;
  private long rows;
  private boolean closed;
  private long measuredSize;
  private long rowsAtMeasurement;
  private long nextMeasurementRow;

  public ParquetRowWriter(OutputStream out, Schema schema, ParquetOptions options)
      throws IOException {
    // No "parquet.avro.schema" in the footer: parquet-avro would then read DECIMAL(p<=18) columns
    // as Avro bytes while they are stored as INT32/INT64; without it, it derives a matching schema.
    this.writeSupport = new RowWriteSupport(schema, Map.of());
    try {
      this.writer =
          new Builder(new StreamOutputFile(out), writeSupport)
              .withConf(options.hadoopConf())
              .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
              .withCompressionCodec(options.codec())
              .withRowGroupSize(options.rowGroupSize())
              .withPageSize(options.pageSize())
              .withDictionaryPageSize(options.dictionaryPageSize())
              .withDictionaryEncoding(options.dictionaryEnabled())
              .withWriterVersion(options.writerVersion())
              .withPageRowCountLimit(options.pageRowCountLimit())
              .build();
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  public void write(Row row) throws IOException {
    writeSupport.check(row, rows);
    writer.write(row);
    rows++;
  }

  /**
   * Parquet's size (flushed row groups plus buffered, encoded pages), measured for each of the
   * first rows and then every 1% of the rows written (at most every {@value
   * #MAX_ROWS_BETWEEN_SIZE_CHECKS} rows), extrapolated by the average row size in between; so
   * size-based rolling overshoots by at most about 1% of a file.
   */
  @Override
  public long estimatedSize() {
    if (rows >= nextMeasurementRow) {
      measuredSize = writer.getDataSize();
      rowsAtMeasurement = rows;
      nextMeasurementRow = rows + Math.max(1, Math.min(MAX_ROWS_BETWEEN_SIZE_CHECKS, rows / 100));
      return measuredSize;
    }
    if (rowsAtMeasurement == 0) {
      return measuredSize;
    }
    return measuredSize + (rows - rowsAtMeasurement) * measuredSize / rowsAtMeasurement;
  }

  /**
   * Parquet's size now, measured (what {@link #estimatedSize} extrapolates between measurements).
   */
  long measuredSize() {
    return writer.getDataSize();
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      writer.close();
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
    private final WriteSupport<Row> writeSupport;

    Builder(OutputFile file, WriteSupport<Row> writeSupport) {
      super(file);
      this.writeSupport = writeSupport;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Row> getWriteSupport(Configuration conf) {
      return writeSupport;
    }
  }
}
