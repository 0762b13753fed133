package dev.filetables.transforms.sink.segment;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.format.internal.CountingOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * One open segment of a streaming part file: rows of one writer key, appended while a bundle is
 * open and closed at the end of the bundle (or when the segment is full). Holds no more than a
 * stream buffer (plus, for a Parquet {@link SegmentKind#FORMAT} segment, the pages of its row
 * group).
 *
 * <p>Opening replaces a file of the same name ({@link FileOps#replaceHidden}): after a restore the
 * replayed rows rewrite the segment the failed attempt wrote under that name.
 */
@Internal
public abstract class SegmentWriter implements AutoCloseable {
  static final int BUFFER_BYTES = 64 * 1024;

  private final Path file;
  private final CountingOutputStream stored;

  private SegmentWriter(Path file, CountingOutputStream stored) {
    this.file = file;
    this.stored = stored;
  }

  /** Opens segment {@code name} in {@code dir} (replacing one of that name) for {@code kind}. */
  public static SegmentWriter open(
      SegmentKind kind, FileFormat format, Schema schema, Path dir, String name)
      throws IOException {
    // rewritten by a replay after a restore
    CountingOutputStream file = new CountingOutputStream(FileOps.replaceHidden(dir, name));
    OutputStream out =
        kind == SegmentKind.SPILL
            ? new SpillStreams.Output(file, BUFFER_BYTES)
            : new BufferedOutputStream(file, BUFFER_BYTES);
    try {
      return kind == SegmentKind.SPILL
          ? new Spill(dir.resolve(name), file, (SpillStreams.Output) out, FileRowCoder.of(schema))
          : new Formatted(dir.resolve(name), file, format.createWriter(out, schema));
    } catch (IOException | RuntimeException e) {
      out.close();
      FileOps.deleteQuietly(dir.resolve(name));
      throw e;
    }
  }

  public Path file() {
    return file;
  }

  public abstract void write(Row row) throws IOException;

  /**
   * True when {@link #writeEncoded} takes rows in the encoding of the sink's row coder as they are
   * (spill segments, whose layout that is).
   */
  public boolean takesEncoded() {
    return false;
  }

  /** Appends rows encoded with the sink's row coder ({@code RowBatch.encoded}) as they are. */
  public void writeEncoded(byte[] rows) throws IOException {
    throw new UnsupportedOperationException("only spill segments take encoded rows");
  }

  /** Bytes of the segment so far (an estimate for Parquet, whose pages are written at close). */
  public abstract long bytes();

  /**
   * The size of the complete segment file, after {@link #close}: what the writer knows, so that no
   * one asks the store (a HEAD per segment on S3).
   */
  public long storedBytes() {
    return stored.count();
  }

  /** Completes the segment on disk. */
  @Override
  public abstract void close() throws IOException;

  /** Closes after a failure and deletes the partial segment. */
  public void abort() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      // the segment is deleted anyway
    }
    FileOps.deleteQuietly(file);
  }

  /** A segment in the table's own format. */
  private static final class Formatted extends SegmentWriter {
    private final RowWriter writer;

    Formatted(Path file, CountingOutputStream stored, RowWriter writer) {
      super(file, stored);
      this.writer = writer;
    }

    @Override
    public void write(Row row) throws IOException {
      writer.write(row);
    }

    @Override
    public long bytes() {
      return writer.estimatedSize();
    }

    @Override
    public void close() throws IOException {
      writer.close();
    }
  }

  /** A spill segment: rows one after the other in the encoding of {@link FileRowCoder}. */
  private static final class Spill extends SegmentWriter {
    private final SpillStreams.Output out;
    private final Coder<Row> coder;

    Spill(Path file, CountingOutputStream stored, SpillStreams.Output out, Coder<Row> coder) {
      super(file, stored);
      this.out = out;
      this.coder = coder;
    }

    @Override
    public void write(Row row) throws IOException {
      coder.encode(row, out);
    }

    @Override
    public boolean takesEncoded() {
      return true;
    }

    @Override
    public void writeEncoded(byte[] rows) throws IOException {
      out.write(rows, 0, rows.length);
    }

    @Override
    public long bytes() {
      return out.count();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
