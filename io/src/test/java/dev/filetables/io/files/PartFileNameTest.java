package dev.filetables.io.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartFileNameTest {
  private static final String UUID = "123e4567-e89b-12d3-a456-426614174000";

  @Test
  void namesAndTheirParts() {
    String visible = PartFileName.visible(UUID, "3", 12, ".csv.gz");
    String hidden = PartFileName.hidden(UUID, "3", 12, ".csv.gz");
    assertEquals("part-" + UUID + "-3-12.csv.gz", visible);
    assertEquals("." + visible + ".inprogress", hidden);
    assertEquals(visible, PartFileName.visibleOf(hidden));
    assertTrue(PartFileName.isHidden(hidden));
    assertTrue(PartFileName.isHidden("_SUCCESS"));
    assertFalse(PartFileName.isHidden(visible));
    assertTrue(PartFileName.isInProgress(hidden));
    assertFalse(PartFileName.isInProgress(visible));

    PartFileName.Parts parts = PartFileName.parse(visible).get();
    assertEquals(UUID, parts.uuid());
    assertEquals("3", parts.writer());
    assertEquals(12, parts.counter());
    assertEquals(".csv.gz", parts.extension());
    assertFalse(parts.inProgress());
    assertEquals(visible, parts.visibleName());
    assertEquals(hidden, parts.hiddenName());

    PartFileName.Parts hiddenParts = PartFileName.parse(hidden).get();
    assertTrue(hiddenParts.inProgress());
    assertEquals(parts.visibleName(), hiddenParts.visibleName());

    PartFileName.Parts bare = PartFileName.parse("part-u-w-0").get();
    assertEquals("u", bare.uuid());
    assertEquals("w", bare.writer());
    assertEquals(0, bare.counter());
    assertEquals("", bare.extension());
    assertThrows(IllegalArgumentException.class, () -> PartFileName.visibleOf("part-u-w-0"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "part-",
        "part-u-0",
        "part--w-0",
        "part-u--0",
        "part-u-w-",
        "part-u-w-x.csv",
        "data.csv",
        "_SUCCESS",
        "compacted-part-u-w-0.csv",
        ".part-u-w-0.csv",
        "part-u-w-99999999999999999999.csv"
      })
  void otherNamesDoNotParse(String name) {
    assertEquals(Optional.empty(), PartFileName.parse(name));
  }
}
