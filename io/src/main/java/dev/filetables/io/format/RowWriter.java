package dev.filetables.io.format;

import java.io.Closeable;
import java.io.IOException;
import org.apache.beam.sdk.values.Row;

/** Writes rows of one file. Not thread-safe. */
public interface RowWriter extends Closeable {

  void write(Row row) throws IOException;

  /**
   * Bytes the file will have if closed now (written plus buffered, an estimate for bulk formats);
   * what size-based rolling compares against {@code sink.rolling-policy.file-size}.
   */
  long estimatedSize();

  /** Flushes, writes any footer and closes the underlying stream. */
  @Override
  void close() throws IOException;
}
