package dev.filetables.transforms.sink.streaming;

import dev.filetables.transforms.sink.segment.FileRowCoder;
import dev.filetables.transforms.sink.segment.SegmentKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.Row;

/**
 * Rows of one writer key on their way from {@link AssignWritersFn} to {@link RollingWriterFn}:
 * encoded one after the other with the sink's row coder ({@link FileRowCoder#of}), which is also
 * the layout of a {@link SegmentKind#SPILL} segment, so the writer appends a batch to a segment
 * without decoding it; plus each row's event timestamp.
 *
 * <p>Why batches: on Flink every element crossing the writer's keyed shuffle costs a key
 * serialization, a network record, a key-context switch and a binding of the writer's state and
 * timers; measured on the throughput benchmark these per-row costs were larger than writing the
 * rows. A batch pays them once for a few hundred rows.
 */
final class RowBatch {
  private final int size;
  private final long[] timestamps;
  private final byte[] encoded;
  private final long minTimestamp;
  private final long maxTimestamp;

  private RowBatch(int size, long[] timestamps, byte[] encoded) {
    if (size <= 0 || timestamps.length != size) {
      throw new IllegalArgumentException("a batch has 1 or more rows and one timestamp per row");
    }
    this.size = size;
    this.timestamps = timestamps;
    this.encoded = encoded;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long t : timestamps) {
      min = Math.min(min, t);
      max = Math.max(max, t);
    }
    this.minTimestamp = min;
    this.maxTimestamp = max;
  }

  int size() {
    return size;
  }

  /** Event timestamp (ms) of row {@code i}. */
  long timestamp(int i) {
    return timestamps[i];
  }

  long minTimestamp() {
    return minTimestamp;
  }

  long maxTimestamp() {
    return maxTimestamp;
  }

  /** The rows, encoded one after the other with the sink's row coder. */
  byte[] encoded() {
    return encoded;
  }

  /** Reads the rows back one by one with the coder they were encoded with. */
  Rows rows(Coder<Row> coder) {
    return new Rows(coder, new ByteArrayInputStream(encoded));
  }

  /** A reader over a batch's rows. */
  static final class Rows {
    private final Coder<Row> coder;
    private final InputStream in;

    private Rows(Coder<Row> coder, InputStream in) {
      this.coder = coder;
      this.in = in;
    }

    Row next() throws IOException {
      return coder.decode(in);
    }
  }

  /**
   * A growable byte buffer without {@code java.io.ByteArrayOutputStream}'s locking: coders write
   * many single bytes (var-ints), and each locked call costs.
   */
  static final class Bytes extends OutputStream {
    private byte[] buffer = new byte[256];
    private int count;

    @Override
    public void write(int b) {
      if (count == buffer.length) {
        buffer = Arrays.copyOf(buffer, count * 2);
      }
      buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len > buffer.length - count) {
        buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, count + len));
      }
      System.arraycopy(b, off, buffer, count, len);
      count += len;
    }

    int size() {
      return count;
    }

    void reset() {
      count = 0;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buffer, count);
    }

    /** A hash of the bytes (31-polynomial, like {@link Arrays#hashCode(byte[])}). */
    int hash() {
      int h = 1;
      for (int i = 0; i < count; i++) {
        h = 31 * h + buffer[i];
      }
      return h;
    }

    void writeTo(Bytes other) {
      other.write(buffer, 0, count);
    }
  }

  /** Collects the rows of one key; reusable after {@link #build}. */
  static final class Builder {
    private final Bytes bytes = new Bytes();
    private long[] timestamps = new long[16];
    private int size;

    /** Adds a row already encoded with the sink's row coder. */
    void add(Bytes encodedRow, long timestamp) {
      encodedRow.writeTo(bytes);
      if (size == timestamps.length) {
        timestamps = Arrays.copyOf(timestamps, size * 2);
      }
      timestamps[size++] = timestamp;
    }

    int size() {
      return size;
    }

    /** Encoded bytes of the rows so far. */
    int bytes() {
      return bytes.size();
    }

    /** The batch of the rows added since the last build; the builder is empty after. */
    RowBatch build() {
      RowBatch batch = new RowBatch(size, Arrays.copyOf(timestamps, size), bytes.toByteArray());
      bytes.reset();
      size = 0;
      return batch;
    }
  }

  /**
   * Deterministic coder: row count, the smallest timestamp, each row's distance to it, then the
   * encoded rows length-prefixed.
   */
  static final class BatchCoder extends AtomicCoder<RowBatch> {
    private static final long serialVersionUID = 1L;
    private static final BatchCoder INSTANCE = new BatchCoder();

    static BatchCoder of() {
      return INSTANCE;
    }

    @Override
    public void encode(RowBatch batch, OutputStream out) throws IOException {
      VarInt.encode(batch.size, out);
      VarInt.encode(zigZag(batch.minTimestamp), out);
      for (long t : batch.timestamps) {
        VarInt.encode(
            t - batch.minTimestamp, out); // >= 0 (may wrap for extreme spans: then 10 bytes)
      }
      VarInt.encode(batch.encoded.length, out);
      out.write(batch.encoded);
    }

    @Override
    public RowBatch decode(InputStream in) throws IOException {
      int size = VarInt.decodeInt(in);
      if (size <= 0) {
        throw new CoderException("row batch with " + size + " rows");
      }
      long min = unZigZag(VarInt.decodeLong(in));
      long[] timestamps = new long[size];
      for (int i = 0; i < size; i++) {
        timestamps[i] = min + VarInt.decodeLong(in);
      }
      int length = VarInt.decodeInt(in);
      if (length < 0) {
        throw new CoderException("row batch with " + length + " bytes");
      }
      byte[] encoded = new byte[length];
      int done = 0;
      while (done < length) {
        int n = in.read(encoded, done, length - done);
        if (n < 0) {
          throw new CoderException("row batch ends early");
        }
        done += n;
      }
      return new RowBatch(size, timestamps, encoded);
    }

    @Override
    public void verifyDeterministic() {}

    private static long zigZag(long v) {
      return (v << 1) ^ (v >> 63);
    }

    private static long unZigZag(long v) {
      return (v >>> 1) ^ -(v & 1);
    }
  }
}
