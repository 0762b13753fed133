package dev.filetables.io.files.store;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.beam.sdk.annotations.Internal;

/**
 * A stream whose close first makes what was written durable (an fsync, an HDFS {@code hsync}), then
 * closes the stream, then runs what must follow the close (a directory's fsync). Closing twice does
 * it once.
 */
@Internal
public final class SyncOnClose extends FilterOutputStream {
  /** A step of the close. */
  @FunctionalInterface
  public interface Step {
    void run() throws IOException;
  }

  private final Step sync;
  private final Step afterClose;
  private boolean closed;

  public SyncOnClose(OutputStream out, Step sync, Step afterClose) {
    super(out);
    this.sync = sync;
    this.afterClose = afterClose;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len); // FilterOutputStream would write byte by byte
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (OutputStream stream = out) {
      stream.flush();
      sync.run();
    }
    afterClose.run();
  }
}
