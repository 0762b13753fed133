package dev.filetables.transforms.sink;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.Field;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;

/**
 * Checks, at pipeline construction, that rows of an input schema can be written to a table without
 * losing or inventing data.
 *
 * <p>Rules: every physical column of the table is present by name with the same {@link ColumnType}
 * (a DECIMAL must fit: no more integer digits and no larger scale than the table's); a column may
 * be NOT NULL in the input where the table allows null, never the reverse; input columns the table
 * does not have are an error (dropping them silently would lose data). Field order does not matter.
 */
@Internal
public final class SinkInputCheck {
  private SinkInputCheck() {}

  /** Throws an {@link IllegalArgumentException} listing every problem, or returns normally. */
  public static void check(TableSpec table, Schema input) {
    Schema physical = table.physicalSchema();
    List<String> problems = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (Field column : physical.getFields()) {
      if (!input.hasField(column.getName())) {
        missing.add(column.getName());
        continue;
      }
      String problem = incompatibility(column, input.getField(column.getName()));
      if (problem != null) {
        problems.add(problem);
      }
    }
    if (!missing.isEmpty()) {
      problems.add("missing column(s) " + missing);
    }
    List<String> extra = new ArrayList<>();
    for (Field field : input.getFields()) {
      if (!physical.hasField(field.getName())) {
        extra.add(field.getName());
      }
    }
    if (!extra.isEmpty()) {
      Set<String> metadata = table.metadataColumnNames();
      String hint =
          extra.stream().anyMatch(metadata::contains)
              ? " (metadata columns are read-only: drop them before writing)"
              : " (drop them before writing, or declare them in the table)";
      problems.add("column(s) " + extra + " are not columns of the table" + hint);
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot write to table `"
              + table.name()
              + "` at "
              + table.options().path()
              + ": "
              + String.join("; ", problems)
              + ". Table columns: "
              + describe(physical)
              + "; input columns: "
              + describe(input));
    }
  }

  private static String incompatibility(Field column, Field given) {
    FieldType want = column.getType();
    FieldType got = given.getType();
    ColumnType wantType = ColumnType.of(want);
    ColumnType gotType;
    try {
      gotType = ColumnType.of(got);
    } catch (IllegalArgumentException e) {
      return "column `" + column.getName() + "` has unsupported input type " + got;
    }
    if (wantType != gotType) {
      return "column `"
          + column.getName()
          + "` is "
          + wantType
          + " in the table but "
          + gotType
          + " in the input";
    }
    if (wantType == ColumnType.DECIMAL && hasPrecision(got) && hasPrecision(want)) {
      int wantScale = ColumnType.decimalScale(want);
      int gotScale = ColumnType.decimalScale(got);
      int wantDigits = ColumnType.decimalPrecision(want) - wantScale;
      int gotDigits = ColumnType.decimalPrecision(got) - gotScale;
      if (gotScale > wantScale || gotDigits > wantDigits) {
        return "column `"
            + column.getName()
            + "` is DECIMAL("
            + ColumnType.decimalPrecision(got)
            + ", "
            + gotScale
            + ") in the input, which does not fit the table's DECIMAL("
            + ColumnType.decimalPrecision(want)
            + ", "
            + wantScale
            + ")";
      }
    }
    if (got.getNullable() && !want.getNullable()) {
      return "column `" + column.getName() + "` is NOT NULL in the table but nullable in the input";
    }
    return null;
  }

  private static boolean hasPrecision(FieldType type) {
    return type.getTypeName() == TypeName.LOGICAL_TYPE;
  }

  private static String describe(Schema schema) {
    List<String> parts = new ArrayList<>();
    for (Field f : schema.getFields()) {
      parts.add(f.getName() + " " + typeName(f.getType()));
    }
    return parts.toString();
  }

  private static String typeName(FieldType type) {
    String name;
    try {
      name = ColumnType.of(type).name();
    } catch (IllegalArgumentException e) {
      name = type.toString();
    }
    return type.getNullable() ? name : name + " NOT NULL";
  }
}
