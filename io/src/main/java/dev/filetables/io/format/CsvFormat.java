package dev.filetables.io.format;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/** SKELETON: the csv format. */
public final class CsvFormat implements FileFormat {
  private static final long serialVersionUID = 1L;

  /** Creates the format from its options (keys without the "csv." prefix); unknown keys fail. */
  public static CsvFormat create(Map<String, String> options) {
    return new CsvFormat();
  }

  @Override
  public String name() {
    return "csv";
  }

  @Override
  public String extension() {
    return ".csv";
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    throw new UnsupportedOperationException("TODO csv writer");
  }

  @Override
  public List<ByteRange> split(SeekableByteChannel file, long fileSize, long targetRangeSize) {
    return List.of(ByteRange.of(0, fileSize));
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema) throws IOException {
    throw new UnsupportedOperationException("TODO csv reader");
  }
}
