package dev.filetables.transforms.sink.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.ConcatenatingMerger;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One compaction step, and its retry after a crash at each point. */
class PartitionCompactorTest {
  private static final String UUID = "0f6c2a4e-1111-2222-3333-444455556666";

  @TempDir Path dir;

  @AfterEach
  void resetHook() {
    CompactionFailpoints.reset();
  }

  private List<WrittenFile> hiddenInputs(int count) throws Exception {
    List<WrittenFile> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = PartFileName.hidden(UUID, Integer.toString(i % 2), 1000 + i, ".json");
      Path file = dir.resolve(name);
      Files.writeString(file, "{\"n\":" + i + "}\n");
      // a segment the writer left next to it, deleted with it
      Files.writeString(dir.resolve(name.replace(".inprogress", ".seg-0.inprogress")), "x\n");
      files.add(
          WrittenFile.of(
              "dt=1",
              file.toString(),
              1,
              Files.size(file),
              new Instant(10 + i),
              new Instant(20 + i)));
    }
    return files;
  }

  private static WrittenFile only(List<WrittenFile> published) {
    assertEquals(1, published.size(), published.toString());
    return published.get(0);
  }

  private long visibleRows() throws Exception {
    long rows = 0;
    for (String name : names()) {
      if (!PartFileName.isHidden(name)) {
        rows += Files.readAllLines(dir.resolve(name)).size();
      }
    }
    return rows;
  }

  private List<String> allNames() throws Exception {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  private List<String> names() throws Exception {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".replaces")) // sidecars stay with their merged file
          .sorted()
          .collect(Collectors.toList());
    }
  }

  @Test
  void mergesPublishesAndDeletesInputs() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(3);
    WrittenFile merged =
        only(new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE).compact(inputs));

    Path visible = Path.of(merged.path());
    assertEquals(List.of(visible.getFileName().toString()), names());
    assertTrue(CompactedFileName.isCompacted(visible.getFileName().toString()));
    assertEquals(
        "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n", Files.readString(visible, StandardCharsets.UTF_8));
    assertEquals(3, merged.rowCount());
    assertEquals(Files.size(visible), merged.sizeBytes());
    assertEquals(new Instant(10), merged.minTimestamp());
    assertEquals(new Instant(22), merged.maxTimestamp());
    assertEquals(UUID, PartFileName.parse(visible.getFileName().toString()).get().uuid());
  }

  @Test
  void aSingleFileIsOnlyRenamed() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(1);
    WrittenFile published =
        only(new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE).compact(inputs));
    assertEquals(
        PartFileName.visibleOf(Path.of(inputs.get(0).path()).getFileName().toString()),
        Path.of(published.path()).getFileName().toString());
    assertEquals(List.of(Path.of(published.path()).getFileName().toString()), names());
  }

  @ParameterizedTest
  @EnumSource(
      value = CompactionFailpoints.Point.class,
      names = {"AFTER_MERGE", "AFTER_PUBLISH", "AFTER_DELETE"})
  void aRetryAfterACrashAtAnyPointPublishesEveryRowOnce(CompactionFailpoints.Point point)
      throws Exception {
    List<WrittenFile> inputs = hiddenInputs(4);
    CompactionFailpoints.set(
        (reached, file) -> {
          if (reached == point) {
            throw new IllegalStateException("crash at " + reached);
          }
        });
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    assertThrows(IllegalStateException.class, () -> compactor.compact(inputs));
    long visibleAfterCrash = names().stream().filter(n -> !PartFileName.isHidden(n)).count();
    assertEquals(point == CompactionFailpoints.Point.AFTER_MERGE ? 0 : 1, visibleAfterCrash);
    CompactionFailpoints.reset();

    WrittenFile merged = only(compactor.compact(inputs)); // the replay of the same group
    assertEquals(List.of(Path.of(merged.path()).getFileName().toString()), names());
    assertEquals(
        "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n", Files.readString(Path.of(merged.path())));
    assertEquals(List.of(merged), compactor.compact(inputs), "a third delivery changes nothing");
  }

  @Test
  void aRegroupedReplayDoesNotPublishFilesTwice() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(4);
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    CompactionFailpoints.set(
        (reached, file) -> {
          if (reached == CompactionFailpoints.Point.AFTER_PUBLISH) {
            throw new IllegalStateException("crash");
          }
        });
    assertThrows(IllegalStateException.class, () -> compactor.compact(inputs.subList(0, 3)));
    CompactionFailpoints.reset();
    // the replay groups the files differently: 2 of them, and one the first group did not hold
    // the merged file holds input 0 too, which is not in this group: not reported again
    WrittenFile rest = only(compactor.compact(List.of(inputs.get(1), inputs.get(3))));
    assertEquals(
        inputs.get(3).path().replace("/.part-", "/part-").replace(".inprogress", ""), rest.path());
    long visibleRows = 0;
    for (String name : names()) {
      if (PartFileName.isHidden(name)) {
        assertTrue(
            name.contains("-0-1000.") || name.contains("-0-1002."),
            "hidden inputs not yet replayed: " + name);
        continue;
      }
      visibleRows += Files.readAllLines(dir.resolve(name)).size();
    }
    assertEquals(4, visibleRows, names().toString());
    assertEquals(List.of(), compactor.compact(List.of(inputs.get(0), inputs.get(2))));
  }

  @ParameterizedTest
  @EnumSource(
      value = CompactionFailpoints.Point.class,
      names = {"AFTER_MERGE", "AFTER_PUBLISH", "AFTER_DELETE"})
  void aGroupReplayedWithMoreFilesPublishesEachRowOnceAndLeavesNothingHidden(
      CompactionFailpoints.Point point) throws Exception {
    List<WrittenFile> inputs = hiddenInputs(4);
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    CompactionFailpoints.set(
        (reached, file) -> {
          if (reached == point) {
            throw new IllegalStateException("crash at " + reached);
          }
        });
    assertThrows(IllegalStateException.class, () -> compactor.compact(inputs.subList(0, 3)));
    CompactionFailpoints.reset();

    // after a restore the same files are sealed again with one that arrived later
    List<WrittenFile> published = compactor.compact(inputs);
    assertEquals(4, visibleRows(), names().toString());
    assertEquals(
        4, published.stream().mapToLong(WrittenFile::rowCount).sum(), published.toString());
    for (WrittenFile file : published) {
      assertTrue(Files.exists(Path.of(file.path())), file.path());
    }
    assertEquals(
        List.of(), names().stream().filter(PartFileName::isHidden).collect(Collectors.toList()));
    long sidecars = allNames().stream().filter(n -> n.endsWith(".replaces")).count();
    long merged = names().stream().filter(CompactedFileName::isCompacted).count();
    assertEquals(merged, sidecars, "one sidecar per visible merged file: " + allNames());
    assertEquals(
        new java.util.HashSet<>(published),
        new java.util.HashSet<>(compactor.compact(inputs)),
        "a further replay changes nothing");
  }

  @Test
  void aFileRenamedAloneIsNotPublishedAgainInALargerGroup() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(2);
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    WrittenFile first = only(compactor.compact(inputs.subList(0, 1)));
    List<WrittenFile> published = compactor.compact(inputs);
    assertEquals(2, published.size(), published.toString());
    assertEquals(first, published.get(0));
    assertEquals(2, visibleRows(), names().toString());
  }

  @Test
  void aMissingInputBeforePublishingIsAnError() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(2);
    Files.delete(Path.of(inputs.get(1).path()));
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    Exception e =
        assertThrows(java.nio.file.NoSuchFileException.class, () -> compactor.compact(inputs));
    assertTrue(e.getMessage().contains(inputs.get(1).path()), e.getMessage());
    assertFalse(names().stream().anyMatch(n -> !PartFileName.isHidden(n)), names().toString());
  }

  @Test
  void namesDependOnlyOnTheSetOfInputs() {
    String a = CompactedFileName.visible(UUID, List.of("x", "y"), ".csv");
    assertEquals(a, CompactedFileName.visible(UUID, List.of("y", "x"), ".csv"));
    assertFalse(a.equals(CompactedFileName.visible(UUID, List.of("x", "z"), ".csv")));
    assertTrue(CompactedFileName.isCompacted(a));
    assertFalse(CompactedFileName.isCompacted(PartFileName.visible(UUID, "0", 5, ".csv")));
  }
}
