package dev.filetables.io.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileOpsTest {
  private static final String UUID = "123e4567-e89b-12d3-a456-426614174000";

  @TempDir Path tmp;

  private Path writeHidden(Path dir, String hiddenName, String content) throws IOException {
    try (OutputStream out = FileOps.createHidden(dir, hiddenName)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    return dir.resolve(hiddenName);
  }

  @Test
  void createHiddenMakesParentsAndNeverReusesAName() throws IOException {
    Path dir = tmp.resolve("t/dt=1/hour=2");
    String hidden = PartFileName.hidden(UUID, "0", 0, ".csv");
    Path file = writeHidden(dir, hidden, "a,b\n");
    assertEquals("a,b\n", Files.readString(file));
    FileAlreadyExistsException e =
        assertThrows(FileAlreadyExistsException.class, () -> FileOps.createHidden(dir, hidden));
    assertTrue(e.getMessage().contains("two writers share"), e.getMessage());
    assertEquals("a,b\n", Files.readString(file));
    assertThrows(IllegalArgumentException.class, () -> FileOps.createHidden(dir, "visible.csv"));
    assertThrows(IllegalArgumentException.class, () -> FileOps.createHidden(dir, ".a/b"));
  }

  @Test
  void createHiddenIsSafeWhenWritersCreateTheSameDirectoriesAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Path>> results = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        int writer = i;
        results.add(
            pool.submit(
                () ->
                    writeHidden(
                        tmp.resolve("t/dt=1/hour=" + (writer % 2) + "/x=y"),
                        PartFileName.hidden(UUID, String.valueOf(writer), 0, ".csv"),
                        "w" + writer)));
      }
      for (Future<Path> result : results) {
        assertTrue(Files.isRegularFile(result.get()));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void publishRenamesToTheVisibleName() throws IOException {
    Path hidden =
        writeHidden(tmp.resolve("p"), PartFileName.hidden(UUID, "3", 7, ".csv.gz"), "data");
    Path visible = FileOps.publish(hidden);
    assertEquals(tmp.resolve("p/part-" + UUID + "-3-7.csv.gz"), visible);
    assertEquals("data", Files.readString(visible));
    assertFalse(Files.exists(hidden));
    // A retried commit finds it published already.
    assertEquals(visible, FileOps.publish(hidden));
    assertEquals("data", Files.readString(visible));
  }

  @Test
  void publishNeverOverwrites() throws IOException {
    Path dir = tmp.resolve("p");
    Path hidden = writeHidden(dir, PartFileName.hidden(UUID, "0", 1, ".json"), "new");
    Path visible =
        Files.writeString(dir.resolve(PartFileName.visible(UUID, "0", 1, ".json")), "old");
    FileAlreadyExistsException e =
        assertThrows(FileAlreadyExistsException.class, () -> FileOps.publish(hidden));
    assertTrue(
        e.getMessage().contains("refusing to publish over an existing file"), e.getMessage());
    assertEquals("old", Files.readString(visible));
    assertEquals("new", Files.readString(hidden));
  }

  @Test
  void publishWithoutAnyFileFails() {
    Path hidden = tmp.resolve(PartFileName.hidden(UUID, "0", 1, ".json"));
    assertThrows(NoSuchFileException.class, () -> FileOps.publish(hidden));
    assertThrows(
        IllegalArgumentException.class, () -> FileOps.publish(tmp.resolve("part-x-0-1.json")));
  }

  @Test
  void deleteQuietly() throws IOException {
    Path file = Files.writeString(tmp.resolve("f"), "x");
    assertTrue(FileOps.deleteQuietly(file));
    assertFalse(FileOps.deleteQuietly(file));
    Path dir = Files.createDirectories(tmp.resolve("d"));
    Files.writeString(dir.resolve("child"), "x");
    assertFalse(FileOps.deleteQuietly(dir)); // not empty: logged, not thrown
    assertTrue(Files.exists(dir));
  }

  @Test
  void listHiddenFindsOneWritesLeftoversAtAnyDepth() throws IOException {
    Path root = tmp.resolve("table");
    String other = "99999999-e89b-12d3-a456-426614174000";
    Path a = writeHidden(root, PartFileName.hidden(UUID, "0", 0, ".csv"), "");
    Path b =
        writeHidden(root.resolve("dt=1/hour=2"), PartFileName.hidden(UUID, "5", 3, ".csv"), "");
    Path c =
        writeHidden(
            root.resolve("dt=2"),
            ".compacted-" + PartFileName.visible(UUID, "1", 0, ".csv") + ".inprogress",
            "");
    writeHidden(root.resolve("dt=1/hour=2"), PartFileName.hidden(other, "5", 3, ".csv"), "");
    Files.writeString(
        root.resolve("dt=1/hour=2/" + PartFileName.visible(UUID, "9", 0, ".csv")), "visible");
    assertEquals(List.of(c, b, a).stream().sorted().toList(), FileOps.listHidden(root, UUID));
    assertEquals(3, FileOps.listHidden(root, "123e4567").size());
    assertEquals(1, FileOps.listHidden(root, "9999").size());
    assertEquals(List.of(), FileOps.listHidden(tmp.resolve("missing"), UUID));
    assertThrows(IllegalArgumentException.class, () -> FileOps.listHidden(root, ""));
  }
}
