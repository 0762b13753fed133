package dev.filetables.pipelines;

/**
 * Whole numbers on the command line: {@code 1_200_000}, {@code 1,200,000}, {@code 20k}, {@code 2M},
 * {@code 1.2m} (a fraction only with a suffix, and only one that gives a whole number).
 */
final class Counts {
  private Counts() {}

  /** Parses option {@code --name}'s value; a usage error says what is wrong. */
  static long parse(String name, String value, long min) {
    String text = value.trim().replace("_", "").replace(",", "");
    long factor = 1;
    if (text.endsWith("k") || text.endsWith("K")) {
      factor = 1_000;
      text = text.substring(0, text.length() - 1);
    } else if (text.endsWith("m") || text.endsWith("M")) {
      factor = 1_000_000;
      text = text.substring(0, text.length() - 1);
    }
    long parsed;
    try {
      parsed =
          new java.math.BigDecimal(text)
              .multiply(java.math.BigDecimal.valueOf(factor))
              .longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw CliException.usage(
          "--" + name + " must be a whole number (e.g. 20000, 20k, 1.2M), not '" + value + "'");
    }
    if (parsed < min) {
      throw CliException.usage("--" + name + " must be at least " + min + ", not " + value);
    }
    return parsed;
  }
}
