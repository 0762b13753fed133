package dev.filetables.io.format;

import java.math.BigDecimal;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;
import org.apache.beam.sdk.schemas.logicaltypes.FixedPrecisionNumeric;

/**
 * Decimal values read from text: a DECIMAL(p, s) column gets its declared scale when that is exact
 * ("1.5" reads as 1.50 in DECIMAL(10, 2)), as binary formats return it; more fraction digits than
 * the scale are kept rather than silently rounded.
 */
final class Decimals {
  private Decimals() {}

  /** The declared scale of a DECIMAL(p, s) field, or -1 for a decimal without one. */
  static int declaredScale(FieldType type) {
    if (type.getTypeName() == TypeName.LOGICAL_TYPE
        && FixedPrecisionNumeric.IDENTIFIER.equals(type.getLogicalType().getIdentifier())) {
      Object arg = type.getLogicalType().getArgument();
      if (arg instanceof org.apache.beam.sdk.values.Row) {
        return ((org.apache.beam.sdk.values.Row) arg).getInt32("scale");
      }
    }
    return -1;
  }

  static BigDecimal withScale(BigDecimal value, int declaredScale) {
    return declaredScale >= 0 && value.scale() < declaredScale
        ? value.setScale(declaredScale)
        : value;
  }
}
