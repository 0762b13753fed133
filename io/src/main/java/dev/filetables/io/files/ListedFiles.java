package dev.filetables.io.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the data files a listing returned, for every FileTables reader: a file that an offline
 * compaction replaced after the listing is read under its grace name ({@link
 * ReplacedFiles#graceNameOf}), also when it is moved while open (on S3 every ranged read is a
 * request of its own, and a move is a copy and a delete). So a reader keeps the view its listing
 * gave until the grace period has passed; after it, a whole listed file can still be read from the
 * merged file that holds its rows ({@link #holderOf}).
 */
@Internal
public final class ListedFiles {
  private ListedFiles() {}

  /**
   * Where a replaced file's rows are: a visible merged file of its directory and the range of it
   * that reads exactly those rows (the origin its sidecar records).
   */
  public record Holder(Path merged, long size, long modificationTimeMillis, long start, long end) {}

  /**
   * The visible merged file of {@code listed}'s directory that holds the rows of {@code listed} (an
   * origin its sidecar records), for a listed file that is gone under both its name and its grace
   * name; empty if no merged file there records it. Lists the directory and reads the sidecars of
   * its merged files: for the rare file whose grace period ended before it was read.
   */
  public static Optional<Holder> holderOf(Path listed) throws IOException {
    Path dir = listed.toAbsolutePath().getParent();
    String name = listed.getFileName().toString();
    Map<String, BasicFileAttributes> visible = DirectoryEntries.visible(dir);
    List<String> names = new ArrayList<>(visible.keySet());
    for (Map.Entry<String, ReplacedFiles.Sidecar> merged :
        ReplacedFiles.sidecars(dir, names).entrySet()) {
      for (ReplacedFiles.Origin origin : merged.getValue().origins()) {
        if (origin.name().equals(name)) {
          BasicFileAttributes attrs = visible.get(merged.getKey());
          return Optional.of(
              new Holder(
                  dir.resolve(merged.getKey()),
                  attrs.size(),
                  attrs.lastModifiedTime().toMillis(),
                  origin.start(),
                  origin.end()));
        }
      }
    }
    return Optional.empty();
  }

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
