package dev.filetables.transforms.sink.streaming;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Who writes a row in the streaming sink: its partition directory and the writer (0..N-1) within
 * that partition. Each key has at most one open part file; its state lives in keyed state.
 */
@AutoValue
@Internal
public abstract class WriterKey implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Relative partition directory, {@code ""} when unpartitioned. */
  public abstract String partitionPath();

  /** The writer number, which part file names carry as their writer id. */
  public abstract int writer();

  public static WriterKey of(String partitionPath, int writer) {
    return new AutoValue_WriterKey(partitionPath, writer);
  }

  /** The writer id in part file names. */
  public String writerId() {
    return Integer.toString(writer());
  }
}
