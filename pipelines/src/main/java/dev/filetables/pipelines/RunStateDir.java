package dev.filetables.pipelines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The directory that holds a streaming run's state between its starts: {@code run.json} ({@link
 * RunRecord}), the embedded cluster's {@code checkpoints/} and {@code savepoints/}, and a {@code
 * lock} that one process at a time holds while it runs the run (the operating system releases it
 * when that process dies, {@code kill -9} included).
 *
 * <p>By default {@code ~/.filetables/runs/<sink table>-<hash>}, the hash of the sink's path and the
 * source (its path, or a Kafka table's topics): the same command finds the same directory from
 * anywhere; {@code --state-dir} chooses another.
 */
final class RunStateDir implements AutoCloseable {
  static final String LOCK = "lock";

  private final Path dir;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private RunStateDir(Path dir, FileChannel lockChannel, FileLock lock) {
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** {@code <home>/.filetables/runs/<sink table>-<12 hex digits>}. */
  static Path defaultDir(Path home, String sinkTable, String sinkPath, String source) {
    String name = sinkTable.replaceAll("[^A-Za-z0-9_.-]", "_");
    if (name.length() > 40) {
      name = name.substring(0, 40);
    }
    return home.resolve(".filetables")
        .resolve("runs")
        .resolve(name + "-" + shortHash(sinkPath + "\n" + source));
  }

  private static String shortHash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  /**
   * Creates the directory if need be and takes its lock; fails with one clear line if another
   * process holds it.
   */
  static RunStateDir lock(Path dir) throws IOException {
    Path absolute = dir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(absolute);
    } catch (IOException e) {
      throw new CliException("cannot create the run's state directory " + absolute + ": " + e);
    }
    Path lockFile = absolute.resolve(LOCK);
    FileChannel channel =
        FileChannel.open(
            lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // this JVM holds it already
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      String holder = new String(Files.readAllBytes(lockFile), StandardCharsets.UTF_8).strip();
      channel.close();
      throw new CliException(
          "another filetables process runs this run"
              + (holder.isEmpty() ? "" : " (pid " + holder + ")")
              + " with its state in "
              + absolute
              + "; stop it first, or give this one its own --state-dir");
    }
    channel.truncate(0);
    channel.write(
        ByteBuffer.wrap(
            String.valueOf(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
    return new RunStateDir(absolute, channel, lock);
  }

  Path dir() {
    return dir;
  }

  Path recordFile() {
    return dir.resolve(RunRecord.FILE);
  }

  /** Where the embedded cluster keeps the run's checkpoints: {@code <job id>/chk-<n>}. */
  Path checkpoints() {
    return dir.resolve("checkpoints");
  }

  Optional<RunRecord> read() throws IOException {
    return RunRecord.read(recordFile());
  }

  void write(RunRecord record) throws IOException {
    record.write(recordFile());
  }

  /** Deletes everything of the previous run here (its record, checkpoints, ...), not the lock. */
  void clear() throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!entry.getFileName().toString().equals(LOCK)) {
          deleteRecursively(entry);
        }
      }
    }
  }

  /** Deletes a file or a local directory tree (what is gone already is fine). */
  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }
}
