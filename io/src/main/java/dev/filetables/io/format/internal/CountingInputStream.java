package dev.filetables.io.format.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.beam.sdk.annotations.Internal;

/** Passes bytes on from another stream and counts them: how a merge learns an input's size. */
@Internal
public final class CountingInputStream extends FilterInputStream {
  private long count;

  public CountingInputStream(InputStream in) {
    super(in);
  }

  /** The number of bytes read (or skipped) so far. */
  public long count() {
    return count;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(n);
    count += skipped;
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false; // a reset would make the count wrong
  }
}
