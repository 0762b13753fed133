package dev.filetables.io.files;

import dev.filetables.io.files.store.SyncOnClose;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Makes files on a local disk survive a crash of the machine, not only of the process: a file's
 * bytes are forced to the disk when it closes, and so is its directory, whose entry for the file
 * (and, after a rename, for its new name) is a separate write. A checkpoint names files, and a
 * publish makes them visible; both happen only after the file was closed or renamed here, so
 * neither can outlive the bytes it refers to. (HDFS: {@code HdfsStore} syncs at close; S3 objects
 * are durable once written.)
 *
 * <p>{@code -Dfiletables.fsync=false} turns it off on local disks, for measuring what it costs (see
 * the benchmarks) or for scratch tables on a disk that does not survive anyway.
 */
@Internal
public final class DurableFiles {
  /** Whether files and directories are forced to the disk ({@code -Dfiletables.fsync}). */
  private static final boolean ENABLED =
      Boolean.parseBoolean(System.getProperty("filetables.fsync", "true"));

  private DurableFiles() {}

  /** Opens {@code file} for writing; its close forces the bytes and the directory entry. */
  static OutputStream create(Path file, Set<? extends OpenOption> options) throws IOException {
    FileChannel channel = FileChannel.open(file, options);
    return new SyncOnClose(
        Channels.newOutputStream(channel),
        () -> {
          if (ENABLED) {
            channel.force(true);
          }
        },
        () -> syncDirectory(file.toAbsolutePath().getParent()));
  }

  /**
   * {@link Files#createDirectories}, forcing each new directory's entry in its parent to the disk
   * (a new partition directory would otherwise vanish with the files in it).
   */
  static void createDirectories(Path dir) throws IOException {
    Path absolute = dir.toAbsolutePath();
    List<Path> missing = new ArrayList<>();
    for (Path p = absolute; p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.add(p);
    }
    Files.createDirectories(absolute);
    for (Path created : missing) {
      syncDirectory(created.getParent());
    }
  }

  /**
   * Forces a directory's entries to the disk: after a file was created in it or renamed into or out
   * of it. Where the platform cannot open a directory (Windows), it does nothing.
   */
  static void syncDirectory(Path dir) throws IOException {
    if (!ENABLED || dir == null) {
      return;
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException e) {
      return; // not on this platform; the rename itself is still atomic
    }
    try (channel) {
      channel.force(true);
    }
  }
}
