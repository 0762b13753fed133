package dev.filetables.io.format;

import dev.filetables.io.format.orc.OrcOptions;
import dev.filetables.io.format.orc.OrcRowReader;
import dev.filetables.io.format.orc.OrcRowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The orc format: Beam rows written through orc-core's column batches and read back from them, the
 * types of Flink's flink-orc. A file splits into fixed-size byte ranges; a range reads the stripes
 * that start in it (orc-core's split rule), so every stripe is read by exactly one range.
 *
 * <p>Options ({@code orc.} prefix): see {@link OrcOptions}; orc-core's defaults (ZLIB compression),
 * as in Flink.
 */
final class OrcFormat extends FixedRangeFormat {
  private static final long serialVersionUID = 1L;

  private final OrcOptions options;

  private OrcFormat(OrcOptions options) {
    super("orc");
    this.options = options;
  }

  /** Creates the format from its options (keys without the "orc." prefix); unknown keys fail. */
  static OrcFormat create(Map<String, String> options) {
    return new OrcFormat(OrcOptions.parse(options));
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    return new OrcRowWriter(out, fileSchema, options);
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema)
      throws IOException {
    return OrcRowReader.open(file, fileSize, range, fileSchema);
  }
}
