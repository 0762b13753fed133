package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import dev.filetables.transforms.sink.segment.SegmentKind;
import dev.filetables.transforms.sink.segment.SegmentWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The segments {@link RollingWriterFn} writes in the current bundle, one per writer key that got
 * rows in it: begins the next segment of the key's open file, combining the file's complete segment
 * files first when they are too many, and closes segments when they are full, when their file
 * closes and at the end of the bundle.
 *
 * <h3>Rows go to disk, state only names files</h3>
 *
 * The rows of an open file are written to hidden <em>segment</em> files, one per bundle in which
 * the key got rows: at the key's first row of a bundle, the writer begins segment {@code n =
 * file.segments} under its name derived from the file ({@link SegmentFiles#segmentName}), records
 * {@code segments = n + 1} in state right away, and appends the bundle's rows of the key to it.
 * {@code @FinishBundle} closes every open segment (a segment also closes early once it reaches the
 * segment size, see {@link RollingPolicy#segmentSize}, and the next row begins the next one). A
 * roll first closes the key's open segment, then merges the file's segment files (segments 0..n-1,
 * some combined, see below) into the hidden part file ({@link PartFileFinisher}). Memory per open
 * key is a stream buffer, or for Parquet segments of {@link SegmentKind#FORMAT} the pages of one
 * row group; Beam state holds a few numbers per key.
 *
 * <p>Why a segment counted in state is always complete on disk when that state is committed: the
 * Flink runner finishes the open bundle inside {@code snapshotState}, before the keyed state is
 * snapshotted ({@code DoFnOperator.snapshotState} calls {@code invokeFinishBundle} and then the
 * operator's state snapshot), so the segments of the bundle are closed before any checkpoint can
 * record their count. A segment begun after the checkpoint is never named by restored state: the
 * replay after a restore writes the segment the restored count says comes next under a name of its
 * own attempt, and the failed attempt's file is deleted with the file's other segments when the
 * file is published. On the Direct runner the state changes and the output of a bundle are
 * committed together after {@code @FinishBundle}.
 *
 * <h3>Attempts: a stale writer cannot touch the files of its successor</h3>
 *
 * Every file this class writes carries the writer instance's attempt tag ({@link
 * PartFileName#withAttempt}), and state records it ({@link OpenFile#attempts}). A TaskManager
 * frozen past the heartbeat timeout (a long GC pause, {@code SIGSTOP}) has its tasks restored
 * elsewhere; when it wakes up, its tasks run on for a moment before they learn they were cancelled.
 * Had a replay reused names, such a stale attempt could replace a segment the new attempt's state
 * names (on S3 the last PUT wins) with rows of its own bundle. With tags it writes only files no
 * state names; it cannot publish (only a completed checkpoint does, which a stale attempt never
 * sees) and it deletes no file of a newer attempt ({@link LeftoverFiles}). Before it writes or
 * deletes a file the writer also checks that its process was not frozen, since it began, for longer
 * than a TaskManager may miss heartbeats ({@link WriterAttempt#checkCurrent}): a stale attempt then
 * fails at once, and its partial segments are deleted, instead of leaving files no state names.
 *
 * <h3>Combining segment files while the file is open</h3>
 *
 * A file open for long would otherwise have one hidden segment file per bundle (6,400 files after
 * 30 s with 200 open partitions). Before a segment begins, {@link SegmentCombiner} may say that the
 * last complete segment files are to become one ({@code
 * .seg-<first>-<last>.attempt-<tag>.inprogress}, joined without re-encoding: byte concatenation for
 * csv/json and spill segments, block copy for Avro, row-group copy for Parquet segments), which
 * keeps at most 16 per open file. Exactly-once:
 *
 * <ul>
 *   <li>The plan follows from the state ({@link OpenFile#starts}), so a replay after a restore
 *       combines the same segments; the combined file has the name of the replaying attempt, never
 *       the name of a file the restored state still needs (nor of one the failed attempt wrote).
 *   <li>The combined file is written completely in {@code @ProcessElement}, before the state names
 *       it (written back at the end of the element): a checkpoint whose state names it has it.
 *   <li>The replaced files stay until a completed checkpoint holds the state without them: the
 *       bundle finalizer of the bundle deletes them (Flink runs it when the checkpoint taken after
 *       the bundle completes; a bundle ends before any snapshot of its state). A restore to an
 *       earlier checkpoint finds them intact; one to a later checkpoint finds the combined file. A
 *       finalizer lost in a failure leaves them to the publish step, which deletes every {@code
 *       .part-…<ext>.*.inprogress} of the part file ({@code PartitionCompactor.deleteDerived}). On
 *       the Direct runner (never restores) they are deleted at once.
 *   <li>Combines happen only where a segment begins ({@code @ProcessElement}: the only method that
 *       gets a {@link BundleFinalizer} on Beam 2.62's non-portable runners), never in a timer or in
 *       {@code @FinishBundle}; a file that closes at the bundle end merges the state's segment
 *       files as they are at that point, which that bundle's state holds too.
 * </ul>
 *
 * A restore from a savepoint older than the last completed checkpoint may miss replaced files, as
 * it already missed the segments of files published since.
 */
final class BundleSegments {
  private final SegmentKind kind;
  private final FileFormat format;
  private final Schema fileSchema;
  private final PartFiles files;
  private final SegmentCombiner combiner;

  /** Combines segment files of an open file into one segment file of the same kind. */
  private final FileMerger combining;

  /** The sizes of the segments completed here, for the next segment's begin and the roll. */
  private final SegmentSizes sizes;

  /**
   * The runner restores state (Flink): segment files replaced by a combined one are deleted only
   * once a completed checkpoint holds the state without them (a bundle finalizer), not at once.
   */
  private final boolean restoresState;

  /** This writer instance's attempt: in the name of every file it writes. */
  private final WriterAttempt attempt;

  /** The segments open in the current bundle, by key; all closed at the end of the bundle. */
  private final Map<WriterKey, OpenSegment> open = new HashMap<>();

  /**
   * Segment files replaced by combined ones in the current bundle: deleted by the bundle's
   * finalizer once the checkpoint after the bundle completed (a new list per bundle).
   */
  private @Nullable List<Path> replacedInBundle;

  /** The combined file written in the current element (for the failpoint after its state write). */
  private @Nullable String combinedInElement;

  BundleSegments(
      SegmentKind kind,
      FileFormat format,
      Schema fileSchema,
      PartFiles files,
      SegmentCombiner combiner,
      FileMerger combining,
      SegmentSizes sizes,
      boolean restoresState,
      WriterAttempt attempt) {
    this.kind = kind;
    this.format = format;
    this.fileSchema = fileSchema;
    this.files = files;
    this.combiner = combiner;
    this.combining = combining;
    this.sizes = sizes;
    this.restoresState = restoresState;
    this.attempt = attempt;
  }

  /** A new bundle: its combines get a finalizer of their own. */
  void startBundle() {
    replacedInBundle = null;
  }

  /** A new element: {@link #combinedInElement} starts empty. */
  void startElement() {
    combinedInElement = null;
  }

  /** The file combined in the current element, or null when none was. */
  @Nullable String combinedInElement() {
    return combinedInElement;
  }

  /**
   * The open file whose segment the key has open in this bundle, or null: the instance the key's
   * previous element changed and wrote to state.
   */
  @Nullable OpenFile fileOf(WriterKey key) {
    OpenSegment segment = open.get(key);
    return segment != null ? segment.file : null;
  }

  /**
   * The open segment of the key's file in this bundle; begins the file's next segment (recorded in
   * {@code file}, which the caller writes to state) when there is none, after combining the file's
   * complete segment files when it has too many ({@link #combineSegments}).
   */
  SegmentWriter segmentOf(WriterKey key, OpenFile file, BundleFinalizer finalizer)
      throws IOException {
    OpenSegment segment = open.get(key);
    if (segment != null && segment.file.name.equals(file.name)) {
      return segment.writer;
    }
    if (segment != null) {
      close(key); // cannot happen: a file's close closes its segment first
    }
    attempt.checkCurrent("writing a segment of " + file.name);
    Path dir = files.directory(file.partitionPath);
    // the latest segment is a file of its own until the next one begins: combines come after this
    long previousBytes = file.segments == 0 ? 0 : sizes.take(dir, file.latestSegmentFile());
    combineSegments(dir, file, finalizer);
    file.beginSegment(previousBytes, attempt.tag);
    SegmentWriter writer =
        SegmentWriter.open(kind, format, fileSchema, dir, file.latestSegmentFile());
    open.put(key, new OpenSegment(file, writer));
    return writer;
  }

  /**
   * Combines the tail of the file's complete segment files into one when {@link SegmentCombiner}
   * says so: writes the combined file completely, then records it in {@code file} (the caller
   * writes it to state). The replaced files are deleted at once where the runner never restores
   * state, else by this bundle's finalizer, once the checkpoint taken after the bundle (holding the
   * state without them) has completed; see the class comment.
   */
  private void combineSegments(Path dir, OpenFile file, BundleFinalizer finalizer)
      throws IOException {
    int from = combiner.combineFrom(file.starts, file.segments);
    if (from < 0) {
      return;
    }
    List<String> names = file.segmentFiles();
    List<String> inputs = new ArrayList<>(names.subList(from, names.size()));
    String combined =
        SegmentFiles.segmentName(file.name, file.firstOf(from), file.segments - 1, attempt.tag);
    SegmentFiles.merge(combining, dir, inputs, combined);
    combinedInElement = dir.resolve(combined).toString();
    SinkFailpoints.reached(SinkFailpoints.Point.COMBINE_WRITTEN, combinedInElement);
    file.combinedFrom(from, attempt.tag);
    if (!restoresState) {
      List<Path> replaced = new ArrayList<>();
      inputs.forEach(name -> replaced.add(dir.resolve(name)));
      FileOps.deleteHiddenQuietly(replaced);
      return;
    }
    if (replacedInBundle == null) {
      List<Path> replaced = new ArrayList<>();
      replacedInBundle = replaced;
      finalizer.afterBundleCommit(
          Instant.now().plus(Duration.standardDays(1)),
          () -> {
            if (!replaced.isEmpty()) {
              SinkFailpoints.reached(
                  SinkFailpoints.Point.COMBINE_DELETING, replaced.get(0).toString());
            }
            FileOps.deleteHiddenQuietly(replaced);
          });
    }
    List<Path> replaced = replacedInBundle;
    inputs.forEach(name -> replaced.add(dir.resolve(name)));
  }

  /** Closes (uploads, syncs) of segment files at bundle ends, shared by the writers of this JVM. */
  private static final ExecutorService CLOSES =
      Executors.newFixedThreadPool(
          16,
          runnable -> {
            Thread thread = new Thread(runnable, "filetables-segment-close");
            thread.setDaemon(true);
            return thread;
          });

  private static IOException addFailure(
      @Nullable IOException failure, OpenSegment segment, IOException e) {
    if (failure == null) {
      return new IOException("Cannot complete segment " + segment.writer.file(), e);
    }
    failure.addSuppressed(e);
    return failure;
  }

  /** Completes the key's open segment, if any: it is full, or its file closes. */
  void close(WriterKey key) throws IOException {
    OpenSegment segment = open.remove(key);
    if (segment != null) {
      segment.writer.close();
      completed(segment);
    }
  }

  private void completed(OpenSegment segment) {
    sizes.completed(segment.writer.file(), segment.writer.storedBytes());
  }

  /**
   * Completes every segment of the bundle (at its end); reports the first failure. The segments
   * close together: each close waits for the store (an upload on S3, an fsync of the file and its
   * directory on a local disk, an hsync on HDFS), and one after the other 200 open partitions would
   * cost 200 such waits per bundle.
   */
  void completeAll() throws IOException {
    if (!open.isEmpty()) {
      attempt.checkCurrent("completing the bundle's segments"); // a failure deletes them
    }
    IOException failure = null;
    List<OpenSegment> segments = new ArrayList<>(open.values());
    boolean together = segments.size() > 1;
    List<Future<?>> closing = new ArrayList<>();
    for (OpenSegment segment : segments) {
      if (together) {
        closing.add(
            CLOSES.submit(
                () -> {
                  segment.writer.close();
                  return null;
                }));
        continue;
      }
      try {
        segment.writer.close();
        completed(segment);
      } catch (IOException e) {
        failure = addFailure(failure, segment, e);
      }
    }
    for (int i = 0; i < closing.size(); i++) {
      try {
        closing.get(i).get();
        completed(segments.get(i));
      } catch (ExecutionException e) {
        IOException cause =
            e.getCause() instanceof IOException
                ? (IOException) e.getCause()
                : new IOException(e.getCause());
        failure = addFailure(failure, segments.get(i), cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while completing the bundle's segments");
      }
    }
    open.clear();
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Deletes the partial segments of the bundle, only after a failure: the bundle will be retried or
   * the state restored.
   */
  void abortAll() {
    open.values().forEach(segment -> segment.writer.abort());
    open.clear();
    sizes.forgetAll();
  }

  /** A segment open in the current bundle and the open file (as in state) it belongs to. */
  private static final class OpenSegment {
    final OpenFile file;
    final SegmentWriter writer;

    OpenSegment(OpenFile file, SegmentWriter writer) {
      this.file = file;
      this.writer = writer;
    }
  }
}
