package dev.filetables.io.table;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Parses and formats memory sizes in Flink's {@code MemorySize} forms: {@code 128MB}, {@code 128
 * mb}, {@code 1 kb}, {@code 1gb}, {@code 64m}, {@code 1k}, plain bytes.
 *
 * <p>As in Flink, every unit is a binary multiple ({@code 1kb} = 1024 bytes) and units are
 * case-insensitive; the number is a non-negative whole number.
 */
@Internal
public final class MemorySizes {
  private MemorySizes() {}

  /** Units from largest to smallest; the second label is the one {@link #format} prints. */
  private enum Unit {
    TERA(1L << 40, "t", "tb", "tebibytes"),
    GIGA(1L << 30, "g", "gb", "gibibytes"),
    MEGA(1L << 20, "m", "mb", "mebibytes"),
    KILO(1L << 10, "k", "kb", "kibibytes"),
    BYTES(1L, "b", "bytes");

    final long multiplier;
    final List<String> labels;

    Unit(long multiplier, String... labels) {
      this.multiplier = multiplier;
      this.labels = List.of(labels);
    }

    String displayLabel() {
      return this == BYTES ? "b" : labels.get(1);
    }
  }

  static final String ACCEPTED_FORMS =
      "a whole number of bytes with an optional unit, e.g. '128MB', '128 mb', '1 kb', '1gb', '64m',"
          + " '1048576' (plain bytes); units (binary multiples, any case): b|bytes, k|kb|kibibytes,"
          + " m|mb|mebibytes, g|gb|gibibytes, t|tb|tebibytes";

  /**
   * Parses a size into bytes; throws {@link TableDefinitionException} naming the text and the
   * accepted forms for bad text, negative values and sizes beyond {@link Long#MAX_VALUE} bytes.
   */
  public static long parse(String text) {
    if (text == null) {
      throw new TableDefinitionException("Invalid memory size: null; expected " + ACCEPTED_FORMS);
    }
    String trimmed = text.trim();
    int end = 0;
    while (end < trimmed.length() && trimmed.charAt(end) >= '0' && trimmed.charAt(end) <= '9') {
      end++;
    }
    String number = trimmed.substring(0, end);
    String label = trimmed.substring(end).trim().toLowerCase(Locale.ROOT);
    if (number.isEmpty()) {
      String why = trimmed.startsWith("-") ? " (negative)" : "";
      throw invalid(text, why);
    }
    Unit unit = label.isEmpty() ? Unit.BYTES : unitOf(label);
    if (unit == null) {
      throw invalid(text, " (unknown unit '" + label + "')");
    }
    BigInteger bytes = new BigInteger(number).multiply(BigInteger.valueOf(unit.multiplier));
    if (bytes.bitLength() > 63) {
      throw invalid(text, " (larger than " + Long.MAX_VALUE + " bytes)");
    }
    return bytes.longValue();
  }

  private static Unit unitOf(String label) {
    for (Unit unit : Unit.values()) {
      if (unit.labels.contains(label)) {
        return unit;
      }
    }
    return null;
  }

  private static TableDefinitionException invalid(String text, String why) {
    return new TableDefinitionException(
        "Invalid memory size '" + text + "'" + why + "; expected " + ACCEPTED_FORMS);
  }

  /**
   * Formats a size in the largest unit that represents it exactly: 128 MiB → {@code 128mb}, 1024 →
   * {@code 1kb}, 1500 → {@code 1500b}; the result parses back to the same number of bytes.
   */
  static String format(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("Negative size " + bytes + " cannot be formatted");
    }
    if (bytes == 0) {
      return "0b";
    }
    for (Unit unit : Unit.values()) {
      if (bytes % unit.multiplier == 0) {
        return (bytes / unit.multiplier) + unit.displayLabel();
      }
    }
    throw new AssertionError(bytes);
  }
}
