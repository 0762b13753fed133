package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import dev.filetables.transforms.sink.segment.SegmentKind;
import dev.filetables.transforms.sink.segment.SegmentWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes a closing part file of {@link RollingWriterFn}: merges its segment files (all complete)
 * into the hidden part file ({@link SegmentFiles#merge}) and describes it as the {@link
 * WrittenFile} the writer emits. Touches no Beam state, so {@code @FinishBundle} can use it too.
 * The segment files stay on disk until the file is published: a restore to a checkpoint taken
 * before the close needs them (the publish step deletes them). The hidden part file has the name of
 * this writer's attempt ({@link PartFileName#withAttempt}, see {@link BundleSegments}): a stale
 * attempt finishing the same file writes a file of its own, which nobody publishes.
 *
 * <h3>Size</h3>
 *
 * A file rolls by size on the real bytes of its segments ({@link SegmentWriter#bytes}); the bytes
 * of {@link SegmentKind#SPILL} segments are scaled by the ratio of part file to spill bytes learnt
 * from this writer's previous rolls (1 until then, so an early file rolls smaller, never larger).
 */
final class PartFileFinisher {
  private static final Logger LOG = LoggerFactory.getLogger(PartFileFinisher.class);

  private final PartFiles files;
  private final SegmentKind kind;

  /** Merges segment files into the part file: the format's merger, or the spill merger. */
  private final FileMerger merger;

  /** Bytes at which a file rolls ({@link RollingPolicy#fileSize}). */
  private final long fileSize;

  private final LeftoverFiles leftovers;
  private final SegmentSizes sizes;

  /**
   * Whether closed files are published without being read first (no auto-compaction, whose merge
   * reads them): then they are created for publishing ({@link SegmentFiles#mergeForPublish}).
   */
  private final boolean publishedUnread;

  /** This writer instance's attempt: in the name of the hidden part files it writes. */
  private final WriterAttempt attempt;

  /** Part file bytes per spill byte, learnt from this writer's rolls of spill segments. */
  private double spillRatio = 1.0;

  PartFileFinisher(
      PartFiles files,
      SegmentKind kind,
      FileMerger merger,
      long fileSize,
      LeftoverFiles leftovers,
      SegmentSizes sizes,
      boolean publishedUnread,
      WriterAttempt attempt) {
    this.files = files;
    this.kind = kind;
    this.merger = merger;
    this.fileSize = fileSize;
    this.leftovers = leftovers;
    this.sizes = sizes;
    this.publishedUnread = publishedUnread;
    this.attempt = attempt;
  }

  /**
   * True when the file reaches {@link RollingPolicy#fileSize} with {@code openBytes} in (or about
   * to go into) its open segment: the bytes it would have if it rolled now.
   */
  boolean full(OpenFile file, long openBytes) {
    long bytes = file.closedBytes + openBytes;
    long estimated = kind == SegmentKind.SPILL ? (long) (bytes * spillRatio) : bytes;
    return estimated >= fileSize;
  }

  /**
   * True when the file is visible under its own name already: only after a restore from a
   * checkpoint older than its publication (e.g. an old savepoint), whose rows are being replayed.
   * Such a file must be finished under another name, never overwrite the published one.
   */
  boolean published(OpenFile file) {
    return Files.exists(
        files.directory(file.partitionPath).resolve(PartFileName.visibleOf(file.name)));
  }

  /**
   * {@link #finish(OpenFile, String)} under the file's own name, unless that was {@link #published}
   * already: then under the name of a new counter of its writer, from {@code newCounter}.
   */
  WrittenFile finishNotOverwriting(OpenFile file, LongSupplier newCounter) throws IOException {
    String writer = PartFileName.parse(file.name).get().writer();
    String target = file.name;
    if (published(file)) {
      target = files.inProgressName(writer, newCounter.getAsLong());
      LOG.warn(
          "{} was already published (restored from an older checkpoint?); writing the replayed rows"
              + " as {} instead",
          PartFileName.visibleOf(file.name),
          target);
    }
    return finish(file, target);
  }

  /** {@link #finish(OpenFile, String)} under the file's own name. */
  WrittenFile finish(OpenFile file) throws IOException {
    return finish(file, file.name);
  }

  /**
   * Merges the file's segments (all complete) into the hidden part file {@code name} (this
   * attempt's file of that name), after deleting the writer's hidden files above this file's
   * counter ({@link LeftoverFiles#deleteAbove}: a failed attempt may have closed this file and
   * opened others).
   */
  WrittenFile finish(OpenFile file, String name) throws IOException {
    attempt.checkCurrent("finishing " + name);
    Path dir = files.directory(file.partitionPath);
    leftovers.deleteAbove(file);
    String target = PartFileName.withAttempt(name, attempt.tag);
    long size =
        publishedUnread
            ? SegmentFiles.mergeForPublish(merger, dir, file.segmentFiles(), target)
            : SegmentFiles.merge(merger, dir, file.segmentFiles(), target);
    if (kind == SegmentKind.SPILL) {
      long spilled = file.closedBytes + sizes.take(dir, file.latestSegmentFile());
      if (spilled > 0) {
        spillRatio = (double) size / spilled;
      }
    } else if (file.segments > 0) {
      sizes.forget(dir, file.latestSegmentFile());
    }
    return WrittenFile.of(
        file.partitionPath,
        dir.resolve(target).toString(),
        file.rows,
        size,
        new Instant(file.minTimestamp),
        new Instant(file.maxTimestamp));
  }
}
