package dev.filetables.io.table;

import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/** Wording shared by table option and format option errors, so both read the same. */
@Internal
public final class OptionMessages {
  private OptionMessages() {}

  /**
   * {@code Invalid value '<value>' for option '<key>': <problem>}, with control characters in the
   * value written as Unicode escapes so the message stays readable.
   */
  public static String invalidValue(String key, String value, String problem) {
    return "Invalid value '" + shown(value) + "' for option '" + key + "': " + problem;
  }

  /** {@code Unknown option '<key>'.}, followed by {@code Did you mean '<suggestion>'?} if any. */
  public static String unknownOption(String key, Optional<String> suggestion) {
    return "Unknown option '"
        + key
        + "'."
        + suggestion.map(s -> " Did you mean '" + s + "'?").orElse("");
  }

  private static String shown(String value) {
    StringBuilder out = new StringBuilder();
    for (char c : value.toCharArray()) {
      out.append(Character.isISOControl(c) ? String.format("\\u%04X", (int) c) : String.valueOf(c));
    }
    return out.toString();
  }
}
