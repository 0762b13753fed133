package dev.filetables.io.format;

import java.util.Map;

/**
 * Looks up a {@link FileFormat} by its {@code format} option value, with that format's options
 * (keys without the {@code <format>.} prefix). Unknown formats and unknown format options fail with a
 * {@link dev.filetables.io.table.TableDefinitionException} that names the key and what is allowed.
 *
 */
public final class FileFormats {
  private FileFormats() {}

  public static final java.util.List<String> SUPPORTED = java.util.List.of("csv", "json", "avro", "parquet");

  public static FileFormat forName(String name, Map<String, String> formatOptions) {
    switch (name == null ? "" : name) {
      case "csv":
        return CsvFormat.create(formatOptions);
      case "json":
        return JsonFormat.create(formatOptions);
      case "avro":
        return AvroFormat.create(formatOptions);
      case "parquet":
        return ParquetFormat.create(formatOptions);
      default:
        throw new dev.filetables.io.table.TableDefinitionException(
            "Unsupported format '" + name + "' (option 'format'); supported: " + String.join(", ", SUPPORTED));
    }
  }

  /** The format of a table, from its options. */
  public static FileFormat of(dev.filetables.io.table.TableOptions options) {
    return forName(options.format(), options.formatOptions());
  }
}
