package dev.filetables.io.format.internal;

import dev.filetables.io.format.BadRecordException;
import java.math.BigDecimal;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The checks the bulk formats' writers make on a value before it reaches the file, and the bad
 * records they give: the same rule and message for every format.
 */
@Internal
public final class WriteChecks {
  private WriteChecks() {}

  /** The bad record of a null in a NOT NULL column, at row {@code row} (0-based) of the file. */
  public static BadRecordException nullInNotNull(long row, String column) {
    return new BadRecordException(
        "Row " + row + ": column '" + column + "' is NOT NULL but the value is null");
  }

  /**
   * The value at exactly DECIMAL({@code precision}, {@code scale}) (rounded half-up), or the bad
   * record saying why it does not fit.
   */
  public static BigDecimal fitDecimal(
      long row, String column, BigDecimal value, int precision, int scale)
      throws BadRecordException {
    try {
      return Decimals.fit(value, precision, scale);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new BadRecordException(
          "Row " + row + ": column '" + column + "': " + e.getMessage(), e);
    }
  }
}
