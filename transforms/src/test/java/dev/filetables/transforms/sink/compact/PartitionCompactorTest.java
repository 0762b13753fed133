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
          WrittenFile.of("dt=1", file.toString(), 1, Files.size(file), new Instant(10 + i), new Instant(20 + i)));
    }
    return files;
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
    WrittenFile merged = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE).compact(inputs);

    Path visible = Path.of(merged.path());
    assertEquals(List.of(visible.getFileName().toString()), names());
    assertTrue(CompactedFileName.isCompacted(visible.getFileName().toString()));
    assertEquals("{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n", Files.readString(visible, StandardCharsets.UTF_8));
    assertEquals(3, merged.rowCount());
    assertEquals(Files.size(visible), merged.sizeBytes());
    assertEquals(new Instant(10), merged.minTimestamp());
    assertEquals(new Instant(22), merged.maxTimestamp());
    assertEquals(UUID, PartFileName.parse(visible.getFileName().toString()).get().uuid());
  }

  @Test
  void aSingleFileIsOnlyRenamed() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(1);
    WrittenFile published = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE).compact(inputs);
    assertEquals(PartFileName.visibleOf(Path.of(inputs.get(0).path()).getFileName().toString()),
        Path.of(published.path()).getFileName().toString());
    assertEquals(List.of(Path.of(published.path()).getFileName().toString()), names());
  }

  @ParameterizedTest
  @EnumSource(CompactionFailpoints.Point.class)
  void aRetryAfterACrashAtAnyPointPublishesEveryRowOnce(CompactionFailpoints.Point point) throws Exception {
    List<WrittenFile> inputs = hiddenInputs(4);
    CompactionFailpoints.set(
        (reached, file) -> {
          if (reached == point) {
            throw new IllegalStateException("crash at " + reached);
          }
        });
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    assertThrows(IllegalStateException.class, () -> compactor.compact(inputs));
    long visibleAfterCrash =
        names().stream().filter(n -> !PartFileName.isHidden(n)).count();
    assertEquals(point == CompactionFailpoints.Point.AFTER_MERGE ? 0 : 1, visibleAfterCrash);
    CompactionFailpoints.reset();

    WrittenFile merged = compactor.compact(inputs); // the replay of the same group
    assertEquals(List.of(Path.of(merged.path()).getFileName().toString()), names());
    assertEquals(
        "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n", Files.readString(Path.of(merged.path())));
    assertEquals(merged, compactor.compact(inputs), "a third delivery changes nothing");
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
    WrittenFile rest = compactor.compact(List.of(inputs.get(1), inputs.get(3)));
    assertEquals(inputs.get(3).path().replace("/.part-", "/part-").replace(".inprogress", ""), rest.path());
    long visibleRows = 0;
    for (String name : names()) {
      if (PartFileName.isHidden(name)) {
        assertTrue(name.contains("-0-1000.") || name.contains("-0-1002."), "hidden inputs not yet replayed: " + name);
        continue;
      }
      visibleRows += Files.readAllLines(dir.resolve(name)).size();
    }
    assertEquals(4, visibleRows, names().toString());
    assertEquals(null, compactor.compact(List.of(inputs.get(0), inputs.get(2))));
  }

  @Test
  void aMissingInputBeforePublishingIsAnError() throws Exception {
    List<WrittenFile> inputs = hiddenInputs(2);
    Files.delete(Path.of(inputs.get(1).path()));
    PartitionCompactor compactor = new PartitionCompactor(UUID, ConcatenatingMerger.INSTANCE);
    Exception e = assertThrows(java.nio.file.NoSuchFileException.class, () -> compactor.compact(inputs));
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
