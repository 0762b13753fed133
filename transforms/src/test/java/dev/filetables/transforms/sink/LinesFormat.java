package dev.filetables.transforms.sink;

import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.RowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/** A write-only test format: one {@code Row.toString()} line per row, exact byte counting. */
public final class LinesFormat implements FileFormat {
  private static final long serialVersionUID = 1L;

  @Override
  public String name() {
    return "lines";
  }

  @Override
  public String extension() {
    return ".txt";
  }

  @Override
  public RowWriter createWriter(OutputStream out, Schema fileSchema) {
    return new RowWriter() {
      long size;

      @Override
      public void write(Row row) throws IOException {
        byte[] line = (row.getValues() + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(line);
        size += line.length;
      }

      @Override
      public long estimatedSize() {
        return size;
      }

      @Override
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public List<ByteRange> split(SeekableByteChannel file, long fileSize, long targetRangeSize) {
    throw new UnsupportedOperationException();
  }

  @Override
  public RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema) {
    throw new UnsupportedOperationException();
  }
}
