package dev.filetables.io.format;

import dev.filetables.io.table.BadRecordPolicy;
import java.util.Map;

/**
 * Looks up a {@link FileFormat} by its {@code format} option value, with that format's options
 * (keys without the {@code <format>.} prefix). Unknown formats and unknown format options fail with
 * a {@link dev.filetables.io.table.TableDefinitionException} that names the key and what is
 * allowed.
 */
public final class FileFormats {
  private FileFormats() {}

  /**
   * Format option (csv, json) with which Flink skips bad records; means {@code source.bad-records}
   * = skip ({@link BadRecordPolicy#IGNORE_PARSE_ERRORS}).
   */
  public static final String IGNORE_PARSE_ERRORS = BadRecordPolicy.IGNORE_PARSE_ERRORS;

  public static final java.util.List<String> SUPPORTED =
      java.util.List.of("csv", "json", "avro", "parquet", "orc");

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
      case "orc":
        return OrcFormat.create(formatOptions);
      default:
        throw new dev.filetables.io.table.TableDefinitionException(
            "Unsupported format '"
                + name
                + "' (option 'format'); supported: "
                + String.join(", ", SUPPORTED));
    }
  }

  /**
   * The format of a table for reading under its bad-record policy ({@link
   * dev.filetables.io.table.TableOptions#badRecordPolicy}): {@code <format>.ignore-parse-errors} is
   * left out, so every bad record reaches the caller as a {@link BadRecordException} and the policy
   * (which that option maps to {@code skip}) decides, with metrics and logging.
   */
  public static FileFormat forPolicyReading(dev.filetables.io.table.TableOptions options) {
    Map<String, String> formatOptions = new java.util.LinkedHashMap<>(options.formatOptions());
    formatOptions.remove(IGNORE_PARSE_ERRORS);
    return forName(options.format(), formatOptions);
  }

  /** The format of a table, from its options. */
  public static FileFormat of(dev.filetables.io.table.TableOptions options) {
    return forName(options.format(), options.formatOptions());
  }
}
