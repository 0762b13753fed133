package dev.filetables.io.format.parquet;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over an open channel (no Hadoop file system). Closing its stream
 * leaves the channel open: the caller owns it.
 */
@Internal
public final class ChannelInputFile implements InputFile {
  private final SeekableByteChannel channel;
  private final long length;

  public ChannelInputFile(SeekableByteChannel channel, long length) {
    this.channel = channel;
    this.length = length;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new ChannelStream(channel);
  }

  private static final class ChannelStream extends SeekableInputStream {
    private final SeekableByteChannel channel;
    private final ByteBuffer single = ByteBuffer.allocate(1);

    ChannelStream(SeekableByteChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      single.clear();
      int n;
      do {
        n = channel.read(single);
      } while (n == 0);
      return n < 0 ? -1 : single.get(0) & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      return channel.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(ByteBuffer.wrap(bytes));
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      readFully(ByteBuffer.wrap(bytes, start, len));
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      return channel.read(buf);
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      while (buf.hasRemaining()) {
        if (channel.read(buf) < 0) {
          throw new EOFException(
              "Reached the end of the Parquet file with "
                  + buf.remaining()
                  + " bytes still to read");
        }
      }
    }

    @Override
    public void close() {
      // the channel belongs to the caller
    }
  }
}
