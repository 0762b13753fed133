package dev.filetables.io.format;

import dev.filetables.io.files.FilesInOrder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
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
    try (OutputStream target = out;
        FilesInOrder files = new FilesInOrder(inputs)) {
      while (files.hasNext()) {
        try (InputStream in = files.next()) {
          in.transferTo(target);
        }
      }
    }
  }

  private Object readResolve() {
    return INSTANCE;
  }
}
