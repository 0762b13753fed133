package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeySuggestionsTest {
  private static final List<String> KEYS =
      List.of("path", "format", "field-delimiter", "sink.rolling-policy.file-size");

  @Test
  void suggestsTheClosestKeyIgnoringCase() {
    assertEquals(Optional.of("path"), KeySuggestions.closest("PATH", KEYS));
    assertEquals(Optional.of("field-delimiter"), KeySuggestions.closest("feild-delimiter", KEYS));
    assertEquals(
        Optional.of("sink.rolling-policy.file-size"),
        KeySuggestions.closest("sink.rolling-policy.file-sise", KEYS));
  }

  @Test
  void nothingWhenNoKeyIsPlausiblyMeant() {
    assertEquals(Optional.empty(), KeySuggestions.closest("totally.unrelated", KEYS));
    assertEquals(Optional.empty(), KeySuggestions.closest("abc", KEYS));
    assertEquals(Optional.empty(), KeySuggestions.closest("path", List.of()));
  }

  @Test
  void allowedDistanceGrowsWithTheKey() {
    // two edits are always allowed; longer keys allow a quarter of their length
    assertEquals(Optional.of("format"), KeySuggestions.closest("frmt", KEYS));
    assertEquals(Optional.empty(), KeySuggestions.closest("frm", KEYS));
    assertEquals(
        Optional.of("sink.rolling-policy.file-size"),
        KeySuggestions.closest("sink.roling-polcy.fil-size", KEYS));
  }

  @Test
  void editDistance() {
    assertEquals(0, KeySuggestions.editDistance("abc", "abc"));
    assertEquals(2, KeySuggestions.editDistance("feild", "field"));
    assertEquals(3, KeySuggestions.editDistance("", "abc"));
    assertEquals(1, KeySuggestions.editDistance("codex", "codec"));
  }
}
