package dev.filetables.io.format.orc;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A Hadoop {@link FileSystem} holding one file, an open channel, for orc-core's reader, which opens
 * its input through a file system: every {@link #open} of that file reads the channel (no Hadoop
 * file system, no second open of the real file, any store FileTables reads). Closing a stream
 * leaves the channel open: the caller owns it. Nothing can be written.
 */
final class ChannelFileSystem extends FileSystem {
  private static final URI URI_ = URI.create("filetables-orc:///");

  /** The path orc-core is given for the channel's file. */
  static final Path FILE = new Path("filetables-orc:///file.orc");

  private final SeekableByteChannel channel;
  private final long length;

  ChannelFileSystem(SeekableByteChannel channel, long length) {
    this.channel = channel;
    this.length = length;
    setConf(OrcOptions.conf());
  }

  @Override
  public URI getUri() {
    return URI_;
  }

  @Override
  public String getScheme() {
    return URI_.getScheme();
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    requireFile(path);
    return new FSDataInputStream(new ChannelStream(channel, length));
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    requireFile(path);
    return new FileStatus(length, false, 1, length, 0, FILE);
  }

  private static void requireFile(Path path) throws FileNotFoundException {
    if (!FILE.equals(path)) {
      throw new FileNotFoundException(path + " (only " + FILE + " is here)");
    }
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress) {
    throw new UnsupportedOperationException("read only");
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) {
    throw new UnsupportedOperationException("read only");
  }

  @Override
  public boolean rename(Path src, Path dst) {
    throw new UnsupportedOperationException("read only");
  }

  @Override
  public boolean delete(Path f, boolean recursive) {
    throw new UnsupportedOperationException("read only");
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    return new FileStatus[] {getFileStatus(f)};
  }

  @Override
  public void setWorkingDirectory(Path newDir) {}

  @Override
  public Path getWorkingDirectory() {
    return new Path(URI_);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    throw new UnsupportedOperationException("read only");
  }

  @Override
  public void close() {
    // the channel belongs to the caller; nothing to release
  }

  /**
   * A seekable stream over the shared channel with a position of its own: orc-core may hold more
   * than one stream of the file (footer, stripes), each positions the channel before it reads.
   */
  private static final class ChannelStream extends FSInputStream {
    private final SeekableByteChannel channel;
    private final long length;
    private long position;

    ChannelStream(SeekableByteChannel channel, long length) {
      this.channel = channel;
      this.length = length;
    }

    @Override
    public void seek(long pos) throws IOException {
      if (pos < 0 || pos > length) {
        throw new EOFException("Cannot seek to " + pos + " in a file of " + length + " bytes");
      }
      position = pos;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (position >= length) {
        return -1;
      }
      channel.position(position);
      int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, length - position)));
      if (n > 0) {
        position += n;
      }
      return n;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, length - position);
    }

    @Override
    public void close() {
      // the channel belongs to the caller
    }
  }
}
