package dev.filetables.io.format.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;
import org.apache.beam.sdk.schemas.logicaltypes.FixedPrecisionNumeric;
import org.apache.beam.sdk.values.Row;

/**
 * DECIMAL(p, s) values: fitting them to a column, their fixed-width two's complement bytes, and the
 * declared scale given to decimals read from text.
 */
@Internal
public final class Decimals {
  private Decimals() {}

  /** The declared scale of a DECIMAL(p, s) field, or -1 for a decimal without one. */
  public static int declaredScale(FieldType type) {
    if (type.getTypeName() == TypeName.LOGICAL_TYPE
        && FixedPrecisionNumeric.IDENTIFIER.equals(type.getLogicalType().getIdentifier())) {
      Object arg = type.getLogicalType().getArgument();
      if (arg instanceof Row) {
        return ((Row) arg).getInt32("scale");
      }
    }
    return -1;
  }

  /**
   * A decimal read from text at its column's declared scale when that is exact ("1.5" reads as 1.50
   * in DECIMAL(10, 2)), as binary formats return it; more fraction digits than the scale are kept
   * rather than silently rounded. A {@code declaredScale} of -1 leaves the value as it is.
   */
  public static BigDecimal withScale(BigDecimal value, int declaredScale) {
    return declaredScale >= 0 && value.scale() < declaredScale
        ? value.setScale(declaredScale)
        : value;
  }

  /**
   * The value at exactly {@code scale} (rounded half-up, as Flink does), or an {@link
   * IllegalArgumentException} when it needs more than {@code precision} digits.
   */
  public static BigDecimal fit(BigDecimal value, int precision, int scale) {
    BigDecimal scaled = rescale(value, scale);
    if (scaled.precision() > precision) {
      throw new IllegalArgumentException(
          value.toPlainString() + " does not fit DECIMAL(" + precision + ", " + scale + ")");
    }
    return scaled;
  }

  /** The value at {@code scale}, rounding half-up when a file stores more fraction digits. */
  static BigDecimal rescale(BigDecimal value, int scale) {
    return value.scale() == scale ? value : value.setScale(scale, RoundingMode.HALF_UP);
  }

  /** Bytes needed to hold any unscaled value of {@code precision} digits in two's complement. */
  public static int fixedLength(int precision) {
    BigInteger max = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
    return (max.bitLength() + 1 + 7) / 8; // + sign bit
  }

  /** Big-endian two's complement of {@code unscaled}, sign-extended to {@code length} bytes. */
  public static byte[] toFixed(BigInteger unscaled, int length) {
    byte[] minimal = unscaled.toByteArray();
    if (minimal.length == length) {
      return minimal;
    }
    if (minimal.length > length) {
      throw new IllegalArgumentException(unscaled + " does not fit " + length + " bytes");
    }
    byte[] out = new byte[length];
    byte pad = (byte) (unscaled.signum() < 0 ? 0xFF : 0x00);
    int lead = length - minimal.length;
    for (int i = 0; i < lead; i++) {
      out[i] = pad;
    }
    System.arraycopy(minimal, 0, out, lead, minimal.length);
    return out;
  }
}
