package dev.filetables.io.format.parquet;

import dev.filetables.io.format.internal.CountingOutputStream;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over an already open stream, so a writer needs no Hadoop file system
 * and no temporary file. It can be created once; the position is the number of bytes written.
 */
@Internal
public final class StreamOutputFile implements OutputFile {
  private static final int BUFFER_SIZE = 64 * 1024;

  private final OutputStream out;
  private boolean created;

  public StreamOutputFile(OutputStream out) {
    this.out = out;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    if (created) {
      throw new IllegalStateException("The stream of this Parquet file is already in use");
    }
    created = true;
    CountingOutputStream counted =
        new CountingOutputStream(new BufferedOutputStream(out, BUFFER_SIZE));
    return new DelegatingPositionOutputStream(counted) {
      @Override
      public long getPos() {
        return counted.count();
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }
}
