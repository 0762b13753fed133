package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clearing a previous demo table, and counting files for the progress line. */
class DemoOutputTest {
  @TempDir Path dir;

  @Test
  void clearsAPreviousDemoTable() throws Exception {
    Path table = dir.resolve("orders");
    Path partition = Files.createDirectories(table.resolve("dt=2020-05-20/hour=12"));
    Files.writeString(partition.resolve("part-1-0-0.parquet"), "x");
    Files.writeString(partition.resolve(".part-2-0-0.parquet.inprogress"), "x");
    Files.writeString(table.resolve("_SUCCESS"), "");
    DemoCommand.clearPreviousDemo(table);
    assertFalse(Files.exists(table));
    DemoCommand.clearPreviousDemo(table); // nothing there: fine
  }

  @Test
  void leavesOtherDirectoriesAlone() throws Exception {
    Path table = Files.createDirectories(dir.resolve("orders/dt=2020-05-20"));
    Files.writeString(dir.resolve("orders/notes.txt"), "mine");
    assertThrows(CliException.class, () -> DemoCommand.clearPreviousDemo(dir.resolve("orders")));
    assertTrue(Files.exists(table));
    Files.writeString(dir.resolve("file"), "x");
    assertThrows(CliException.class, () -> DemoCommand.clearPreviousDemo(dir.resolve("file")));
  }

  @Test
  void countsVisibleAndInProgressFiles() throws Exception {
    Path partition = Files.createDirectories(dir.resolve("dt=1/hour=2"));
    Files.writeString(partition.resolve("part-a-0-0.parquet"), "x");
    Files.writeString(partition.resolve("part-a-0-1.parquet"), "x");
    Files.writeString(partition.resolve(".part-a-0-2.parquet.inprogress"), "x");
    Files.writeString(partition.resolve("_SUCCESS"), "");
    Files.createDirectories(dir.resolve(".staging"));
    Files.writeString(dir.resolve(".staging/part-b"), "x");
    ProgressLine.FileCount count = ProgressLine.FileCount.under(dir);
    assertEquals(2, count.visible);
    assertEquals(1, count.inProgress);
    assertEquals(0, ProgressLine.FileCount.under(dir.resolve("missing")).visible);
  }
}
