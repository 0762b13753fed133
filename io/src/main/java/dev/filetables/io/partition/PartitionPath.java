package dev.filetables.io.partition;

import java.util.LinkedHashMap;
import java.util.List;

/**
 * Hive-style partition directories {@code k1=v1/k2=v2}: escaping, unescaping, building and parsing.
 *
 * <p>SKELETON – contract:
 * <ul>
 *   <li>{@link #escape}/{@link #unescape}: exactly the spec's Hive rule.
 *   <li>{@link #toRelativePath}: null or empty value → default name; a string value that an
 *       independent reader would take for null or for the default partition ({@code null}, {@code NULL},
 *       the default name, any case) gets its first character %-encoded so it reads back as itself.
 *   <li>{@link #parse}: the inverse; the default name reads back as {@code null}.
 * </ul>
 */
public final class PartitionPath {
  private PartitionPath() {}

  public static String escape(String value) {
    throw new UnsupportedOperationException("TODO");
  }

  public static String unescape(String text) {
    throw new UnsupportedOperationException("TODO");
  }

  /** {@code k1=v1/k2=v2} for raw (unescaped, string) values; null means the default partition. */
  public static String toRelativePath(List<String> keys, List<String> values, String defaultName) {
    throw new UnsupportedOperationException("TODO");
  }

  /** Parses {@code k1=v1/k2=v2} into key → raw value (null for the default partition), in order. */
  public static LinkedHashMap<String, String> parse(String relativePath, String defaultName) {
    throw new UnsupportedOperationException("TODO");
  }
}
