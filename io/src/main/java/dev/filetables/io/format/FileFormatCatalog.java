package dev.filetables.io.format;

import dev.filetables.io.table.FormatCatalog;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The formats of {@link FileFormats}, offered to table options through {@code META-INF/services}
 * (see {@link FormatCatalog} for why not a direct call).
 */
@Internal
public final class FileFormatCatalog implements FormatCatalog {

  /** For {@link java.util.ServiceLoader}. */
  public FileFormatCatalog() {}

  @Override
  public List<String> names() {
    return FileFormats.SUPPORTED;
  }

  @Override
  public void check(String format, Map<String, String> formatOptions) {
    FileFormats.forName(format, formatOptions);
  }

  @Override
  public String toString() {
    return "FileFormatCatalog" + FileFormats.SUPPORTED;
  }
}
