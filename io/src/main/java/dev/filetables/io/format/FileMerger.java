package dev.filetables.io.format;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Joins complete files of one format and one file schema into a single file holding all their rows,
 * in input order, without decoding rows where the format allows it (row formats: byte
 * concatenation; Avro: block copy; Parquet: row-group copy). Used by the streaming sink to turn the
 * segments of a part file into the part file, and meant for compaction.
 *
 * <p>Get one with {@link FileMergers#of}.
 */
public interface FileMerger extends Serializable {

  /**
   * Writes the merged file to {@code out} and closes it. {@code inputs} are complete files written
   * by the same format with the same file schema; at least one.
   */
  void merge(List<Path> inputs, OutputStream out) throws IOException;

  /**
   * Like {@link #merge}, and tells where each input's rows are in the merged file: one placement
   * per input, in input order. Empty when this merger cannot tell, because it re-encodes rows and
   * no range of its output holds one input's rows alone (the default).
   */
  default Optional<List<InputPlacement>> mergePlaced(List<Path> inputs, OutputStream out)
      throws IOException {
    merge(inputs, out);
    return Optional.empty();
  }
}
