package dev.filetables.io.table;

import dev.filetables.io.table.DdlLexer.Kind;
import dev.filetables.io.table.DdlLexer.Token;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;

/**
 * Reads a {@code WATERMARK FOR ts AS ts [- INTERVAL 'n' UNIT]} clause into a {@link WatermarkSpec}.
 * Only a fixed delay behind the column itself is supported: the readers apply a watermark as that
 * delay and evaluate no SQL expressions.
 */
final class DdlWatermarkParser {

  private static final String WATERMARK_FORMS =
      "supported: WATERMARK FOR ts AS ts, or WATERMARK FOR ts AS ts - INTERVAL 'n' UNIT with UNIT one"
          + " of MILLISECOND, SECOND, MINUTE, HOUR, DAY";

  private final DdlTokens tokens;

  DdlWatermarkParser(DdlTokens tokens) {
    this.tokens = tokens;
  }

  /** Reads the clause; the current token is {@code WATERMARK}, followed by {@code FOR}. */
  WatermarkSpec watermark() {
    tokens.take(); // WATERMARK
    tokens.take(); // FOR
    String column = tokens.identifier("the watermark's time column");
    tokens.expectKeyword("AS", "WATERMARK FOR " + column + " AS");
    Token expressionStart = tokens.peek();
    String expressionColumn = tokens.identifierOrNull();
    if (expressionColumn == null || !expressionColumn.equals(column)) {
      throw tokens.error(
          expressionStart.location(),
          "unsupported watermark expression starting with "
              + expressionStart.describe()
              + "; "
              + WATERMARK_FORMS
              + " (the same column on both sides)");
    }
    if (tokens.peek().isSymbol(",") || tokens.peek().isSymbol(")")) {
      return WatermarkSpec.of(column, Duration.ZERO);
    }
    Token minus = tokens.take();
    if (!minus.isSymbol("-") || !tokens.peek().isKeyword("INTERVAL")) {
      throw tokens.error(minus.location(), "unsupported watermark expression; " + WATERMARK_FORMS);
    }
    tokens.take(); // INTERVAL
    Token amount = tokens.take();
    if (amount.kind() != Kind.STRING) {
      throw tokens.error(
          amount.location(),
          "expected the interval amount in quotes, e.g. INTERVAL '5' SECOND, but found "
              + amount.describe());
    }
    Token unit = tokens.take();
    Duration unitLength = intervalUnit(unit);
    if (tokens.peek().isKeyword("TO") || tokens.peek().isSymbol("(")) {
      throw tokens.error(
          tokens.peek().location(),
          "compound or precision intervals are not supported in a watermark; " + WATERMARK_FORMS);
    }
    return WatermarkSpec.of(column, intervalDuration(amount, unitLength));
  }

  private Duration intervalUnit(Token unit) {
    if (unit.kind() == Kind.WORD) {
      switch (unit.text().toUpperCase(Locale.ROOT)) {
        case "MILLISECOND":
        case "MILLISECONDS":
          return Duration.ofMillis(1);
        case "SECOND":
        case "SECONDS":
          return Duration.ofSeconds(1);
        case "MINUTE":
        case "MINUTES":
          return Duration.ofMinutes(1);
        case "HOUR":
        case "HOURS":
          return Duration.ofHours(1);
        case "DAY":
        case "DAYS":
          return Duration.ofDays(1);
        default:
          break;
      }
    }
    throw tokens.error(
        unit.location(),
        "unsupported interval unit "
            + unit.describe()
            + "; supported: MILLISECOND, SECOND, MINUTE, HOUR, DAY (or plural)");
  }

  private Duration intervalDuration(Token amount, Duration unitLength) {
    BigDecimal value;
    try {
      value = new BigDecimal(amount.text().trim());
    } catch (NumberFormatException e) {
      throw tokens.error(
          amount.location(),
          "interval amount " + amount.describe() + " is not a number; e.g. INTERVAL '5' SECOND");
    }
    if (value.signum() < 0) {
      throw tokens.error(
          amount.location(),
          "interval amount "
              + amount.describe()
              + " is negative; the watermark delay must be >= 0");
    }
    BigDecimal millis = value.multiply(BigDecimal.valueOf(unitLength.toMillis()));
    try {
      return Duration.ofMillis(millis.longValueExact());
    } catch (ArithmeticException e) {
      throw tokens.error(
          amount.location(),
          "interval amount "
              + amount.describe()
              + " is not a whole number of milliseconds (or too large); watermark delays have"
              + " millisecond precision");
    }
  }
}
