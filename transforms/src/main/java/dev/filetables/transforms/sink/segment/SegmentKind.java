package dev.filetables.transforms.sink.segment;

import org.apache.beam.sdk.annotations.Internal;

/** What a streaming part file's segments hold, and so how they become the part file on roll. */
@Internal
public enum SegmentKind {
  /**
   * Complete small files of the table's format, merged without decoding (byte concatenation for
   * csv/json, block copy for Avro, row-group copy for Parquet). For Parquet, every segment becomes
   * at least one row group of the part file.
   */
  FORMAT,
  /**
   * Rows in {@link FileRowCoder}'s encoding (cheap to write and read back), encoded once into the
   * table's format when the file rolls: a Parquet part file gets row groups as big as the format's
   * {@code block.size} allows, an ORC part file stripes as big as {@code orc.stripe.size} allows,
   * whatever the bundles were.
   */
  SPILL
}
