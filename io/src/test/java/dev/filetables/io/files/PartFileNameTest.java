package dev.filetables.io.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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

  @Test
  void anAttemptTagRidesInTheHiddenNameAndVanishesFromTheVisibleOne() {
    String hidden = PartFileName.hidden("u-1", "3", 1_700_000_000_000L, ".csv.gz");
    String tag = PartFileName.newAttemptTag();
    String tagged = PartFileName.withAttempt(hidden, tag);
    assertEquals(".part-u-1-3-1700000000000.csv.gz.attempt-" + tag + ".inprogress", tagged);
    assertTrue(PartFileName.isInProgress(tagged));
    assertEquals("part-u-1-3-1700000000000.csv.gz", PartFileName.visibleOf(tagged));
    assertEquals(hidden, PartFileName.untagged(tagged));
    assertEquals(tag, PartFileName.attemptOf(tagged));
    assertEquals("", PartFileName.attemptOf(hidden));
    assertEquals(hidden, PartFileName.withAttempt(hidden, ""));
    PartFileName.Parts parts = PartFileName.parse(tagged).get();
    assertEquals(
        List.of("u-1", "3", 1_700_000_000_000L, ".csv.gz"),
        List.of(parts.uuid(), parts.writer(), parts.counter(), parts.extension()));
    // a segment of the file keeps its own suffix before the tag
    String segment = PartFileName.withAttempt(".part-u-1-3-17.csv.seg-4-7.inprogress", tag);
    assertEquals("part-u-1-3-17.csv.seg-4-7", PartFileName.visibleOf(segment));
    assertThrows(
        IllegalArgumentException.class, () -> PartFileName.withAttempt(hidden, "NOT-A-TAG"));
  }

  @Test
  void attemptsAreOrderedByTheirStart() throws InterruptedException {
    String earlier = PartFileName.newAttemptTag();
    Thread.sleep(2);
    String later = PartFileName.newAttemptTag();
    assertTrue(PartFileName.newerAttempt(later, earlier));
    assertFalse(PartFileName.newerAttempt(earlier, later));
    assertFalse(PartFileName.newerAttempt(later, later));
    assertTrue(PartFileName.newerAttempt(earlier, ""), "untagged names are older than all");
    assertFalse(PartFileName.newerAttempt("", earlier));
  }
}
