package dev.filetables.transforms.sink;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import org.apache.beam.sdk.coders.DefaultCoder;

/**
 * A data file produced by a write: hidden (in progress) while it travels from the writers to the
 * publisher, visible once {@link PublishFiles} has renamed it.
 */
@AutoValue
@DefaultCoder(WrittenFileCoder.class)
public abstract class WrittenFile implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Relative partition directory, e.g. {@code dt=2020-05-20/hour=12}; {@code ""} when unpartitioned. */
  public abstract String partitionPath();

  /** Absolute path of the file: the hidden in-progress name before publishing, the visible one after. */
  public abstract String path();

  public abstract long rowCount();

  public abstract long sizeBytes();

  public static WrittenFile of(String partitionPath, String path, long rowCount, long sizeBytes) {
    return new AutoValue_WrittenFile(partitionPath, path, rowCount, sizeBytes);
  }

  /** The same file at another path (what publishing changes). */
  public WrittenFile withPath(String newPath) {
    return of(partitionPath(), newPath, rowCount(), sizeBytes());
  }
}
