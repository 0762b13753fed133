package dev.filetables.transforms.source;

import com.google.auto.value.AutoValue;
import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;
import java.io.Serializable;
import org.apache.beam.sdk.annotations.Internal;

/** One independently readable byte range of a data file: the unit of read parallelism. */
@AutoValue
@Internal
public abstract class FileRange implements Serializable {
  private static final long serialVersionUID = 1L;

  public abstract DataFile file();

  public abstract ByteRange range();

  public static FileRange of(DataFile file, ByteRange range) {
    return new AutoValue_FileRange(file, range);
  }
}
