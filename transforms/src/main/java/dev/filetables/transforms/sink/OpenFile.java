package dev.filetables.transforms.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * The state of one writer's open part file in the streaming sink: everything needed to finish the
 * file after a restore, except the buffered rows themselves (a bag next to it). Segments 0..{@link
 * #segments}-1 are complete hidden files on disk; the buffered rows are not written anywhere yet.
 *
 * <p>Mutable; the DoFn reads it, changes it and writes it back within one element or timer.
 */
final class OpenFile {
  /** Relative partition directory. */
  final String partitionPath;
  /** Hidden in-progress name of the part file, {@code .part-<uuid>-<writer>-<counter><ext>.inprogress}. */
  final String name;
  /** The counter in {@link #name}: wall-clock milliseconds when the file was opened. */
  final long counter;
  /** Runner processing time when the file was opened. */
  final long createdAt;

  /** Runner processing time of the last row. */
  long lastWrite;
  /** Rows in the file: in segments plus buffered. */
  long rows;
  long minTimestamp = Long.MAX_VALUE;
  long maxTimestamp = Long.MIN_VALUE;

  long bufferedRows;
  /** Estimated bytes of the buffered rows ({@link RowSizes}). */
  long bufferedEstimate;

  int segments;
  /** Bytes of the segment files on disk. */
  long segmentBytes;
  /** Estimated bytes of the rows in segments, to learn the format's bytes per estimated byte. */
  long segmentEstimate;

  OpenFile(String partitionPath, String name, long counter, long createdAt) {
    this.partitionPath = partitionPath;
    this.name = name;
    this.counter = counter;
    this.createdAt = createdAt;
    this.lastWrite = createdAt;
  }

  void add(long timestamp, long estimate, long now) {
    rows++;
    bufferedRows++;
    bufferedEstimate += estimate;
    minTimestamp = Math.min(minTimestamp, timestamp);
    maxTimestamp = Math.max(maxTimestamp, timestamp);
    lastWrite = Math.max(lastWrite, now);
  }

  void segmentWritten(long bytes) {
    segments++;
    segmentBytes += bytes;
    segmentEstimate += bufferedEstimate;
    bufferedRows = 0;
    bufferedEstimate = 0;
  }

  /** True once a segment told how big the format writes rows compared to their estimate. */
  boolean sizeRatioKnown() {
    return segmentEstimate > 0;
  }

  /** Bytes the file would have if closed now: segments exactly, buffered rows by the learnt ratio. */
  long estimatedSize() {
    double ratio = sizeRatioKnown() ? (double) segmentBytes / segmentEstimate : 1.0;
    return segmentBytes + (long) (bufferedEstimate * ratio);
  }

  /** Coder for the state; a leading version byte leaves room for changes of the layout. */
  static final class Coder extends AtomicCoder<OpenFile> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();
    private static final int VERSION = 1;
    private static final StringUtf8Coder STRING = StringUtf8Coder.of();
    private static final VarLongCoder LONG = VarLongCoder.of();
    private static final VarIntCoder INT = VarIntCoder.of();

    static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(OpenFile f, OutputStream out) throws IOException {
      out.write(VERSION);
      STRING.encode(f.partitionPath, out);
      STRING.encode(f.name, out);
      LONG.encode(f.counter, out);
      LONG.encode(f.createdAt, out);
      LONG.encode(f.lastWrite, out);
      LONG.encode(f.rows, out);
      LONG.encode(f.minTimestamp, out);
      LONG.encode(f.maxTimestamp, out);
      LONG.encode(f.bufferedRows, out);
      LONG.encode(f.bufferedEstimate, out);
      INT.encode(f.segments, out);
      LONG.encode(f.segmentBytes, out);
      LONG.encode(f.segmentEstimate, out);
    }

    @Override
    public OpenFile decode(InputStream in) throws IOException {
      int version = in.read();
      if (version != VERSION) {
        throw new CoderException("Unknown open-file state version " + version);
      }
      OpenFile f = new OpenFile(STRING.decode(in), STRING.decode(in), LONG.decode(in), LONG.decode(in));
      f.lastWrite = LONG.decode(in);
      f.rows = LONG.decode(in);
      f.minTimestamp = LONG.decode(in);
      f.maxTimestamp = LONG.decode(in);
      f.bufferedRows = LONG.decode(in);
      f.bufferedEstimate = LONG.decode(in);
      f.segments = INT.decode(in);
      f.segmentBytes = LONG.decode(in);
      f.segmentEstimate = LONG.decode(in);
      return f;
    }

    @Override
    public void verifyDeterministic() {}
  }
}
