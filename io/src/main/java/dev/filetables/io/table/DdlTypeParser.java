package dev.filetables.io.table;

import dev.filetables.io.table.DdlLexer.Kind;
import dev.filetables.io.table.DdlLexer.Token;
import dev.filetables.io.table.DdlStatement.Location;
import java.util.Locale;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * Reads a column type ({@code BIGINT}, {@code DECIMAL(10, 2)}, {@code TIMESTAMP(3) WITH LOCAL TIME
 * ZONE}, ...) and maps it to its Beam field type through {@link ColumnType}. Types FileTables
 * cannot store exactly (fixed-length {@code CHAR}, sub-millisecond timestamps, time zones) are
 * errors here, so a parsed statement only holds supported types.
 */
final class DdlTypeParser {

  static final String SUPPORTED_TYPES =
      "STRING, VARCHAR(n), BOOLEAN, INT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), DATE,"
          + " TIMESTAMP(3), TIMESTAMP_LTZ(3), TIMESTAMP(3) WITH LOCAL TIME ZONE";

  /** A parsed type: its Beam type (nullable) and canonical text, e.g. {@code DECIMAL(10, 0)}. */
  record ParsedType(FieldType fieldType, String text) {}

  private final DdlTokens tokens;

  DdlTypeParser(DdlTokens tokens) {
    this.tokens = tokens;
  }

  /** Reads the type at the current token. */
  ParsedType type() {
    Token token = tokens.peek();
    if (token.kind() != Kind.WORD) {
      throw tokens.error(
          token.location(),
          "expected a column type but found "
              + token.describe()
              + "; supported: "
              + SUPPORTED_TYPES);
    }
    tokens.take();
    String word = token.text().toUpperCase(Locale.ROOT);
    switch (word) {
      case "STRING":
        return new ParsedType(ColumnType.STRING.fieldType(), "STRING");
      case "VARCHAR":
        return varchar();
      case "CHAR":
      case "CHARACTER":
        if (tokens.peek().isKeyword("VARYING")) {
          tokens.take();
          return varchar();
        }
        throw tokens.error(
            token.location(),
            "type "
                + word
                + " is not supported (fixed-length, blank-padded strings); use STRING or VARCHAR(n)");
      case "BOOLEAN":
        return new ParsedType(ColumnType.BOOLEAN.fieldType(), "BOOLEAN");
      case "INT":
      case "INTEGER":
        return new ParsedType(ColumnType.INT.fieldType(), "INT");
      case "BIGINT":
        return new ParsedType(ColumnType.BIGINT.fieldType(), "BIGINT");
      case "FLOAT":
        return new ParsedType(ColumnType.FLOAT.fieldType(), "FLOAT");
      case "DOUBLE":
        if (tokens.peek().isKeyword("PRECISION")) {
          tokens.take();
        }
        return new ParsedType(ColumnType.DOUBLE.fieldType(), "DOUBLE");
      case "DECIMAL":
      case "DEC":
      case "NUMERIC":
        return decimal();
      case "DATE":
        return new ParsedType(ColumnType.DATE.fieldType(), "DATE");
      case "TIMESTAMP":
        return timestamp();
      case "TIMESTAMP_LTZ":
        timestampPrecision("TIMESTAMP_LTZ");
        return new ParsedType(ColumnType.TIMESTAMP_LTZ.fieldType(), "TIMESTAMP_LTZ(3)");
      default:
        throw tokens.error(
            token.location(),
            "unsupported type " + token.text() + "; supported types: " + SUPPORTED_TYPES);
    }
  }

  /** {@code VARCHAR[(n)]} after its keyword(s): a STRING whose text keeps the length. */
  private ParsedType varchar() {
    Optional<Integer> length = optionalInt("VARCHAR length", 1, Integer.MAX_VALUE);
    return new ParsedType(
        ColumnType.STRING.fieldType(), length.map(n -> "VARCHAR(" + n + ")").orElse("VARCHAR"));
  }

  private ParsedType decimal() {
    int precision = 10;
    int scale = 0;
    if (tokens.peek().isSymbol("(")) {
      tokens.take();
      precision = intLiteral("DECIMAL precision", 1, 38);
      if (tokens.peek().isSymbol(",")) {
        tokens.take();
        Location at = tokens.peek().location();
        scale = intLiteral("DECIMAL scale", 0, 38);
        if (scale > precision) {
          throw tokens.error(
              at,
              "DECIMAL scale "
                  + scale
                  + " is larger than its precision "
                  + precision
                  + "; the scale must be between 0 and the precision");
        }
      }
      tokens.expectSymbol(")", "DECIMAL(p, s)");
    }
    return new ParsedType(
        ColumnType.decimal(precision, scale), "DECIMAL(" + precision + ", " + scale + ")");
  }

  private ParsedType timestamp() {
    timestampPrecision("TIMESTAMP");
    if (tokens.peek().isKeyword("WITH")) {
      Token with = tokens.take();
      if (tokens.peek().isKeyword("LOCAL")) {
        tokens.take();
        tokens.expectKeyword("TIME", "WITH LOCAL TIME ZONE");
        tokens.expectKeyword("ZONE", "WITH LOCAL TIME ZONE");
        return new ParsedType(ColumnType.TIMESTAMP_LTZ.fieldType(), "TIMESTAMP_LTZ(3)");
      }
      throw tokens.error(
          with.location(),
          "TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP(3) (no zone) or"
              + " TIMESTAMP(3) WITH LOCAL TIME ZONE / TIMESTAMP_LTZ(3) (an instant)");
    }
    if (tokens.peek().isKeyword("WITHOUT")) {
      tokens.take();
      tokens.expectKeyword("TIME", "WITHOUT TIME ZONE");
      tokens.expectKeyword("ZONE", "WITHOUT TIME ZONE");
    }
    return new ParsedType(ColumnType.TIMESTAMP.fieldType(), "TIMESTAMP(3)");
  }

  /**
   * Reads an optional {@code (p)} after a timestamp type and checks it is a millisecond precision.
   */
  private void timestampPrecision(String typeName) {
    if (!tokens.peek().isSymbol("(")) {
      return;
    }
    tokens.take();
    Token number = tokens.peek();
    int precision = intLiteral(typeName + " precision", 0, 9);
    if (precision > 3) {
      throw tokens.error(
          number.location(),
          typeName
              + "("
              + precision
              + ") is not supported: FileTables supports millisecond precision, "
              + typeName
              + "(0) to "
              + typeName
              + "(3) (a bare "
              + typeName
              + " is read as "
              + typeName
              + "(3))");
    }
    tokens.expectSymbol(")", typeName + "(p)");
  }

  private Optional<Integer> optionalInt(String what, int min, int max) {
    if (!tokens.peek().isSymbol("(")) {
      return Optional.empty();
    }
    tokens.take();
    int value = intLiteral(what, min, max);
    tokens.expectSymbol(")", what);
    return Optional.of(value);
  }

  private int intLiteral(String what, int min, int max) {
    Token token = tokens.take();
    if (token.kind() == Kind.NUMBER && token.text().indexOf('.') < 0) {
      try {
        int value = Integer.parseInt(token.text());
        if (value >= min && value <= max) {
          return value;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw tokens.error(
        token.location(),
        "expected "
            + what
            + " (a whole number from "
            + min
            + " to "
            + max
            + ") but found "
            + token.describe());
  }
}
