package dev.filetables.io.format;

import dev.filetables.io.table.KeySuggestions;
import dev.filetables.io.table.TableDefinitionException;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads the options of one format (keys without the {@code <format>.} prefix) and fails with a
 * {@link TableDefinitionException} that names the full key, the value and what is allowed.
 */
final class FormatOptions {
  private final String format;
  private final Map<String, String> options;

  private FormatOptions(String format, Map<String, String> options) {
    this.format = format;
    this.options = options == null ? Map.of() : options;
  }

  /** Wraps the options after checking every key is one of {@code known}. */
  static FormatOptions of(String format, Map<String, String> options, Collection<String> known) {
    FormatOptions result = new FormatOptions(format, options);
    for (String key : result.options.keySet()) {
      if (!known.contains(key)) {
        String closest = KeySuggestions.closest(key, new TreeSet<>(known)).orElse(null);
        throw new TableDefinitionException(
            "Unknown option '"
                + result.fullKey(key)
                + "' for format "
                + format
                + (closest == null ? "" : "; did you mean '" + result.fullKey(closest) + "'?")
                + " Supported "
                + format
                + " options: "
                + String.join(", ", new TreeSet<>(known).stream().map(result::fullKey).toList()));
      }
    }
    return result;
  }

  String fullKey(String key) {
    return format + "." + key;
  }

  boolean has(String key) {
    return options.containsKey(key);
  }

  String string(String key, String defaultValue) {
    String value = options.get(key);
    return value == null ? defaultValue : value;
  }

  boolean bool(String key, boolean defaultValue) {
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
  String oneOf(String key, String defaultValue, String... allowed) {
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

  /**
   * A single ASCII character, or -1 when the key is absent and {@code defaultChar} is -1. Accepts
   * Java style escapes as Flink does for its delimiter ({@code \t}, {@code \\}, {@code \'}, {@code
   * \"}, {@code \}{@code uXXXX}), because SQL string literals cannot hold a raw tab.
   */
  int asciiChar(String key, int defaultChar) {
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

  TableDefinitionException fail(String key, String value, String allowed) {
    return new TableDefinitionException(
        "Invalid value '" + value + "' for option '" + fullKey(key) + "': expected " + allowed);
  }

  TableDefinitionException conflict(String message) {
    return new TableDefinitionException("Invalid " + format + " options: " + message);
  }
}
