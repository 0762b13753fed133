package dev.filetables.io.format.parquet;

import dev.filetables.io.format.RowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;

/** Writes one Parquet file of Beam rows to a stream. */
public final class ParquetRowWriter implements RowWriter {
  private final RowWriteSupport writeSupport;
  private final ParquetWriter<Row> writer;
  private long rows;
  private boolean closed;

  public ParquetRowWriter(OutputStream out, Schema schema, ParquetOptions options) throws IOException {
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

  @Override
  public long estimatedSize() {
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
