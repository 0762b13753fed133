package dev.filetables.io.format;

import dev.filetables.io.format.parquet.ParquetOptions;
import dev.filetables.io.format.parquet.ParquetRowReader;
import dev.filetables.io.format.parquet.ParquetRowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The parquet format: Beam rows written straight to Parquet column writers and read straight from
 * column readers (no Avro records in between). A file splits into fixed-size byte ranges; a range
 * reads the row groups whose midpoint it holds, so every row group is read by exactly one range.
 *
 * <p>Options ({@code parquet.} prefix): see {@link ParquetOptions}; SNAPPY compression by default.
 */
final class ParquetFormat extends FixedRangeFormat {
  private static final long serialVersionUID = 1L;

  private final ParquetOptions options;

  private ParquetFormat(ParquetOptions options) {
    super("parquet");
    this.options = options;
  }

  /**
   * Creates the format from its options (keys without the "parquet." prefix); unknown keys fail.
   */
  static ParquetFormat create(Map<String, String> options) {
    return new ParquetFormat(ParquetOptions.parse(options));
  }

  ParquetOptions options() {
    return options;
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    return new ParquetRowWriter(out, fileSchema, options);
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema)
      throws IOException {
    return ParquetRowReader.open(file, fileSize, range, fileSchema, options);
  }
}
