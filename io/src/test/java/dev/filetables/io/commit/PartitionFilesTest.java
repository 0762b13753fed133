package dev.filetables.io.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionFilesTest {
  private static final String UUID_A = "0b1e2c3d-0000-4000-8000-00000000000a";
  private static final String UUID_B = "0b1e2c3d-0000-4000-8000-00000000000b";

  @TempDir Path dir;

  @Test
  void visibleDataFilesSkipHiddenNamesAndDirectories() throws Exception {
    Files.write(dir.resolve("part-" + UUID_A + "-0-1.csv"), new byte[3]);
    Files.write(dir.resolve("part-" + UUID_A + "-0-0.csv"), new byte[5]);
    Files.write(dir.resolve("_SUCCESS"), new byte[0]);
    Files.write(dir.resolve(".part-" + UUID_A + "-1-0.csv.inprogress"), new byte[1]);
    Files.createDirectory(dir.resolve("sub"));
    List<CommittedFile> files = PartitionFiles.visibleDataFiles(dir);
    assertEquals(
        List.of("part-" + UUID_A + "-0-0.csv", "part-" + UUID_A + "-0-1.csv"),
        files.stream().map(CommittedFile::name).collect(Collectors.toList()));
    assertEquals(5, files.get(0).sizeBytes());
    assertEquals(List.of(), PartitionFiles.visibleDataFiles(dir.resolve("missing")));
  }

  @Test
  void inProgressFilesOfTheGivenWritesOnly() throws Exception {
    Path mine = Files.write(dir.resolve(".part-" + UUID_A + "-1-0.csv.inprogress"), new byte[1]);
    Path compacting =
        Files.write(dir.resolve(".compacted-part-" + UUID_A + "-0-0.csv.inprogress"), new byte[1]);
    Files.write(dir.resolve(".part-" + UUID_B + "-1-0.csv.inprogress"), new byte[1]);
    Files.write(dir.resolve("part-" + UUID_A + "-0-0.csv"), new byte[1]);
    assertEquals(List.of(compacting, mine), PartitionFiles.inProgressFiles(dir, Set.of(UUID_A)));
    assertEquals(3, PartitionFiles.inProgressFiles(dir, Set.of(UUID_A, UUID_B)).size());
    assertEquals(List.of(), PartitionFiles.inProgressFiles(dir, Set.of()));
    assertEquals(List.of(), PartitionFiles.inProgressFiles(dir.resolve("missing"), Set.of(UUID_A)));
  }

  @Test
  void hiddenFilesOfAPartFileThatIsVisibleAlreadyDoNotCount() throws Exception {
    Files.write(dir.resolve("part-" + UUID_A + "-1-7.csv"), new byte[1]);
    // a stale writer attempt's file and segment, written after the file was published
    Files.write(
        dir.resolve(".part-" + UUID_A + "-1-7.csv.attempt-00mx69fos0abc.inprogress"), new byte[1]);
    Files.write(
        dir.resolve(".part-" + UUID_A + "-1-7.csv.seg-3.attempt-00mx69fos0abc.inprogress"),
        new byte[1]);
    Path waiting =
        Files.write(
            dir.resolve(".part-" + UUID_A + "-1-8.csv.attempt-00mx69fos0abc.inprogress"),
            new byte[1]);
    assertEquals(List.of(waiting), PartitionFiles.inProgressFiles(dir, Set.of(UUID_A)));
  }

  @Test
  void writeUuidOfPartFileNames() {
    assertEquals(UUID_A, PartitionFiles.writeUuidOf("part-" + UUID_A + "-3-12.csv"));
    assertEquals(UUID_A, PartitionFiles.writeUuidOf(".part-" + UUID_A + "-3-12.csv.inprogress"));
    assertEquals(UUID_A, PartitionFiles.writeUuidOf("compacted-part-" + UUID_A + "-3-12.parquet"));
    assertNull(PartitionFiles.writeUuidOf("data.csv"));
  }
}
