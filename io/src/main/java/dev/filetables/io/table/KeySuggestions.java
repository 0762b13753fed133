package dev.filetables.io.table;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The "did you mean" for a misspelt option key: the known key at the smallest edit distance, when
 * it is close enough to be a plausible typo. Table options and every format's options use this one
 * rule, so a typo gets the same suggestion wherever it is made.
 */
@Internal
public final class KeySuggestions {
  private KeySuggestions() {}

  /**
   * The candidate closest to {@code key} (ignoring case), or empty when even the closest needs more
   * than {@code max(2, key.length() / 4)} edits. On a tie the earlier candidate wins, so pass them
   * in a stable order.
   */
  public static Optional<String> closest(String key, Collection<String> candidates) {
    String lowerKey = key.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = editDistance(lowerKey, candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    int allowed = Math.max(2, key.length() / 4);
    return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
  }

  /** Levenshtein distance (insert, delete, replace; each costs 1). */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int replace = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(replace, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
