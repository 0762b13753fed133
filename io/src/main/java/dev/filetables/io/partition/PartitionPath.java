package dev.filetables.io.partition;

import java.util.LinkedHashMap;
import java.util.List;

/**
 * Hive-style partition directories {@code k1=v1/k2=v2}: escaping, unescaping, building and parsing.
 *
 * <ul>
 *   <li>{@link #escape}/{@link #unescape}: exactly the spec's Hive rule. Each of 0x00–0x1F, {@code
 *       " # % ' * / : = ? \} 0x7F {@code { } [ ] ^} becomes {@code %} + two upper-case hex digits;
 *       nothing else (not space, not non-ASCII). Unescaping decodes {@code %XX} (either case) to
 *       the character with that code; a {@code %} not followed by two hex digits stays as is.
 *   <li>{@link #toRelativePath}: null or empty value → default name; a string value that an
 *       independent reader would take for null or for the default partition ({@code null}, the
 *       default name or {@code __HIVE_DEFAULT_PARTITION__}, ignoring case) gets its first character
 *       %-encoded so it reads back as itself ({@code null} → {@code %6Eull}).
 *   <li>{@link #parse}: the inverse; only the (escaped) default name reads back as {@code null}.
 *       Keys are escaped and unescaped like values.
 * </ul>
 */
public final class PartitionPath {
  private PartitionPath() {}

  /** Hive's default partition name; other engines may have written it, so it is never a literal. */
  public static final String HIVE_DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final boolean[] ESCAPED = new boolean[128];

  static {
    for (char c = 0; c <= 0x1F; c++) {
      ESCAPED[c] = true;
    }
    for (char c : "\"#%'*/:=?\\{}[]^".toCharArray()) {
      ESCAPED[c] = true;
    }
    ESCAPED[0x7F] = true;
  }

  /** True if {@link #escape} encodes this character. */
  public static boolean needsEscape(char c) {
    return c < 128 && ESCAPED[c];
  }

