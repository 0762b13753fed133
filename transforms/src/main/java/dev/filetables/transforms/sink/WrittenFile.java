package dev.filetables.transforms.sink;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * A data file produced by a write: hidden (in progress) while it travels from the writers to the
 * publisher, visible once published (renamed).
 *
 * <p>The streaming sink also records the range of the rows' event timestamps, which a partition
 * commit can compare with the watermark; the batch sink does not track them and reports the widest
 * range ({@link BoundedWindow#TIMESTAMP_MIN_VALUE} .. {@link BoundedWindow#TIMESTAMP_MAX_VALUE}).
 */
@AutoValue
@DefaultCoder(WrittenFileCoder.class)
public abstract class WrittenFile implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * Relative partition directory, e.g. {@code dt=2020-05-20/hour=12}; {@code ""} when
   * unpartitioned.
   */
  public abstract String partitionPath();

  /**
   * Absolute path of the file: the hidden in-progress name before publishing, the visible one
   * after.
   */
  public abstract String path();

  public abstract long rowCount();

  public abstract long sizeBytes();

  /** The smallest event timestamp of the file's rows (or the minimum instant when not tracked). */
  public abstract Instant minTimestamp();

  /** The largest event timestamp of the file's rows (or the maximum instant when not tracked). */
  public abstract Instant maxTimestamp();

  /** A file whose rows' timestamps were not tracked. */
  public static WrittenFile of(String partitionPath, String path, long rowCount, long sizeBytes) {
    return of(
        partitionPath,
        path,
        rowCount,
        sizeBytes,
        BoundedWindow.TIMESTAMP_MIN_VALUE,
        BoundedWindow.TIMESTAMP_MAX_VALUE);
  }

  public static WrittenFile of(
      String partitionPath,
      String path,
      long rowCount,
      long sizeBytes,
      Instant minTimestamp,
      Instant maxTimestamp) {
    return new AutoValue_WrittenFile(
        partitionPath, path, rowCount, sizeBytes, minTimestamp, maxTimestamp);
  }

  /** The same file at another path (what publishing changes). */
  public WrittenFile withPath(String newPath) {
    return of(partitionPath(), newPath, rowCount(), sizeBytes(), minTimestamp(), maxTimestamp());
  }
}
