package dev.filetables.io.format.internal;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Passes bytes on to another stream and counts them: how writers know the size of what they have
 * written so far (a file's estimated size, a Parquet file's position).
 */
@Internal
public final class CountingOutputStream extends FilterOutputStream {
  private long count;

  public CountingOutputStream(OutputStream out) {
    super(out);
  }

  /** The number of bytes passed on so far. */
  public long count() {
    return count;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len); // FilterOutputStream would write byte by byte
    count += len;
  }
}
