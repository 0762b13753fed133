package dev.filetables.io.format.orc;

import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.InputPlacement;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.StripeStatistics;

/**
 * Merges ORC files by copying their stripes byte for byte (streams stay compressed and encoded)
 * behind one new footer, as orc-core's {@code OrcFile.mergeFiles} does, but from and to any
 * FileTables store and telling where each input landed. Stripes are not combined: a merged file has
 * as many stripes as its inputs together.
 *
 * <p>Stripes can be copied only between files that orc-core would read the same way: same schema,
 * compression, file and writer version, row index stride, no encryption, no user metadata key with
 * two values (the merged file takes the largest compression chunk size of its inputs). When an
 * input differs from the first (files written before the table's {@code orc.*} options changed,
 * files of another writer), every input is read and written again instead ({@code fallback}), with
 * the table's options.
 *
 * <p>Placements: an input's stripes are copied one after the other, so its rows are the bytes
 * between the merged file's position before and after the copy (a ranged reader reads the stripes
 * that start in it). An input whose stripes lie back to back (always, unless HDFS block padding put
 * gaps between them) keeps their layout, moved by one shift; otherwise no placements are told.
 */
@Internal
public final class OrcFileMerger implements FileMerger {
  private static final long serialVersionUID = 1L;

  /** The bytes before the first stripe of every ORC file: the magic "ORC". */
  private static final long HEADER_LENGTH = OrcFile.MAGIC.length();

  private final FileMerger fallback;

  public OrcFileMerger(FileMerger fallback) {
    this.fallback = fallback;
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
    Optional<Layout> layout = commonLayout(inputs);
    if (layout.isEmpty()) {
      return fallback.mergePlaced(inputs, out);
    }
    OrcFiles.Output output = OrcFiles.createWriter(out, new CopyOptions(layout.get()));
    boolean done = false;
    List<InputPlacement> placements = new ArrayList<>(inputs.size());
    boolean placed = true;
    try {
      byte[] buffer = new byte[0];
      for (Path input : inputs) {
        try (SeekableByteChannel channel = Files.newByteChannel(input);
            Reader reader = OrcFiles.openReader(channel, channel.size())) {
          List<StripeInformation> stripes = reader.getStripes();
          List<StripeStatistics> statistics = reader.getStripeStatistics();
          long start = output.position();
          for (int s = 0; s < stripes.size(); s++) {
            StripeInformation stripe = stripes.get(s);
            int length = Math.toIntExact(stripe.getLength());
            if (buffer.length < length) {
              buffer = new byte[length];
            }
            readFully(channel, stripe.getOffset(), buffer, length, input);
            output.writer.appendStripe(
                buffer, 0, length, stripe, new StripeStatistics[] {statistics.get(s)});
          }
          for (String key : reader.getMetadataKeys()) {
            output.writer.addUserMetadata(key, reader.getMetadataValue(key));
          }
          long firstStripe = stripes.isEmpty() ? HEADER_LENGTH : stripes.get(0).getOffset();
          placed &= backToBack(stripes);
          placements.add(
              new InputPlacement(ByteRange.of(start, output.position()), start - firstStripe));
        }
      }
      output.writer.close();
      done = true;
    } finally {
      if (!done) {
        out.close(); // a failed merge: the caller discards the output
      }
    }
    return placed ? Optional.of(placements) : Optional.empty();
  }

  /**
   * What the inputs' stripes need from the merged file: the footer (a reader whose channel is
   * closed: only what it read stays usable) of the first input with stripes, and the largest
   * compression chunk of all (a reader decompresses smaller chunks with a larger buffer).
   */
  private record Layout(Reader first, int compressionSize) {}

  /**
   * The layout the inputs share when the stripes of every input can be copied behind those of the
   * first; else empty (also when no input has a stripe: nothing to copy).
   */
  private static Optional<Layout> commonLayout(List<Path> inputs) throws IOException {
    Reader first = null;
    int compressionSize = 0;
    Map<String, ByteBuffer> metadata = new HashMap<>();
    for (Path input : inputs) {
      try (SeekableByteChannel channel = Files.newByteChannel(input);
          Reader reader = OrcFiles.openReader(channel, channel.size())) {
        if (reader.getStripes().isEmpty()) {
          continue; // adds no stripe, whatever its layout
        }
        if (first == null) {
          first = reader;
        } else if (!sameLayout(first, reader)) {
          return Optional.empty();
        }
        for (String key : reader.getMetadataKeys()) {
          ByteBuffer value = reader.getMetadataValue(key);
          if (!value.equals(metadata.getOrDefault(key, value))) {
            return Optional.empty(); // the merged file could keep only one of the values
          }
          metadata.put(key, value);
        }
        compressionSize = Math.max(compressionSize, reader.getCompressionSize());
      }
    }
    return first == null ? Optional.empty() : Optional.of(new Layout(first, compressionSize));
  }

  /** What orc-core's {@code OrcFile.mergeFiles} requires of two files to copy their stripes. */
  private static boolean sameLayout(Reader a, Reader b) {
    return a.getSchema().equals(b.getSchema())
        && a.getCompressionKind() == b.getCompressionKind()
        && a.getFileVersion() == b.getFileVersion()
        && a.getWriterVersion() == b.getWriterVersion()
        && a.getRowIndexStride() == b.getRowIndexStride()
        && a.getColumnEncryptionKeys().length == 0
        && b.getColumnEncryptionKeys().length == 0;
  }

  /**
   * Writer options that give the merged file the layout of the files it copies stripes from, as
   * {@code OrcFile.mergeFiles} sets them (the writer version among them, which readers use to
   * decide how to decode some streams).
   */
  private static final class CopyOptions extends OrcFile.WriterOptions {
    CopyOptions(Layout layout) {
      super(null, OrcOptions.conf());
      Reader first = layout.first();
      setSchema(first.getSchema())
          .compress(first.getCompressionKind())
          .bufferSize(layout.compressionSize())
          .enforceBufferSize()
          .version(first.getFileVersion())
          .rowIndexStride(first.getRowIndexStride())
          .blockPadding(false);
      writerVersion(first.getWriterVersion());
    }
  }

  private static boolean backToBack(List<StripeInformation> stripes) {
    for (int s = 1; s < stripes.size(); s++) {
      StripeInformation before = stripes.get(s - 1);
      if (before.getOffset() + before.getLength() != stripes.get(s).getOffset()) {
        return false;
      }
    }
    return true;
  }

  private static void readFully(
      SeekableByteChannel channel, long position, byte[] buffer, int length, Path input)
      throws IOException {
    channel.position(position);
    ByteBuffer target = ByteBuffer.wrap(buffer, 0, length);
    while (target.hasRemaining()) {
      if (channel.read(target) < 0) {
        throw new EOFException(
            input + " ends inside the stripe at byte " + position + " (" + length + " bytes)");
      }
    }
  }
}
