package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

/**
 * When an open part file's segment files are combined: the count stays bounded however many bundles
 * the file gets, rows are copied a bounded number of times (not once per bundle), and the plan
 * follows from the state alone, which round-trips through the state coder.
 */
class SegmentCombinerTest {
  private static final String PART = ".part-u-3-1700000000000.csv.inprogress";

  /** What one open file goes through: segment files and how many segments were copied. */
  private static final class Simulation {
    final SegmentCombiner combiner;
    final OpenFile file = new OpenFile("dt=1", PART, 1700000000000L, 0);
    long copiedSegments;
    int combines;
    int maxFiles;

    Simulation(int maxFiles) {
      this.combiner = new SegmentCombiner(maxFiles);
    }

    /** One bundle: combine as the writer does, then begin the bundle's segment. */
    void bundle() {
      int from = combiner.combineFrom(file.starts, file.segments);
      if (from >= 0) {
        assertTrue(file.starts.size() - from >= 2, "combines at least two files");
        copiedSegments += file.segments - file.firstOf(from);
        combines++;
        file.combinedFrom(from, "");
      }
      file.beginSegment(1, "");
      maxFiles = Math.max(maxFiles, file.starts.size());
    }
  }

  @Test
  void segmentFilesStayBoundedOverManyBundles() {
    for (int max : new int[] {2, 3, 4, 5, 8, 16, 32}) {
      Simulation sim = new Simulation(max);
      for (int bundle = 0; bundle < 5_000; bundle++) {
        sim.bundle();
        assertTrue(sim.file.starts.size() <= max, max + ": " + sim.file.starts);
      }
      if (max <= 16) { // 5,000 bundles fill only about 6 levels of 4
        assertTrue(
            sim.maxFiles >= max - 2, "the bound is nearly reached: " + max + " " + sim.maxFiles);
      }
      // consecutive, in order, covering every segment
      List<String> names = sim.file.segmentFiles();
      assertEquals(SegmentFiles.segmentName(PART, 0, sim.file.lastOf(0)), names.get(0));
      assertEquals(SegmentFiles.segmentName(PART, 4_999), names.get(names.size() - 1));
    }
  }

  @Test
  void rowsAreCopiedAFewTimesNotOncePerBundle() {
    // the default: levels of 1, 4, 16, 64 and 256+ segments
    Simulation sim = new Simulation(SegmentCombiner.DEFAULT_MAX_FILES);
    for (int bundle = 0; bundle < 1_024; bundle++) {
      sim.bundle();
    }
    // each segment climbs at most 4 levels, each climb one copy
    assertTrue(sim.copiedSegments <= 4 * 1_024, "copies " + sim.copiedSegments);
    for (int bundle = 1_024; bundle < 3_600; bundle++) {
      sim.bundle(); // an hour of 1-second bundles
    }
    double perSegment = sim.copiedSegments / 3_600.0;
    assertTrue(perSegment < 7, "copies per segment after an hour of 1 s bundles: " + perSegment);
    // quadratic would be ~ 3,600 / 2 per segment with a combine of everything per bundle
    assertTrue(sim.combines < 3_600 / 2, "combines: " + sim.combines);
  }

  @Test
  void smallBoundsStillCombineAtLeastTwoFilesAndRejectBelowTwo() {
    Simulation two = new Simulation(2);
    for (int bundle = 0; bundle < 10; bundle++) {
      two.bundle();
    }
    assertEquals(List.of(0, 9), two.file.starts);
    assertThrows(IllegalArgumentException.class, () -> new SegmentCombiner(1));
  }

  @Test
  void theSamePlanFollowsFromRestoredState() throws Exception {
    Simulation sim = new Simulation(5);
    for (int bundle = 0; bundle < 37; bundle++) {
      sim.bundle();
    }
    OpenFile back =
        CoderUtils.decodeFromByteArray(
            OpenFile.Coder.of(), CoderUtils.encodeToByteArray(OpenFile.Coder.of(), sim.file));
    assertEquals(sim.file.starts, back.starts);
    assertEquals(sim.file.segmentFiles(), back.segmentFiles());
    assertEquals(
        sim.combiner.combineFrom(sim.file.starts, sim.file.segments),
        sim.combiner.combineFrom(back.starts, back.segments));
  }

  @Test
  void stateWithoutCombinesHasOneFilePerSegmentAndIsCombinedDownAtOnce() throws Exception {
    OpenFile file = new OpenFile("dt=1", PART, 1700000000000L, 0);
    for (int n = 0; n < 40; n++) {
      file.beginSegment(1, "");
    }
    // version 3 (before combining): the same layout without the list of segment files
    byte[] v5 = CoderUtils.encodeToByteArray(OpenFile.Coder.of(), file);
    assertEquals(5, v5[0]);
    // version 4: without the attempts (one run of "" for 40 files: count, empty tag, length)
    byte[] v4 = Arrays.copyOf(v5, v5.length - 3);
    v4[0] = 4;
    int listBytes = 1 + 40; // count, then 40 one-byte gaps
    byte[] v3 = Arrays.copyOf(v4, v4.length - listBytes);
    v3[0] = 3;
    OpenFile old = CoderUtils.decodeFromByteArray(OpenFile.Coder.of(), v3);
    assertEquals(40, old.segments);
    assertEquals(40, old.starts.size());
    assertEquals(SegmentFiles.segmentName(PART, 39), old.segmentFiles().get(39));

    SegmentCombiner combiner = new SegmentCombiner(16);
    int from = combiner.combineFrom(old.starts, old.segments);
    assertEquals(14, from, "the tail beyond the bound becomes one file");
    old.combinedFrom(from, "");
    assertEquals(15, old.starts.size());
    assertEquals(SegmentFiles.segmentName(PART, 14, 39), old.segmentFiles().get(14));

    byte[] newer = v4.clone();
    newer[0] = 9;
    CoderException e =
        assertThrows(
            CoderException.class, () -> CoderUtils.decodeFromByteArray(OpenFile.Coder.of(), newer));
    assertTrue(e.getMessage().contains("newer"), e.getMessage());
  }

  @Test
  void combinedNamesAreHiddenSegmentNamesOfTheirPartFile() {
    String combined = SegmentFiles.segmentName(PART, 4, 7);
    assertEquals(".part-u-3-1700000000000.csv.seg-4-7.inprogress", combined);
    assertEquals(SegmentFiles.segmentName(PART, 4), SegmentFiles.segmentName(PART, 4, 4));
    assertTrue(combined.startsWith(SegmentFiles.segmentPrefix(PART)));
    assertFalse(combined.endsWith(".csv"));
    assertTrue(
        dev.filetables.io.files.PartFileName.parse(combined).isPresent(),
        "a leftover is found by its counter");
    assertThrows(IllegalArgumentException.class, () -> SegmentFiles.segmentName(PART, 5, 4));
    List<Integer> none = new ArrayList<>();
    assertEquals(-1, new SegmentCombiner(16).combineFrom(none, 0));
  }
}
