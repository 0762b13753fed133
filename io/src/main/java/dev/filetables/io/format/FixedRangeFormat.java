package dev.filetables.io.format;

import dev.filetables.io.format.internal.FixedRanges;
import java.nio.channels.SeekableByteChannel;
import java.util.List;

/**
 * A format whose reader finds its own units inside any byte range (Avro blocks by sync marker,
 * Parquet row groups by midpoint), so {@link #split} cuts fixed-size ranges without looking into
 * the file. The extension is the format name, e.g. {@code .avro}.
 */
abstract class FixedRangeFormat implements FileFormat {
  private static final long serialVersionUID = 1L;

  private final String name;

  FixedRangeFormat(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String extension() {
    return "." + name;
  }

  @Override
  public final List<ByteRange> split(
      SeekableByteChannel file, long fileSize, long targetRangeSize) {
    return FixedRanges.of(fileSize, targetRangeSize);
  }
}
