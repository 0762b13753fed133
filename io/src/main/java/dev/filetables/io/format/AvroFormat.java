package dev.filetables.io.format;

import dev.filetables.io.format.avro.AvroOptions;
import dev.filetables.io.format.avro.AvroRowReader;
import dev.filetables.io.format.avro.AvroRowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The avro format: Avro object container files, rows encoded and decoded directly (no
 * GenericRecord). A file splits into fixed-size byte ranges read with Avro's sync-marker rule, so
 * each block is read by exactly one range.
 *
 * <p>Options ({@code avro.} prefix): see {@link AvroOptions}; snappy compression by default, as in
 * Flink.
 */
final class AvroFormat extends FixedRangeFormat {
  private static final long serialVersionUID = 1L;

  private final AvroOptions options;

  private AvroFormat(AvroOptions options) {
    super("avro");
    this.options = options;
  }

  /** Creates the format from its options (keys without the "avro." prefix); unknown keys fail. */
  static AvroFormat create(Map<String, String> options) {
    return new AvroFormat(AvroOptions.parse(options));
  }

  AvroOptions options() {
    return options;
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    return new AvroRowWriter(out, fileSchema, options);
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema)
      throws IOException {
    return AvroRowReader.open(file, fileSize, range, fileSchema);
  }
}
