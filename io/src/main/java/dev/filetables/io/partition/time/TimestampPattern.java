package dev.filetables.io.partition.time;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code partition.time-extractor.timestamp-pattern} such as {@code $dt $hour:00:00}, resolved
 * against the table's partition keys into literal text and key references.
 *
 * <p>Unlike Flink (which runs {@code String.replaceAll("\\$" + key, value)} once per key) this is
 * plain text substitution in one pass: a value containing {@code $1} or {@code \} is inserted as
 * is, a value is never substituted again, and at each {@code $} the <em>longest</em> partition key
 * that follows is taken, so {@code $dt} is never read as {@code $d} + {@code t}. A {@code $} not
 * followed by a partition key stays literal text.
 */
final class TimestampPattern {
  /**
   * One piece of a pattern: literal text, or the value of the partition key at {@code keyIndex}.
   */
  private static final class Piece {
    final String literal;
    final int keyIndex;

    Piece(String literal, int keyIndex) {
      this.literal = literal;
      this.keyIndex = keyIndex;
    }

    boolean isKey() {
      return literal == null;
    }
  }

  private final String text;
  private final List<String> keys;
  private final List<Piece> pieces;

  private TimestampPattern(String text, List<String> keys, List<Piece> pieces) {
    this.text = text;
    this.keys = List.copyOf(keys);
    this.pieces = pieces;
  }

  /** The pattern resolved against the partition keys. */
  static TimestampPattern parse(String pattern, List<String> keys) {
    List<Piece> pieces = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      int key = c == '$' ? longestKeyAt(pattern, i + 1, keys) : -1;
      if (key < 0) {
        literal.append(c);
        i++;
        continue;
      }
      if (literal.length() > 0) {
        pieces.add(new Piece(literal.toString(), -1));
        literal.setLength(0);
      }
      pieces.add(new Piece(null, key));
      i += 1 + keys.get(key).length();
    }
    if (literal.length() > 0) {
      pieces.add(new Piece(literal.toString(), -1));
    }
    return new TimestampPattern(pattern, keys, pieces);
  }

  /** No pattern: the timestamp is the first partition value (Flink's default). */
  static TimestampPattern firstKey(List<String> keys) {
    if (keys.isEmpty()) {
      throw new PartitionTimeException(
          "The table has no partition keys, so there is no partition value to read a time from");
    }
    return new TimestampPattern(null, keys, List.of(new Piece(null, 0)));
  }

  private static int longestKeyAt(String pattern, int from, List<String> keys) {
    int best = -1;
    for (int k = 0; k < keys.size(); k++) {
      String key = keys.get(k);
      if (!key.isEmpty()
          && pattern.startsWith(key, from)
          && (best < 0 || key.length() > keys.get(best).length())) {
        best = k;
      }
    }
    return best;
  }

  /** The pattern as configured, or a description of the default for messages. */
  String describe() {
    return text != null ? "'" + text + "'" : "(none: the first partition value)";
  }

  /** The partition keys the pattern refers to, in pattern order, without repeats. */
  List<String> keysUsed() {
    List<String> used = new ArrayList<>();
    for (Piece piece : pieces) {
      if (piece.isKey() && !used.contains(keys.get(piece.keyIndex))) {
        used.add(keys.get(piece.keyIndex));
      }
    }
    return used;
  }

  /** True if two key references follow each other with no literal text between them. */
  boolean hasAdjacentKeys() {
    for (int i = 1; i < pieces.size(); i++) {
      if (pieces.get(i).isKey() && pieces.get(i - 1).isKey()) {
        return true;
      }
    }
    return false;
  }

  /** The timestamp text for these values (in key order); a null value used by the pattern fails. */
  String substitute(List<String> values) {
    if (values.size() != keys.size()) {
      throw new PartitionTimeException(
          "Got " + values.size() + " partition values " + values + " for partition keys " + keys);
    }
    StringBuilder out = new StringBuilder();
    for (Piece piece : pieces) {
      if (!piece.isKey()) {
        out.append(piece.literal);
        continue;
      }
      String value = values.get(piece.keyIndex);
      if (value == null) {
        throw new PartitionTimeException(
            "partition key '"
                + keys.get(piece.keyIndex)
                + "' has no value (default partition), so the partition has no time");
      }
      out.append(value);
    }
    return out.toString();
  }

  /**
   * The inverse of {@link #substitute}: cuts {@code timestamp} into the values of the keys the
   * pattern uses, or empty if it does not fit. Literal digits of the pattern (the {@code 00:00} of
   * {@code $dt $hour:00:00}) match any digit, because they stand for the fields a partition
   * truncates; other literal text must match exactly. Each value is the shortest that lets the rest
   * match, so a literal separator ends a value at its first occurrence.
   */
  Optional<Map<String, String>> split(String timestamp) {
    StringBuilder regex = new StringBuilder();
    for (Piece piece : pieces) {
      if (piece.isKey()) {
        regex.append("(.+?)");
        continue;
      }
      StringBuilder run = new StringBuilder();
      for (char c : piece.literal.toCharArray()) {
        if (c >= '0' && c <= '9') {
          if (run.length() > 0) {
            regex.append(Pattern.quote(run.toString()));
            run.setLength(0);
          }
          regex.append("[0-9]");
        } else {
          run.append(c);
        }
      }
      if (run.length() > 0) {
        regex.append(Pattern.quote(run.toString()));
      }
    }
    Matcher matcher = Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(timestamp);
    if (!matcher.matches()) {
      return Optional.empty();
    }
    Map<String, String> values = new LinkedHashMap<>();
    int group = 1;
    for (Piece piece : pieces) {
      if (!piece.isKey()) {
        continue;
      }
      String key = keys.get(piece.keyIndex);
      String value = matcher.group(group++);
      String earlier = values.putIfAbsent(key, value);
      if (earlier != null && !earlier.equals(value)) {
        return Optional.empty(); // a key used twice must have one value
      }
    }
    return Optional.of(values);
  }
}
