package dev.filetables.io.format;

import java.io.Closeable;
import java.io.IOException;
import org.apache.beam.sdk.values.Row;

/** Reads the rows of one byte range of a file. Not thread-safe. */
public interface RowReader extends Closeable {

  /**
   * The next row, or {@code null} at the end of the range. A bad record throws {@link
   * BadRecordException}; when {@link BadRecordException#readerCanContinue()} the reader has moved
   * past it and {@code next()} may be called again.
   */
  Row next() throws IOException;

  /**
   * Where the last row came from, for error messages: e.g. {@code line 17} or {@code row group 2,
   * row 5}.
   */
  String position();

  /**
   * File offset of the last record read, or of the unit holding it (Parquet row group, Avro block);
   * -1 before the first or when unknown. Says where a failure happened.
   */
  default long byteOffset() {
    return -1;
  }
}
