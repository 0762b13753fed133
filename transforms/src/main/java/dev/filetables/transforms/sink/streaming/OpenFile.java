package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.files.PartFileName;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * The state of one writer's open part file in the streaming sink: everything needed to finish the
 * file after a restore. It names files, it holds no rows: the rows are in the segments 0..{@link
 * #segments}-1 on disk, each complete whenever this state is committed (see {@link
 * BundleSegments}). Consecutive segments may have been combined into one file while the file was
 * open ({@link SegmentCombiner}): {@link #segmentFiles} says which files hold them now.
 *
 * <p>Mutable; the DoFn reads it, changes it and writes it back within one element or timer. Never
 * change the instance that state returned ({@link #copyOf}): with {@code --fasterCopy} (the shipped
 * presets) Beam's state serializer does not copy, so the heap state backend hands out the very
 * object an asynchronous snapshot may still be writing, and a change made after the checkpoint
 * barrier ends up in that checkpoint (a restore then named segment files the writer had already
 * combined and deleted).
 */
final class OpenFile {
  /** Relative partition directory. */
  final String partitionPath;

  /**
   * Hidden in-progress name of the part file, {@code
   * .part-<uuid>-<writer>-<counter><ext>.inprogress}.
   */
  final String name;

  /** The counter in {@link #name}: wall-clock milliseconds when the file was opened. */
  final long counter;

  /** Runner processing time when the file was opened. */
  final long createdAt;

  /** Runner processing time of the last row. */
  long lastWrite;

  /** Rows in the file's segments. */
  long rows;

  long minTimestamp = Long.MAX_VALUE;
  long maxTimestamp = Long.MIN_VALUE;

  /** Segments begun: 0..segments-1 are (or, while the bundle is open, will be) complete on disk. */
  int segments;

  /** Bytes of segments 0..segments-2, the ones before the latest (known once that one is begun). */
  long closedBytes;

  /**
   * The first segment of each segment file, in order: file {@code i} holds segments {@code
   * starts[i]} to {@code starts[i+1]-1} (the last one up to {@code segments-1}), named by {@link
   * SegmentFiles#segmentName(String, int, int, String)}. Without combining every segment is its own
   * file.
   */
  final List<Integer> starts = new ArrayList<>();

  /**
   * The attempt that wrote each segment file ({@link PartFileName#withAttempt}), parallel to {@link
   * #starts}; "" for files of state written before attempts were named.
   */
  final List<String> attempts = new ArrayList<>();

  /**
   * The file is closed at the end of the bundle that set this (at the commit point that ends it,
   * see {@link ClosesAtBundleEnd}). Committed state with this set means that bundle has ended and
   * the file was emitted before the state was snapshotted: the file is closed, only its state is
   * left.
   */
  boolean closesAtBundleEnd;

  OpenFile(String partitionPath, String name, long counter, long createdAt) {
    this.partitionPath = partitionPath;
    this.name = name;
    this.counter = counter;
    this.createdAt = createdAt;
    this.lastWrite = createdAt;
  }

  void add(long timestamp, long now) {
    rows++;
    minTimestamp = Math.min(minTimestamp, timestamp);
    maxTimestamp = Math.max(maxTimestamp, timestamp);
    lastWrite = Math.max(lastWrite, now);
  }

  /** Records {@code count} rows with timestamps between {@code min} and {@code max}. */
  void add(int count, long min, long max, long now) {
    rows += count;
    minTimestamp = Math.min(minTimestamp, min);
    maxTimestamp = Math.max(maxTimestamp, max);
    lastWrite = Math.max(lastWrite, now);
  }

  /**
   * Records that the next segment begins, written by {@code attempt}; {@code previousBytes} is the
   * size of the segment before it (ignored for the first). Returns the new segment's number.
   */
  int beginSegment(long previousBytes, String attempt) {
    if (segments > 0) {
      closedBytes += previousBytes;
    }
    starts.add(segments);
    attempts.add(attempt);
    return segments++;
  }

  /** The first segment of segment file {@code i}. */
  int firstOf(int i) {
    return starts.get(i);
  }

  /** The last segment of segment file {@code i}. */
  int lastOf(int i) {
    return i + 1 < starts.size() ? starts.get(i + 1) - 1 : segments - 1;
  }

  /** The hidden names of the file's segment files, in order. */
  List<String> segmentFiles() {
    List<String> names = new ArrayList<>(starts.size());
    for (int i = 0; i < starts.size(); i++) {
      names.add(segmentFile(i));
    }
    return names;
  }

  /** The hidden name of segment file {@code i}. */
  String segmentFile(int i) {
    return SegmentFiles.segmentName(name, firstOf(i), lastOf(i), attempts.get(i));
  }

  /**
   * The hidden name of the latest segment (begun last): always a file of its own, since combines
   * happen before a segment begins.
   */
  String latestSegmentFile() {
    return segmentFile(starts.size() - 1);
  }

  /** Records that segment files {@code from}..last were combined into one, by {@code attempt}. */
  void combinedFrom(int from, String attempt) {
    starts.subList(from + 1, starts.size()).clear();
    attempts.subList(from + 1, attempts.size()).clear();
    attempts.set(from, attempt);
  }

  /** A copy to change, of a value read from state (see the class comment). */
  static OpenFile copyOf(OpenFile file) {
    try {
      return org.apache.beam.sdk.util.CoderUtils.clone(Coder.of(), file);
    } catch (CoderException e) {
      throw new IllegalStateException("cannot copy the open file state " + file.name, e);
    }
  }

  /** Coder for the state; a leading version byte leaves room for changes of the layout. */
  static final class Coder extends AtomicCoder<OpenFile> {
    private static final long serialVersionUID = 1L;
    private static final Coder INSTANCE = new Coder();

    /**
     * 2: rows no longer buffered in state (version 1 counted buffered rows and estimates); 3: adds
     * {@link OpenFile#closesAtBundleEnd} (version 2 is still read: the flag was false then); 4:
     * adds {@link OpenFile#starts}, the combined segment files (versions 2 and 3 are still read:
     * every segment was its own file then); 5: adds {@link OpenFile#attempts} (older versions are
     * still read: their files have no attempt in their names).
     */
    private static final int VERSION = 5;

    private static final StringUtf8Coder STRING = StringUtf8Coder.of();
    private static final VarLongCoder LONG = VarLongCoder.of();
    private static final VarIntCoder INT = VarIntCoder.of();

    static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(OpenFile f, OutputStream out) throws IOException {
      out.write(VERSION);
      STRING.encode(f.partitionPath, out);
      STRING.encode(f.name, out);
      LONG.encode(f.counter, out);
      LONG.encode(f.createdAt, out);
      LONG.encode(f.lastWrite, out);
      LONG.encode(f.rows, out);
      LONG.encode(f.minTimestamp, out);
      LONG.encode(f.maxTimestamp, out);
      INT.encode(f.segments, out);
      LONG.encode(f.closedBytes, out);
      out.write(f.closesAtBundleEnd ? 1 : 0);
      // as gaps to the previous start: small numbers, one byte each
      INT.encode(f.starts.size(), out);
      int previous = 0;
      for (int start : f.starts) {
        INT.encode(start - previous, out);
        previous = start;
      }
      encodeAttempts(f.attempts, out);
    }

    /** As runs of equal tags: nearly all files of an open file have one writer attempt. */
    private static void encodeAttempts(List<String> attempts, OutputStream out) throws IOException {
      List<Integer> runStarts = new ArrayList<>();
      for (int i = 0; i < attempts.size(); i++) {
        if (i == 0 || !attempts.get(i).equals(attempts.get(i - 1))) {
          runStarts.add(i);
        }
      }
      INT.encode(runStarts.size(), out);
      for (int r = 0; r < runStarts.size(); r++) {
        int end = r + 1 < runStarts.size() ? runStarts.get(r + 1) : attempts.size();
        STRING.encode(attempts.get(runStarts.get(r)), out);
        INT.encode(end - runStarts.get(r), out);
      }
    }

    private static void decodeAttempts(OpenFile f, InputStream in) throws IOException {
      int runs = INT.decode(in);
      for (int r = 0; r < runs; r++) {
        String attempt = STRING.decode(in);
        int count = INT.decode(in);
        for (int i = 0; i < count; i++) {
          f.attempts.add(attempt);
        }
      }
      if (f.attempts.size() != f.starts.size()) {
        throw new CoderException(
            "Bad open-file state: "
                + f.attempts.size()
                + " attempts for "
                + f.starts.size()
                + " segment files");
      }
    }

    @Override
    public OpenFile decode(InputStream in) throws IOException {
      int version = in.read();
      if (version < 2 || version > VERSION) {
        throw new CoderException(
            "Unknown open-file state version "
                + version
                + (version > VERSION
                    ? " (written by a newer FileTables streaming sink: restore it with that version)"
                    : " (state of an older FileTables streaming sink cannot be restored)"));
      }
      OpenFile f =
          new OpenFile(STRING.decode(in), STRING.decode(in), LONG.decode(in), LONG.decode(in));
      f.lastWrite = LONG.decode(in);
      f.rows = LONG.decode(in);
      f.minTimestamp = LONG.decode(in);
      f.maxTimestamp = LONG.decode(in);
      f.segments = INT.decode(in);
      f.closedBytes = LONG.decode(in);
      if (version >= 3) {
        int flag = in.read();
        if (flag != 0 && flag != 1) {
          throw new CoderException("Bad open-file state: closes-at-bundle-end flag " + flag);
        }
        f.closesAtBundleEnd = flag == 1;
      }
      if (version >= 4) {
        int files = INT.decode(in);
        int start = 0;
        for (int i = 0; i < files; i++) {
          int gap = INT.decode(in);
          if (i > 0 && gap <= 0) {
            throw new CoderException("Bad open-file state: segment file starts not increasing");
          }
          start += gap;
          f.starts.add(start);
        }
        if (files > 0 && (f.starts.get(0) != 0 || start >= f.segments)) {
          throw new CoderException(
              "Bad open-file state: segment files start at "
                  + f.starts
                  + " of "
                  + f.segments
                  + " segments");
        }
      } else {
        for (int n = 0; n < f.segments; n++) {
          f.starts.add(n); // no combining before version 4
        }
      }
      if (version >= 5) {
        decodeAttempts(f, in);
      } else {
        f.starts.forEach(start -> f.attempts.add("")); // no attempts in names before version 5
      }
      return f;
    }

    @Override
    public void verifyDeterministic() {}
  }
}
