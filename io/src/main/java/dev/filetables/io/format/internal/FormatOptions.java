package dev.filetables.io.format.internal;

import dev.filetables.io.table.KeySuggestions;
import dev.filetables.io.table.MemorySizes;
import dev.filetables.io.table.OptionMessages;
import dev.filetables.io.table.TableDefinitionException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Reads the options of one format (keys without the {@code <format>.} prefix) for every format, and
 * fails with a {@link TableDefinitionException} that names the full key, the value and what is
 * allowed.
 */
@Internal
public final class FormatOptions {
  private final String format;
  private final Map<String, String> options;

  private FormatOptions(String format, Map<String, String> options) {
    this.format = format;
    this.options = options == null ? Map.of() : options;
  }

  /** Wraps the options after checking every key is one of {@code known}. */
  public static FormatOptions of(
      String format, Map<String, String> options, Collection<String> known) {
    FormatOptions result = new FormatOptions(format, options);
    TreeSet<String> sorted = new TreeSet<>(known);
    for (String key : result.options.keySet()) {
      if (!known.contains(key)) {
        Optional<String> closest = KeySuggestions.closest(key, sorted).map(result::fullKey);
        throw new TableDefinitionException(
            OptionMessages.unknownOption(result.fullKey(key), closest)
                + " Supported "
                + format
                + " options: "
                + String.join(", ", sorted.stream().map(result::fullKey).toList()));
      }
    }
    return result;
  }

  /** The key as written in table options, e.g. {@code csv.field-delimiter}. */
  public String fullKey(String key) {
    return format + "." + key;
  }

  public boolean has(String key) {
    return options.containsKey(key);
  }

  public String string(String key, String defaultValue) {
    String value = options.get(key);
    return value == null ? defaultValue : value;
  }

  public boolean bool(String key, boolean defaultValue) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true")) {
      return true;
    }
    if (v.equals("false")) {
      return false;
    }
    throw fail(key, value, "true or false");
  }

  /** One of {@code allowed}, compared case-insensitively; returns the allowed spelling. */
  public String oneOf(String key, String defaultValue, String... allowed) {
    return oneOf(key, defaultValue, Arrays.asList(allowed));
  }

  /** One of {@code allowed}, compared case-insensitively; returns the allowed spelling. */
  public String oneOf(String key, String defaultValue, List<String> allowed) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    for (String a : allowed) {
      if (a.equalsIgnoreCase(value.trim())) {
        return a;
      }
    }
    throw fail(key, value, "one of " + String.join(", ", allowed));
  }

  /** A whole number in {@code [min, max]}, e.g. a page row limit or a compression level. */
  public int integer(String key, int defaultValue, int min, int max) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      int v = Integer.parseInt(value.trim());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw fail(key, value, "an integer in [" + min + ", " + max + "]");
  }

  /** A number in {@code [min, max]}, e.g. a false-positive probability or a ratio. */
  public double number(String key, double defaultValue, double min, double max) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      double v = Double.parseDouble(value.trim());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw fail(key, value, "a number in [" + min + ", " + max + "]");
  }

  /** A size in bytes: plain bytes (what Hadoop-style keys take) or a size such as {@code 64 mb}. */
  public long bytes(String key, long defaultValue, long min, long max) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    long v;
    try {
      v = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      try {
        v = MemorySizes.parse(value);
      } catch (TableDefinitionException notASize) {
        throw fail(key, value, "a size in bytes (e.g. 134217728 or 128mb)");
      }
    }
    if (v < min || v > max) {
      throw fail(key, value, "a size between " + min + " and " + max + " bytes");
    }
    return v;
  }

  /**
   * A single ASCII character, or -1 when the key is absent and {@code defaultChar} is -1. Accepts
   * Java style escapes as Flink does for its delimiter ({@code \t}, {@code \\}, {@code \'}, {@code
   * \"}, {@code \}{@code uXXXX}), because SQL string literals cannot hold a raw tab.
   */
  public int asciiChar(String key, int defaultChar) {
    String value = options.get(key);
    if (value == null) {
      return defaultChar;
    }
    int c = unescapeSingleChar(value);
    if (c < 0) {
      throw fail(key, value, "a single character (escapes such as \\t or \\u0001 are accepted)");
    }
    if (c >= 0x80) {
      throw fail(key, value, "a single ASCII character");
    }
    if (c == '\n' || c == '\r') {
      throw fail(key, value, "a character other than a line break");
    }
    return c;
  }

  private static int unescapeSingleChar(String v) {
    if (v.length() == 1) {
      return v.charAt(0);
    }
    if (v.length() == 2 && v.charAt(0) == '\\') {
      switch (v.charAt(1)) {
        case 't':
          return '\t';
        case '\\':
          return '\\';
        case '\'':
          return '\'';
        case '"':
          return '"';
        case '0':
          return 0;
        default:
          return -1;
      }
    }
    if (v.length() == 6 && v.startsWith("\\u")) {
      try {
        return Integer.parseInt(v.substring(2), 16);
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  /** The error for a bad value: names the full key, the value and what {@code allowed} says. */
  public TableDefinitionException fail(String key, String value, String allowed) {
    return new TableDefinitionException(
        OptionMessages.invalidValue(fullKey(key), value, "expected " + allowed));
  }

  /** The error for options that are fine alone but not together. */
  public TableDefinitionException conflict(String message) {
    return new TableDefinitionException("Invalid " + format + " options: " + message);
  }
}
