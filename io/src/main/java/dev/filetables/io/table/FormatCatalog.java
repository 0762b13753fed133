package dev.filetables.io.table;

import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The file formats as table options see them: the names option {@code format} accepts and a check
 * of a format's own {@code <format>.*} options.
 *
 * <p>The format package implements this and registers the implementation in {@code
 * META-INF/services} (as Flink finds its format factories). Table options look it up through {@link
 * java.util.ServiceLoader}, so this package never imports the formats: the formats import this
 * package (column types, errors), and a dependency the other way would be a cycle.
 */
@Internal
public interface FormatCatalog {

  /** The format names in documentation order, e.g. {@code csv, json, avro, parquet, orc}. */
  List<String> names();

  /**
   * Reads {@code formatOptions} (keys without the {@code <format>.} prefix) as the format will when
   * the table is used, so a bad format option fails when the table is defined; throws a {@link
   * TableDefinitionException} naming the full key, the value and what is allowed.
   */
  void check(String format, Map<String, String> formatOptions);

  /** The catalog registered on the class path. */
  static FormatCatalog installed() {
    return InstalledFormatCatalog.INSTANCE;
  }
}