  /** The escaped form; the same instance when nothing needs escaping (it runs once per row). */
  public static String escape(String value) {
    int n = value.length();
    int first = 0;
    while (first < n && !needsEscape(value.charAt(first))) {
      first++;
    }
    if (first == n) {
      return value;
    }
    StringBuilder out = new StringBuilder(n + 8).append(value, 0, first);
    for (int i = first; i < n; i++) {
      char c = value.charAt(i);
      if (needsEscape(c)) {
        appendEncoded(out, c);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  public static String unescape(String text) {
    int first = text.indexOf('%');
    if (first < 0) {
      return text;
    }
    int n = text.length();
    StringBuilder out = new StringBuilder(n).append(text, 0, first);
    for (int i = first; i < n; i++) {
      int value = escapedByteAt(text, i);
      if (value < 0) {
        out.append(text.charAt(i));
      } else if (value < 0x80) {
        out.append((char) value);
        i += 2;
      } else {
        i = appendUtf8Run(text, i, out) - 1;
      }
    }
    return out.toString();
  }

  /** The byte encoded by {@code %XX} at {@code i}, or -1 when there is no such escape there. */
  private static int escapedByteAt(String text, int i) {
    if (text.charAt(i) != '%' || i + 2 >= text.length()) {
      return -1;
    }
    int hi = hexValue(text.charAt(i + 1));
    int lo = hexValue(text.charAt(i + 2));
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
  }

  /**
   * Decodes a run of escapes of bytes >= 0x80 starting at {@code start}. Hive never escapes
   * non-ASCII characters, so such escapes come from writers that percent-encode UTF-8 (DuckDB, URL
   * encoders): decode them as UTF-8 when valid, else keep Hive's one-char-per-escape reading.
   * Returns the index after the run.
   */
  private static int appendUtf8Run(String text, int start, StringBuilder out) {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    int i = start;
    int value;
    while (i < text.length() && (value = escapedByteAt(text, i)) >= 0x80) {
      bytes.write(value);
      i += 3;
    }
    byte[] run = bytes.toByteArray();
    try {
      out.append(
          java.nio.charset.StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
              .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(run)));
    } catch (java.nio.charset.CharacterCodingException e) {
      for (byte b : run) {
        out.append((char) (b & 0xFF));
      }
    }
    return i;
  }

  /**
   * The directory segment {@code key=value} for one raw (unescaped) value; null or empty means the
   * default partition.
   */
  public static String toSegment(String key, String value, String defaultName) {
    checkDefaultName(defaultName);
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException(
          "A partition key must not be null or empty, was '" + key + "'");
    }
    return escape(key) + "=" + escapeValue(value, defaultName);
  }

  /** {@code k1=v1/k2=v2} for raw (unescaped, string) values; null means the default partition. */
  public static String toRelativePath(List<String> keys, List<String> values, String defaultName) {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(
          "Got "
              + values.size()
              + " partition values "
              + values
              + " for "
              + keys.size()
              + " partition keys "
              + keys);
    }
    if (keys.size() == 1) {
      return toSegment(keys.get(0), values.get(0), defaultName);
    }
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < keys.size(); i++) {
      if (i > 0) {
        path.append('/');
      }
      path.append(toSegment(keys.get(i), values.get(i), defaultName));
    }
    return path.toString();
  }

  /** Parses {@code k1=v1/k2=v2} into key → raw value (null for the default partition), in order. */
  public static LinkedHashMap<String, String> parse(String relativePath, String defaultName) {
    checkDefaultName(defaultName);
    LinkedHashMap<String, String> partition = new LinkedHashMap<>();
    for (String segment : segments(relativePath)) {
      int eq = segment.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "Partition directory '"
                + segment
                + "' in '"
                + relativePath
                + "' is not of the form key=value");
      }
      String key = unescape(segment.substring(0, eq));
      if (partition.containsKey(key)) {
        throw new IllegalArgumentException(
            "Partition key '" + key + "' appears twice in '" + relativePath + "'");
      }
      partition.put(key, segmentValue(segment, eq + 1, defaultName));
    }
    return partition;
  }

  /**
   * Parses {@code k1=v1/k2=v2} checking that segment i names {@code keys[i]} and that there is one
   * segment per key; the error names the expected layout.
   */
  public static LinkedHashMap<String, String> parse(
      String relativePath, List<String> keys, String defaultName) {
    checkDefaultName(defaultName);
    List<String> segments = segments(relativePath);
    if (segments.size() != keys.size()) {
      throw new IllegalArgumentException(
          "Partition path '"
              + relativePath
              + "' has "
              + segments.size()
              + " levels, expected "
              + keys.size()
              + ": "
              + layout(keys));
    }
    LinkedHashMap<String, String> partition = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      String segment = segments.get(i);
      if (!isSegmentFor(segment, keys.get(i))) {
        throw new IllegalArgumentException(
            "Partition directory '"
                + segment
                + "' at level "
                + (i + 1)
                + " of '"
                + relativePath
                + "' is not for partition key '"
                + keys.get(i)
                + "'; expected "
                + layout(keys));
      }
      partition.put(
          keys.get(i), segmentValue(segment, escape(keys.get(i)).length() + 1, defaultName));
    }
    return partition;
  }

  /** True if the directory name {@code segment} is {@code key=<anything>} for this (raw) key. */
  public static boolean isSegmentFor(String segment, String key) {
    String escapedKey = escape(key);
    return segment.length() > escapedKey.length()
        && segment.charAt(escapedKey.length()) == '='
        && segment.startsWith(escapedKey);
  }

  /**
   * The raw value of a directory name {@code key=value} for the given key (null for the default
   * partition); an {@link IllegalArgumentException} if the name is not for that key.
   */
  public static String segmentValue(String segment, String key, String defaultName) {
    if (!isSegmentFor(segment, key)) {
      throw new IllegalArgumentException(
          "Partition directory '" + segment + "' is not for partition key '" + key + "'");
    }
    return segmentValue(segment, escape(key).length() + 1, defaultName);
  }

  /**
   * Rejects default partition names that cannot be written or protected: empty, or starting with a
   * character above U+00FF (a colliding literal could not have its first character %-encoded).
   */
  public static void checkDefaultName(String defaultName) {
    if (defaultName == null || defaultName.isEmpty()) {
      throw new IllegalArgumentException("The default partition name must not be null or empty");
    }
    if (defaultName.charAt(0) > 0xFF) {
      throw new IllegalArgumentException(
          "The default partition name '"
              + defaultName
              + "' must start with a character up to U+00FF");
    }
  }

  private static String escapeValue(String value, String defaultName) {
    if (value == null || value.isEmpty()) {
      return escape(defaultName);
    }
    if (readsAsNullOrDefault(value, defaultName)) {
      // Encode the first character: the directory name no longer equals the marker, and every
      // reader that unescapes gets the literal string back.
      StringBuilder out = new StringBuilder(value.length() + 2);
      appendEncoded(out, value.charAt(0));
      return out.append(escape(value.substring(1))).toString();
    }
    return escape(value);
  }

  private static boolean readsAsNullOrDefault(String value, String defaultName) {
    return value.equalsIgnoreCase("null")
        || value.equalsIgnoreCase(defaultName)
        || value.equalsIgnoreCase(HIVE_DEFAULT_PARTITION);
  }

  private static String segmentValue(String segment, int valueStart, String defaultName) {
    String escapedValue = segment.substring(valueStart);
    if (escapedValue.equals(escape(defaultName))) {
      return null;
    }
    return unescape(escapedValue);
  }

  private static List<String> segments(String relativePath) {
    List<String> segments = new java.util.ArrayList<>();
    for (String segment : relativePath.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(segment);
      }
    }
    return segments;
  }

  private static String layout(List<String> keys) {
    if (keys.isEmpty()) {
      return "no partition directories";
    }
    StringBuilder out = new StringBuilder();
    for (String key : keys) {
      out.append(out.length() == 0 ? "" : "/").append(escape(key)).append("=...");
    }
    return out.toString();
  }

  private static void appendEncoded(StringBuilder out, char c) {
    out.append('%').append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
  }

  private static int hexValue(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }
}
