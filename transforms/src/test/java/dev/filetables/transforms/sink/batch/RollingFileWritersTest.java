package dev.filetables.transforms.sink.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.transforms.sink.LinesFormat;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollingFileWritersTest {
  private static final Schema SCHEMA = Schema.builder().addStringField("s").build();

  @TempDir Path root;

  private static Row row(String s) {
    return Row.withSchema(SCHEMA).addValue(s).build();
  }

  @Test
  void oneHiddenFilePerPartitionUntilClosed() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".txt");
    RollingFileWriters writers =
        new RollingFileWriters(new LinesFormat(), SCHEMA, files, "w1", 1 << 20, false);
    writers.write("k=a", row("1"));
    writers.write("k=b", row("2"));
    writers.write("k=a", row("3"));
    List<WrittenFile> written = writers.closeAll();

    assertEquals(2, written.size());
    for (WrittenFile file : written) {
      Path path = Path.of(file.path());
      assertTrue(Files.exists(path));
      assertTrue(path.getFileName().toString().startsWith(".part-" + files.writeUuid() + "-w1-"));
      assertTrue(path.getFileName().toString().endsWith(".txt.inprogress"));
      assertEquals(root.resolve(file.partitionPath()), path.getParent());
      assertEquals(Files.size(path), file.sizeBytes());
    }
    WrittenFile a = written.stream().filter(f -> f.partitionPath().equals("k=a")).findFirst().get();
    assertEquals(2, a.rowCount());
    assertTrue(writers.closeAll().isEmpty(), "closeAll drains");
  }

  @Test
  void rollsWhenTheEstimatedSizeReachesTheLimit() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".txt");
    // each line "[x]\n" is 4 bytes: a 10-byte limit rolls after 3 rows
    RollingFileWriters writers =
        new RollingFileWriters(new LinesFormat(), SCHEMA, files, "w", 10, false);
    for (int i = 0; i < 7; i++) {
      writers.write("", row(Integer.toString(i)));
    }
    List<WrittenFile> written = writers.closeAll();
    assertEquals(
        List.of(3L, 3L, 1L),
        written.stream().map(WrittenFile::rowCount).collect(Collectors.toList()));
    Set<String> names =
        written.stream()
            .map(f -> Path.of(f.path()).getFileName().toString())
            .collect(Collectors.toSet());
    assertEquals(3, names.size(), "every roll gets a new counter");
    written.forEach(f -> assertEquals(root, Path.of(f.path()).getParent()));
  }

  @Test
  void closeAfterFailureDeletesWhatItWrote() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".txt");
    RollingFileWriters writers =
        new RollingFileWriters(new LinesFormat(), SCHEMA, files, "w", 10, false);
    for (int i = 0; i < 5; i++) {
      writers.write("k=" + (i % 2), row(Integer.toString(i)));
    }
    writers.close();
    try (var stream = Files.walk(root)) {
      assertFalse(stream.anyMatch(Files::isRegularFile));
    }
  }

  @Test
  void shardWritersReplaceTheirOwnLeftoversRandomWritersNeverShareNames() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".txt");
    Path leftover = files.inProgress("k=a", "2", 0);
    Files.createDirectories(leftover.getParent());
    Files.writeString(leftover, "from a failed attempt\n");

    RollingFileWriters random =
        new RollingFileWriters(new LinesFormat(), SCHEMA, files, "2", 1 << 20, false);
    assertThrows(FileAlreadyExistsException.class, () -> random.write("k=a", row("x")));

    RollingFileWriters shard =
        new RollingFileWriters(new LinesFormat(), SCHEMA, files, "2", 1 << 20, true);
    shard.write("k=a", row("1"));
    List<WrittenFile> written = shard.closeAll();
    assertEquals(leftover.toString(), written.get(0).path());
    assertEquals("[1]\n", Files.readString(leftover));
  }
}
