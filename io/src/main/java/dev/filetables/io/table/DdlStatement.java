package dev.filetables.io.table;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * A parsed {@code CREATE TABLE} statement before any connector rules are applied: name, columns
 * (with their metadata keys as written), partition keys, {@code WITH} options and watermark, each
 * with its position in the text.
 *
 * <p>{@link DdlParser#parseStatement} produces it; {@link DdlParser#toTableSpec} turns it into a
 * file table. Another connector can reuse the parser and apply its own rules, reporting problems at
 * the right line with {@link #errorAt}.
 */
public final class DdlStatement {

  /** A 1-based line and column in the DDL text. */
  public record Location(int line, int column) {
    @Override
    public String toString() {
      return line + ":" + column;
    }
  }

  /**
   * One declared column. {@code typeText} is the declared type in canonical form (e.g. {@code
   * DECIMAL(10, 2) NOT NULL}); {@code metadataKey} is present for a {@code METADATA} column (the
   * {@code FROM} key, or the column name when there is no {@code FROM}); {@code computed} for a
   * computed column ({@code name AS expression}), which has no declared type ({@code type} is null,
   * {@code typeText} is {@code AS <expression>}).
   */
  public record Column(
      String name,
      FieldType type,
      String typeText,
      Optional<String> metadataKey,
      boolean virtual,
      Optional<String> comment,
      Location location,
      Optional<Computed> computed) {
    public boolean isMetadata() {
      return metadataKey.isPresent();
    }

    public boolean isComputed() {
      return computed.isPresent();
    }

    /**
     * A computed column's expression as written, where its {@code AS} is ({@code location}) and
     * where the expression starts.
     */
    public record Computed(String expression, Location location, Location expressionLocation) {}
  }

  private final Optional<String> sourceName;
  private final Location location;
  private final String name;
  private final List<Column> columns;
  private final List<String> partitionKeys;
  private final Map<String, Location> partitionKeyLocations;
  private final LinkedHashMap<String, String> options;
  private final Map<String, Location> optionLocations;
  private final Optional<Location> withLocation;
  private final Optional<WatermarkSpec> watermark;
  private final Optional<Location> watermarkLocation;
  private final Optional<String> comment;

  DdlStatement(
      Optional<String> sourceName,
      Location location,
      String name,
      List<Column> columns,
      List<String> partitionKeys,
      Map<String, Location> partitionKeyLocations,
      LinkedHashMap<String, String> options,
      Map<String, Location> optionLocations,
      Optional<Location> withLocation,
      Optional<WatermarkSpec> watermark,
      Optional<Location> watermarkLocation,
      Optional<String> comment) {
    this.sourceName = sourceName;
    this.location = location;
    this.name = name;
    this.columns = List.copyOf(columns);
    this.partitionKeys = List.copyOf(partitionKeys);
    this.partitionKeyLocations = Map.copyOf(partitionKeyLocations);
    this.options = new LinkedHashMap<>(options);
    this.optionLocations = Map.copyOf(optionLocations);
    this.withLocation = withLocation;
    this.watermark = watermark;
    this.watermarkLocation = watermarkLocation;
    this.comment = comment;
  }

  /** The file the statement came from (as given), for messages; empty for a DDL string. */
  public Optional<String> sourceName() {
    return sourceName;
  }

  /** Where the {@code CREATE} keyword is. */
  public Location location() {
    return location;
  }

  /** The table name (the last part of a qualified name such as {@code catalog.db.orders}). */
  public String name() {
    return name;
  }

  /** All declared columns, in declared order. */
  public List<Column> columns() {
    return columns;
  }

  /** {@code PARTITIONED BY} columns, in order. */
  public List<String> partitionKeys() {
    return partitionKeys;
  }

  public Location partitionKeyLocation(String key) {
    return partitionKeyLocations.getOrDefault(key, location);
  }

  /** {@code WITH} options in declared order, exactly as written. */
  public Map<String, String> options() {
    return Collections.unmodifiableMap(options);
  }

  /** Where the option's key is written; the {@code WITH} keyword (or statement) when absent. */
  public Location optionLocation(String key) {
    Location at = key == null ? null : optionLocations.get(key);
    return at != null ? at : withLocation.orElse(location);
  }

  public Optional<WatermarkSpec> watermark() {
    return watermark;
  }

  public Location watermarkLocation() {
    return watermarkLocation.orElse(location);
  }

  /**
   * Fails at the first computed column: a table that is read or written directly has no SQL engine
   * to evaluate it ({@code bin/filetables sql} has one).
   */
  public void rejectComputedColumns() {
    for (Column column : columns) {
      if (column.isComputed()) {
        throw errorAt(
            column.computed().get().location(),
            "computed column `"
                + column.name()
                + "` (name AS expression) is not supported here; FileTables supports physical"
                + " columns (name TYPE) and METADATA columns, and `bin/filetables sql` evaluates"
                + " computed columns");
      }
    }
  }

  /** The computed columns, in declared order. */
  public List<Column> computedColumns() {
    return columns.stream().filter(Column::isComputed).toList();
  }

  /**
   * This statement without its computed columns, and without its watermark when that is declared on
   * a computed column: the table as its connector reads it, before a SQL engine adds them.
   */
  public DdlStatement withoutComputedColumns() {
    List<Column> stored = columns.stream().filter(c -> !c.isComputed()).toList();
    boolean watermarkStays =
        watermark.isPresent()
            && stored.stream().anyMatch(c -> c.name().equals(watermark.get().column()));
    return new DdlStatement(
        sourceName,
        location,
        name,
        stored,
        partitionKeys,
        partitionKeyLocations,
        options,
        optionLocations,
        withLocation,
        watermarkStays ? watermark : Optional.empty(),
        watermarkStays ? watermarkLocation : Optional.empty(),
        comment);
  }

  /** The table {@code COMMENT}, if any. */
  public Optional<String> comment() {
    return comment;
  }

  /**
   * An exception whose message starts with the position: {@code orders.sql:3:12: ...} for a file,
   * {@code line 3, column 12: ...} for a string.
   */
  public TableDefinitionException errorAt(Location at, String message) {
    return new TableDefinitionException(prefix(sourceName, at) + message);
  }

  static String prefix(Optional<String> sourceName, Location at) {
    return sourceName
        .map(s -> s + ":" + at.line() + ":" + at.column() + ": ")
        .orElse("line " + at.line() + ", column " + at.column() + ": ");
  }

  /** This statement with different options (e.g. a resolved path); positions are kept. */
  DdlStatement withOptions(LinkedHashMap<String, String> newOptions) {
    return new DdlStatement(
        sourceName,
        location,
        name,
        columns,
        partitionKeys,
        partitionKeyLocations,
        newOptions,
        optionLocations,
        withLocation,
        watermark,
        watermarkLocation,
        comment);
  }
}
