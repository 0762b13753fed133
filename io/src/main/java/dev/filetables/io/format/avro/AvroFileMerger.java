package dev.filetables.io.format.avro;

import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.InputPlacement;
import dev.filetables.io.format.internal.CountingInputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Merges Avro object container files by copying their data blocks unchanged (no decompression, no
 * decoding): the merged file takes the schema, codec and user metadata of the first input. Every
 * input must have that schema and codec (true for the segments of one part file); anything else is
 * an error rather than a silent re-encode, because it means files of different writes got mixed.
 *
 * <p>Placements: an input's blocks keep their bytes and only get the merged file's sync marker (of
 * the same length), so they keep their layout. A ranged reader reads the blocks whose preceding
 * sync marker starts in its range, so an input's rows are the range from the marker before its
 * first block to the marker after its last one.
 */
@Internal
public final class AvroFileMerger implements FileMerger {
  private static final long serialVersionUID = 1L;
  private static final int BUFFER_SIZE = 64 * 1024;
  private static final int SYNC_SIZE = DataFileConstants.SYNC_SIZE;

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
    DataFileWriter<Object> writer = null;
    String codec = null;
    Schema schema = null;
    List<InputPlacement> placements = new ArrayList<>(inputs.size());
    try {
      for (Path input : inputs) {
        CountingInputStream counted = new CountingInputStream(Files.newInputStream(input));
        try (InputStream in = new BufferedInputStream(counted, BUFFER_SIZE);
            DataFileStream<Object> blocks = new DataFileStream<>(in, new GenericDatumReader<>())) {
          String inputCodec = codecOf(blocks);
          if (writer == null) {
            codec = inputCodec;
            schema = blocks.getSchema();
            writer = create(blocks, codec, out);
          } else if (!codec.equals(inputCodec) || !schema.equals(blocks.getSchema())) {
            throw new IOException(
                "Cannot merge "
                    + input
                    + " into a file started from "
                    + inputs.get(0)
                    + ": all inputs must share one schema and codec (first: codec "
                    + codec
                    + ", this one: codec "
                    + inputCodec
                    + ")");
          }
          long first = writer.sync(); // where the input's first block goes
          writer.appendAllFrom(blocks, false);
          long end = writer.sync();
          // the input ends with its last block: it was read to its end, its header before the
          // blocks is the rest
          long shift = end - counted.count();
          placements.add(
              new InputPlacement(ByteRange.of(first - SYNC_SIZE, end - SYNC_SIZE), shift));
        }
      }
    } catch (IOException | RuntimeException e) {
      if (writer == null) {
        out.close();
      }
      throw e;
    } finally {
      if (writer != null) {
        writer.close();
      }
    }
    return Optional.of(placements);
  }

  private static String codecOf(DataFileStream<Object> blocks) {
    String codec = blocks.getMetaString(DataFileConstants.CODEC);
    return codec == null ? DataFileConstants.NULL_CODEC : codec;
  }

  private static DataFileWriter<Object> create(
      DataFileStream<Object> first, String codec, OutputStream out) throws IOException {
    Schema schema = first.getSchema();
    DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema));
    // the same codec makes appendAllFrom copy compressed blocks as they are
    writer.setCodec(CodecFactory.fromString(codec));
    for (String key : first.getMetaKeys()) {
      if (!key.startsWith("avro.")) { // reserved keys are written by the writer itself
        writer.setMeta(key, first.getMeta(key));
      }
    }
    return writer.create(schema, new BufferedOutputStream(out, BUFFER_SIZE));
  }
}
