package dev.filetables.transforms.source.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.source.FileRange;
import dev.filetables.transforms.source.FileRangeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parsing ahead hands over exactly the cursor's steps, in order, across batch boundaries; a failure
 * comes out where it happened in the sequence; closing early stops the helper without hanging.
 */
class ReadAheadTest {
  private static final int ROWS = 3 * ReadAhead.BATCH + 17;

  @TempDir Path dir;

  private TableSpec table(String policy) {
    return DdlParser.parse(
        "CREATE TABLE t (id BIGINT NOT NULL) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("t")
            + "', 'format' = 'json', 'source.bad-records' = '"
            + policy
            + "')");
  }

  private FileRange file(int badLine) throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= ROWS; i++) {
      text.append(i == badLine ? "{\"id\": x}" : "{\"id\": " + i + "}").append('\n');
    }
    Path file =
        Files.writeString(Files.createDirectories(dir.resolve("t")).resolve("f.json"), text);
    long size = Files.size(file);
    return FileRange.of(DataFile.of(file.toString(), Map.of(), size, 0L), new ByteRange(0, size));
  }

  private static List<String> steps(FileRangeReader.Cursor cursor) throws Exception {
    List<String> steps = new ArrayList<>();
    for (FileRangeReader.Step s = cursor.next(); s != null; s = cursor.next()) {
      steps.add(s.row() != null ? "row " + s.row().getInt64("id") : "bad");
    }
    return steps;
  }

  @Test
  void handsOverTheCursorsStepsInOrderAfterTheSkippedOnes() throws Exception {
    FileRangeReader reader = new FileRangeReader(table("skip"));
    FileRange range = file(ReadAhead.BATCH + 3);
    List<String> direct;
    try (FileRangeReader.Cursor cursor = reader.open(range)) {
      direct = steps(cursor);
    }
    assertEquals(ROWS, direct.size());
    for (int skip : new int[] {0, 1, ReadAhead.BATCH, ROWS - 1, ROWS}) {
      FileRangeReader.Cursor cursor = reader.open(range);
      assertEquals(skip, cursor.skip(skip));
      try (ReadAhead ahead = ReadAhead.start(cursor)) {
        List<String> taken = new ArrayList<>();
        for (FileRangeReader.Step s = ahead.next(); s != null; s = ahead.next()) {
          taken.add(s.row() != null ? "row " + s.row().getInt64("id") : "bad");
        }
        assertEquals(direct.subList(skip, ROWS), taken, "after " + skip);
        assertNull(ahead.next(), "stays at the end");
        assertTrue(
            ahead.helperStopped(5_000), "the helper is still busy after the end of the range");
      }
    }
  }

  @Test
  void aFailureComesOutAfterTheStepsBeforeIt() throws Exception {
    int bad = 2 * ReadAhead.BATCH + 5;
    FileRangeReader reader = new FileRangeReader(table("fail"));
    try (ReadAhead ahead = ReadAhead.start(reader.open(file(bad)))) {
      for (int i = 1; i < bad; i++) {
        assertEquals(i, ahead.next().row().getInt64("id"));
      }
      BadRecordException e = assertThrows(BadRecordException.class, ahead::next);
      assertTrue(e.getMessage().contains("f.json"), e.getMessage());
    }
  }

  @Test
  void closingBeforeTheEndStopsTheHelper() throws Exception {
    FileRangeReader reader = new FileRangeReader(table("fail"));
    FileRange range = file(-1);
    for (int i = 0; i < 20; i++) {
      ReadAhead ahead = ReadAhead.start(reader.open(range));
      ahead.next();
      ahead.close(); // the helper is blocked on a full queue or still parsing: it must let go
      assertTrue(
          ahead.helperStopped(5_000),
          "the helper thread of read-ahead " + i + " is still busy after close");
    }
  }
}
