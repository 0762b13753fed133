package dev.filetables.io.format.avro;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import org.apache.avro.file.SeekableInput;

/** Avro's {@link SeekableInput} over an open channel; closing it leaves the channel open. */
final class ChannelSeekableInput implements SeekableInput {
  private final SeekableByteChannel channel;
  private final long length;

  ChannelSeekableInput(SeekableByteChannel channel, long length) {
    this.channel = channel;
    this.length = length;
  }

  @Override
  public void seek(long p) throws IOException {
    channel.position(p);
  }

  @Override
  public long tell() throws IOException {
    return channel.position();
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    return channel.read(ByteBuffer.wrap(b, off, len));
  }

  @Override
  public void close() {
    // the channel belongs to the caller
  }
}
