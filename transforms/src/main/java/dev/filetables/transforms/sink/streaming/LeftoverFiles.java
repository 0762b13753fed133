package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hidden files a failed attempt of a {@link RollingWriterFn} key left behind, told apart by the
 * counters in part file names; and those counters.
 *
 * <p>After a restore, the files a failed attempt opened after the checkpoint are unknown to the
 * restored state; the partition commit would wait for them forever. They are exactly this writer's
 * hidden files with a counter above {@code lastCounter}, the counter of the key's latest file that
 * the writer keeps in state (counters only grow, and every file that may still be published was
 * opened before), so the writer deletes them when it opens its next file ({@link
 * #deleteBeforeOpen}), and those above the closing file's counter when it closes a file ({@link
 * #deleteAbove}: a file open in the restored state may have been closed and followed by others in
 * the failed attempt). Rows are assigned to writers by a function of the row ({@link
 * AssignWritersFn}), so the replayed rows reach the same writer and trigger this. The writer's
 * {@code forget} timer cleans up once more before dropping {@code lastCounter}, which it only does
 * when no hidden file of the key is left ({@link #mayForget}), so a file that still waits for its
 * checkpoint is never mistaken for a leftover; that is also when it aborts the key's uploads that
 * are still open on S3 (a crash between the start of an upload and its marker). Files of other
 * writes (other uuids) are never touched.
 *
 * <p><b>Fencing.</b> A file written by an attempt that started after this one ({@link
 * PartFileName#newerAttempt}) is never deleted: this attempt is then the stale one (a frozen
 * TaskManager woken up after its tasks were restored elsewhere), and those files belong to the
 * attempt that replaced it. The stale attempt's own files are left for the new attempt, whose
 * clean-ups delete them as older. Attempts are ordered by the clocks of their machines, so clocks
 * must agree to better than the time between a task's start and its restore elsewhere (at least the
 * heartbeat timeout).
 */
final class LeftoverFiles {
  private static final Logger LOG = LoggerFactory.getLogger(LeftoverFiles.class);

  private final PartFiles files;

  /** This writer instance's attempt. */
  private final WriterAttempt attempt;

  LeftoverFiles(PartFiles files, WriterAttempt attempt) {
    this.files = files;
    this.attempt = attempt;
  }

  /**
   * Part file counters are wall-clock milliseconds at opening, kept strictly increasing per key by
   * the key's last counter while it is known (many files in one millisecond, clocks of another
   * machine after a failover). Once it is dropped (see {@link #mayForget}), the wall clock has
   * passed it.
   */
  static long nextCounter(@Nullable Long last) {
    long now = System.currentTimeMillis();
    return last == null ? now : Math.max(now, last + 1);
  }

  /**
   * Before the key opens its next file: deletes the writer's hidden files above its last counter,
   * or all of them when the key has no counter (nothing of it is pending).
   */
  void deleteBeforeOpen(WriterKey key, @Nullable Long last) throws IOException {
    int deleted =
        delete(
            files.directory(key.partitionPath()),
            key.writerId(),
            counter -> last == null || counter > last);
    if (deleted > 0) {
      LOG.info(
          "Deleted {} hidden file(s) of writer {} in '{}' left by a failed attempt",
          deleted,
          key.writerId(),
          key.partitionPath());
    }
  }

  /** When {@code file} closes: deletes its writer's hidden files above its counter. */
  void deleteAbove(OpenFile file) throws IOException {
    Path dir = files.directory(file.partitionPath);
    String writer = PartFileName.parse(file.name).get().writer();
    delete(dir, writer, counter -> counter > file.counter);
  }

  /**
   * For the {@code forget} timer of a key without an open file: deletes the writer's hidden files
   * above {@code last}, and those of files already published (a stale attempt may have written a
   * segment of a file after its successor published the file), then says whether the key may drop
   * {@code last}: only when none of its hidden files is left (all published) and the wall clock has
   * passed it ({@link #nextCounter}).
   */
  boolean mayForget(WriterKey key, long last) throws IOException {
    Path dir = files.directory(key.partitionPath());
    String uuid = files.writeUuid();
    delete(dir, key.writerId(), counter -> counter > last);
    deleteOfPublished(dir, key.writerId());
    boolean waiting =
        !SegmentFiles.hiddenFiles(dir, uuid, key.writerId(), counter -> true).isEmpty();
    if (!waiting) {
      // every file of the key is published: an upload of it still open on S3 is one whose
      // marker a failed attempt never wrote
      SegmentFiles.abortOpenUploads(dir, uuid, key.writerId());
    }
    return !(waiting || System.currentTimeMillis() <= last);
  }

  /**
   * Deletes the writer's hidden files whose counter matches, except those of newer attempts (see
   * the class comment); returns how many.
   */
  private int delete(Path dir, String writer, LongPredicate counter) throws IOException {
    int deleted = 0;
    for (Path file : SegmentFiles.hiddenFiles(dir, files.writeUuid(), writer, counter)) {
      if (mayDelete(file) && FileOps.deleteQuietly(file)) {
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * Deletes the writer's hidden files (segments, part files of stale attempts) of part files that
   * are visible already. Only for a key without an open file: an open file restored from an older
   * savepoint may be one that was published since (see {@link PartFileFinisher#published}).
   */
  private void deleteOfPublished(Path dir, String writer) throws IOException {
    List<Path> hidden = SegmentFiles.hiddenFiles(dir, files.writeUuid(), writer, counter -> true);
    for (Path file : hidden) {
      long counter = PartFileName.parse(file.getFileName().toString()).get().counter();
      String visible = PartFileName.visibleOf(files.inProgressName(writer, counter));
      if (mayDelete(file) && Files.exists(dir.resolve(visible))) {
        FileOps.deleteQuietly(file);
      }
    }
  }

  private boolean mayDelete(Path file) {
    attempt.checkCurrent("deleting " + file);
    String other = PartFileName.attemptOf(file.getFileName().toString());
    if (PartFileName.newerAttempt(other, attempt.tag)) {
      if (WARNED_STALE.add(attempt.tag)) {
        LOG.warn(
            "Writer attempt {} found {} of a newer attempt: it is a stale attempt (its task was"
                + " restored elsewhere) and leaves that file alone",
            attempt,
            file);
      }
      return false;
    }
    return true;
  }

  private static final Set<String> WARNED_STALE = ConcurrentHashMap.newKeySet();
}
