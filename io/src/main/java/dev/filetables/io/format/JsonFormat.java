package dev.filetables.io.format;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/** SKELETON: the json format. */
public final class JsonFormat implements FileFormat {
  private static final long serialVersionUID = 1L;

  /** Creates the format from its options (keys without the "json." prefix); unknown keys fail. */
  public static JsonFormat create(Map<String, String> options) {
    return new JsonFormat();
  }

  @Override
  public String name() {
    return "json";
  }

  @Override
  public String extension() {
    return ".json";
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
    throw new UnsupportedOperationException("TODO json writer");
  }

  @Override
  public List<ByteRange> split(SeekableByteChannel file, long fileSize, long targetRangeSize) {
    return List.of(ByteRange.of(0, fileSize));
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema) throws IOException {
    throw new UnsupportedOperationException("TODO json reader");
  }
}
