package dev.filetables.io.format.internal;

import dev.filetables.io.table.KeySuggestions;
import dev.filetables.io.table.MemorySizes;
import dev.filetables.io.table.TableDefinitionException;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** Validation of format options (keys given without the {@code <format>.} prefix). */
public final class OptionChecks {
  private OptionChecks() {}

  /** Fails on the first key not in {@code known}, suggesting the closest known key. */
  public static void rejectUnknownKeys(String format, Map<String, String> options, Collection<String> known) {
    for (String key : options.keySet()) {
      if (!known.contains(key)) {
        String closest = KeySuggestions.closest(key, new TreeSet<>(known)).orElse(null);
        throw new TableDefinitionException(
            "Unknown option '"
                + format
                + "."
                + key
                + "'"
                + (closest == null ? "" : "; did you mean '" + format + "." + closest + "'?")
                + " Supported "
                + format
                + " options: "
                + prefixed(format, known));
      }
    }
  }

  public static boolean parseBoolean(String format, String key, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return v.equals("true");
    }
    throw new TableDefinitionException(
        "Option '" + format + "." + key + "' must be true or false, not '" + value + "'");
  }

  /** A positive int, e.g. a page size or a level. */
  public static int parseInt(String format, String key, String value, int min, int max) {
    try {
      int v = Integer.parseInt(value.trim());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new TableDefinitionException(
        "Option '" + format + "." + key + "' must be an integer in [" + min + ", " + max + "], not '" + value + "'");
  }

  /** A size in bytes: plain bytes (what Hadoop-style keys take) or a size such as {@code 64 mb}. */
  public static long parseBytes(String format, String key, String value, long min, long max) {
    long v;
    try {
      v = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      try {
        v = MemorySizes.parse(value);
      } catch (RuntimeException notASize) {
        throw new TableDefinitionException(
            "Option '" + format + "." + key + "' must be a size in bytes (e.g. 134217728 or 128mb), not '" + value + "'",
            notASize);
      }
    }
    if (v < min || v > max) {
      throw new TableDefinitionException(
          "Option '" + format + "." + key + "' must be between " + min + " and " + max + " bytes, not '" + value + "'");
    }
    return v;
  }

  private static String prefixed(String format, Collection<String> known) {
    TreeSet<String> sorted = new TreeSet<>();
    for (String k : known) {
      sorted.add(format + "." + k);
    }
    return String.join(", ", sorted);
  }
}
