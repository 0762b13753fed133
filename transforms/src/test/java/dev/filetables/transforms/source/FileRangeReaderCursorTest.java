package dev.filetables.transforms.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The step-by-step read used by the watched source: a cursor that skips {@code k} steps (a resume
 * after {@code k} claimed steps) continues with exactly the steps a fresh cursor takes after its
 * {@code k}-th, and skipped bad records produce no dead letter.
 */
class FileRangeReaderCursorTest {
  @TempDir Path dir;

  private TableSpec table() {
    return DdlParser.parse(
        "CREATE TABLE t (id BIGINT NOT NULL, msg STRING) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("t")
            + "', 'format' = 'json', 'source.bad-records' = 'dead-letter',"
            + " 'source.bad-records.dead-letter.path' = '"
            + dir.resolve("dead")
            + "')");
  }

  private FileRange range(Path file) throws Exception {
    long size = Files.exists(file) ? Files.size(file) : 10;
    return FileRange.of(
        DataFile.of(file.toString(), java.util.Map.of(), size, 0L), new ByteRange(0, size));
  }

  /** Each step as text: the row's id, or the dead letter's line. */
  private static List<String> steps(FileRangeReader.Cursor cursor) throws Exception {
    List<String> steps = new ArrayList<>();
    for (FileRangeReader.Step s = cursor.next(); s != null; s = cursor.next()) {
      steps.add(
          s.row() != null
              ? "row " + s.row().getInt64("id")
              : "dead line " + s.deadLetter().getInt64("line_number"));
    }
    return steps;
  }

  @Test
  void skippingStepsResumesExactlyAfterThemWithoutRepeatingDeadLetters() throws Exception {
    Path file =
        Files.writeString(
            Files.createDirectories(dir.resolve("t")).resolve("f.json"),
            "{\"id\": 1}\n{\"id\": x}\n{\"id\": 3}\n{\"id\": \"y\"}\n{\"id\": 5}\n{\"id\": 6}",
            StandardCharsets.UTF_8);
    FileRangeReader reader = new FileRangeReader(table());
    List<String> all;
    try (FileRangeReader.Cursor cursor = reader.open(range(file))) {
      all = steps(cursor);
    }
    assertEquals(List.of("row 1", "dead line 2", "row 3", "dead line 4", "row 5", "row 6"), all);
    for (int k = 0; k <= all.size(); k++) {
      try (FileRangeReader.Cursor cursor = reader.open(range(file))) {
        assertEquals(k, cursor.skip(k));
        assertEquals(all.subList(k, all.size()), steps(cursor), "after " + k + " steps");
      }
    }
    try (FileRangeReader.Cursor cursor = reader.open(range(file))) {
      assertEquals(
          all.size(), cursor.skip(all.size() + 3), "a range shorter than the steps to skip");
    }
  }

  @Test
  void vanishedFileEndsTheRangeWithoutAStep() throws Exception {
    Path gone = dir.resolve("t/gone.json");
    try (FileRangeReader.Cursor cursor = new FileRangeReader(table()).open(range(gone))) {
      assertNull(cursor.next());
      assertTrue(cursor.result().vanished());
    }
  }
}
