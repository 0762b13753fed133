package dev.filetables.io.format;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * The fallback merger: reads every row of the inputs with the format and writes them into one new
 * file. Correct for any format that can read what it writes; slower than copying encoded units.
 */
final class RewritingMerger implements FileMerger {
  private static final long serialVersionUID = 1L;

  private final FileFormat format;
  private final Schema fileSchema;

  RewritingMerger(FileFormat format, Schema fileSchema) {
    this.format = format;
    this.fileSchema = fileSchema;
  }

  @Override
  public void merge(List<Path> inputs, OutputStream out) throws IOException {
    try (RowWriter writer = format.createWriter(out, fileSchema)) {
      for (Path input : inputs) {
        try (SeekableByteChannel channel = Files.newByteChannel(input)) {
          long size = channel.size();
          try (RowReader reader =
              format.createReader(channel, size, ByteRange.of(0, size), fileSchema)) {
            for (Row row = reader.next(); row != null; row = reader.next()) {
              writer.write(row);
            }
          }
        }
      }
    }
  }
}
