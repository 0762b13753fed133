package dev.filetables.io.format.parquet;

import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.InputPlacement;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * Merges Parquet files by copying their row groups byte for byte (column chunks stay compressed and
 * encoded) behind one new footer. The merged file has the schema and key-value metadata of the
 * first input; every input must have that schema (true for the segments of one part file). Row
 * groups are not combined: a merged file has as many row groups as its inputs together.
 *
 * <p>Placements: an input's row groups are copied one after the other, so its rows are the bytes
 * between the merged file's position before and after the copy (a ranged reader reads the row
 * groups whose midpoint it holds). A row group keeps its layout; an input whose row groups lie back
 * to back (as in a file merged here) keeps the layout of all of them.
 */
@Internal
public final class ParquetFileMerger implements FileMerger {
  private static final long serialVersionUID = 1L;

  private static final int MAGIC_LENGTH = 4;

  private final ParquetOptions options;

  public ParquetFileMerger(ParquetOptions options) {
    this.options = options;
  }

  @Override
  public void merge(List<Path> inputs, OutputStream out) throws IOException {
    mergePlaced(inputs, out);
  }

  @Override
  public Optional<List<InputPlacement>> mergePlaced(List<Path> inputs, OutputStream out)
      throws IOException {
    if (inputs.isEmpty()) {
      out.close();
      throw new IllegalArgumentException("Nothing to merge: no input files");
    }
    ParquetFileWriter writer = null;
    MessageType schema = null;
    Map<String, String> metadata = null;
    boolean ended = false;
    List<InputPlacement> placements = new ArrayList<>(inputs.size());
    try {
      for (Path input : inputs) {
        try (SeekableByteChannel channel = Files.newByteChannel(input);
            ParquetFileReader reader =
                new ParquetFileReader(
                    new ChannelInputFile(channel, channel.size()), readOptions())) {
          FileMetaData meta = reader.getFooter().getFileMetaData();
          if (writer == null) {
            schema = meta.getSchema();
            metadata = meta.getKeyValueMetaData();
            writer =
                new ParquetFileWriter(
                    new StreamOutputFile(out),
                    schema,
                    ParquetFileWriter.Mode.OVERWRITE,
                    options.rowGroupSize(),
                    0);
            writer.start();
          } else if (!schema.equals(meta.getSchema())) {
            throw new IOException(
                "Cannot merge "
                    + input
                    + " into a file started from "
                    + inputs.get(0)
                    + ": its schema "
                    + meta.getSchema()
                    + " differs from "
                    + schema);
          }
          long start = writer.getPos();
          reader.appendTo(writer);
          // the magic number is all that comes before the row groups of a file without any
          long firstRowGroup =
              reader.getRowGroups().isEmpty()
                  ? MAGIC_LENGTH
                  : reader.getRowGroups().get(0).getStartingPos();
          placements.add(
              new InputPlacement(ByteRange.of(start, writer.getPos()), start - firstRowGroup));
        }
      }
      writer.end(metadata);
      ended = true;
    } finally {
      if (!ended) {
        out.close(); // a failed merge: the caller discards the output
      }
    }
    return Optional.of(placements);
  }

  private ParquetReadOptions readOptions() {
    return ParquetReadOptions.builder()
        .withCodecFactory(new CodecFactory(options.hadoopConf(), 0))
        .build();
  }
}
