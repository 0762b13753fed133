package dev.filetables.io.partition;

import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * Typed partition values ↔ their directory strings, per {@link dev.filetables.io.table.ColumnType}.
 *
 * <p>SKELETON – contract: {@code format(value, type)} gives the string written in the directory name
 * (before escaping; null stays null); {@code parse(text, type)} the typed value back (null stays
 * null), failing with a message that names the value and the type.
 */
public final class PartitionValues {
  private PartitionValues() {}

  public static String format(Object value, FieldType type) {
    throw new UnsupportedOperationException("TODO");
  }

  public static Object parse(String text, FieldType type) {
    throw new UnsupportedOperationException("TODO");
  }
}
