package dev.filetables.io.format.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** DECIMAL(p, s) values: fitting them to a column and their fixed-width two's complement bytes. */
public final class Decimals {
  private Decimals() {}

  /**
   * The value at exactly {@code scale} (rounded half-up, as Flink does), or an {@link
   * IllegalArgumentException} when it needs more than {@code precision} digits.
   */
  public static BigDecimal fit(BigDecimal value, int precision, int scale) {
    BigDecimal scaled = value.scale() == scale ? value : value.setScale(scale, RoundingMode.HALF_UP);
    if (scaled.precision() > precision) {
      throw new IllegalArgumentException(
          value.toPlainString() + " does not fit DECIMAL(" + precision + ", " + scale + ")");
    }
    return scaled;
  }

  /** The value at {@code scale}, rounding half-up when a file stores more fraction digits. */
  public static BigDecimal rescale(BigDecimal value, int scale) {
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
