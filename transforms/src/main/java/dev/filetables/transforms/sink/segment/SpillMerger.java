package dev.filetables.transforms.sink.segment;

import dev.filetables.io.files.FilesInOrder;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.RowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Turns {@link SegmentKind#SPILL} segments (rows in {@link FileRowCoder}'s encoding, one after the
 * other) into one file of the table's format: each row is decoded once and written once, so the
 * format lays out the file as if it had been written in one go (Parquet: full row groups).
 */
@Internal
public final class SpillMerger implements FileMerger {
  private static final long serialVersionUID = 1L;

  private final FileFormat format;
  private final Schema fileSchema;

  public SpillMerger(FileFormat format, Schema fileSchema) {
    this.format = format;
    this.fileSchema = fileSchema;
  }

  @Override
  public void merge(List<Path> inputs, OutputStream out) throws IOException {
    Coder<Row> coder = FileRowCoder.of(fileSchema);
    try (RowWriter writer = format.createWriter(out, fileSchema);
        FilesInOrder files = new FilesInOrder(inputs)) {
      while (files.hasNext()) {
        try (SpillStreams.Input in =
            new SpillStreams.Input(files.next(), SegmentWriter.BUFFER_BYTES)) {
          while (in.hasMore()) {
            Row row = coder.decode(in);
            writer.write(row);
          }
        }
      }
    }
  }
}
