package dev.filetables.io.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.beam.sdk.annotations.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the data files a listing returned, for every FileTables reader: a file that an offline
 * compaction replaced after the listing is read under its grace name ({@link
 * ReplacedFiles#graceNameOf}), also when it is moved while open (on S3 every ranged read is a
 * request of its own, and a move is a copy and a delete). So a reader keeps the view its listing
 * gave until the grace period has passed.
 */
@Internal
public final class ListedFiles {
  private ListedFiles() {}

  /**
   * Opens {@code listed} for reading, or its grace name if it is gone; {@link NoSuchFileException}
   * for {@code listed} if neither exists.
   */
  public static SeekableByteChannel open(Path listed) throws IOException {
    return new FollowingChannel(listed);
  }

  /** A read-only channel that moves to the grace name when the listed name disappears. */
  private static final class FollowingChannel implements SeekableByteChannel {
    private static final Logger LOG = LoggerFactory.getLogger(ListedFiles.class);

    private final Path listed;
    private SeekableByteChannel delegate;
    private boolean atGraceName;

    FollowingChannel(Path listed) throws IOException {
      this.listed = listed;
      SeekableByteChannel opened;
      try {
        opened = Files.newByteChannel(listed);
      } catch (NoSuchFileException e) {
        opened = openGraceName(e);
      }
      this.delegate = opened;
    }

    private SeekableByteChannel openGraceName(NoSuchFileException gone) throws IOException {
      if (atGraceName) {
        throw gone;
      }
      Path grace = ReplacedFiles.graceNameOf(listed);
      try {
        SeekableByteChannel channel = Files.newByteChannel(grace);
        atGraceName = true;
        LOG.debug("{} was replaced by an offline compaction; reading it as {}", listed, grace);
        return channel;
      } catch (NoSuchFileException e) {
        throw gone;
      }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      long position = delegate.position();
      try {
        return delegate.read(dst);
      } catch (NoSuchFileException e) {
        SeekableByteChannel moved = openGraceName(e);
        try {
          delegate.close();
        } catch (IOException closing) {
          LOG.debug("Closing {} after it was moved: {}", listed, closing.toString());
        }
        delegate = moved;
        delegate.position(position);
        return delegate.read(dst);
      }
    }

    @Override
    public long position() throws IOException {
      return delegate.position();
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
      delegate.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return delegate.size();
    }

    @Override
    public int write(ByteBuffer src) {
      throw new NonWritableChannelException();
    }

    @Override
    public SeekableByteChannel truncate(long size) {
      throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
      return delegate.isOpen();
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }
}
