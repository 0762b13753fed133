package dev.filetables.io.format;

import dev.filetables.io.files.FilesInOrder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Merges files of a line-oriented format by appending their bytes: valid when every record ends
 * with a line break and files carry no header or footer (FileTables' csv and json writers).
 */
@Internal
public final class ConcatenatingMerger implements FileMerger {
  private static final long serialVersionUID = 1L;

  public static final ConcatenatingMerger INSTANCE = new ConcatenatingMerger();

  private ConcatenatingMerger() {}

  @Override
  public void merge(List<Path> inputs, OutputStream out) throws IOException {
    mergePlaced(inputs, out);
  }

  /** Each input's bytes, unchanged, at the offset where they were appended. */
  @Override
  public Optional<List<InputPlacement>> mergePlaced(List<Path> inputs, OutputStream out)
      throws IOException {
    List<InputPlacement> placements = new ArrayList<>(inputs.size());
    long written = 0;
    try (OutputStream target = out;
        FilesInOrder files = new FilesInOrder(inputs)) {
      while (files.hasNext()) {
        try (InputStream in = files.next()) {
          long length = in.transferTo(target);
          placements.add(new InputPlacement(ByteRange.of(written, written + length), written));
          written += length;
        }
      }
    }
    return Optional.of(placements);
  }

  private Object readResolve() {
    return INSTANCE;
  }
}
