package dev.filetables.transforms.sink.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilePublisherTest {
  @TempDir Path root;

  private WrittenFile hidden(PartFiles files, String partition, String writer, long counter)
      throws IOException {
    Path path = files.inProgress(partition, writer, counter);
    Files.createDirectories(path.getParent());
    Files.writeString(path, "data " + writer + counter);
    return WrittenFile.of(partition, path.toString(), 1, Files.size(path));
  }

  @Test
  void publishRenamesAndIsIdempotent() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".csv");
    WrittenFile inProgress = hidden(files, "dt=1", "w", 0);
    FilePublisher publisher = new FilePublisher(files);

    WrittenFile published = publisher.publish(inProgress);
    Path visible = Path.of(published.path());
    assertEquals("part-" + files.writeUuid() + "-w-0.csv", visible.getFileName().toString());
    assertTrue(Files.exists(visible));
    assertFalse(Files.exists(Path.of(inProgress.path())));
    assertEquals(inProgress.rowCount(), published.rowCount());

    // a retried publish finds the work done
    assertEquals(published, publisher.publish(inProgress));
    assertTrue(Files.exists(visible));
  }

  @Test
  void publishFailsWhenTheFileIsGone() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".csv");
    WrittenFile inProgress = hidden(files, "", "w", 0);
    Files.delete(Path.of(inProgress.path()));
    IOException e =
        assertThrows(IOException.class, () -> new FilePublisher(files).publish(inProgress));
    assertTrue(e.getMessage().contains(inProgress.path()), e.getMessage());
  }

  @Test
  void deletesOnlyThisWritesUnpublishedLeftovers() throws Exception {
    PartFiles files = new PartFiles(root, UUID.randomUUID().toString(), ".csv");
    PartFiles otherWrite = new PartFiles(root, UUID.randomUUID().toString(), ".csv");
    WrittenFile kept = hidden(files, "dt=1", "a", 0);
    WrittenFile leftover = hidden(files, "dt=1", "b", 0); // a failed attempt's file
    WrittenFile othersInProgress = hidden(otherWrite, "dt=1", "a", 0); // a concurrent write
    Path othersVisible = root.resolve("dt=1/part-" + otherWrite.writeUuid() + "-x-0.csv");
    Files.writeString(othersVisible, "old data");

    FilePublisher publisher = new FilePublisher(files);
    publisher.publish(kept);
    List<Path> deleted = publisher.deleteLeftovers(List.of(kept));

    assertEquals(List.of(Path.of(leftover.path())), deleted);
    assertTrue(Files.exists(Path.of(othersInProgress.path())));
    assertTrue(Files.exists(othersVisible));
    assertTrue(Files.exists(PartFiles.visibleOf(Path.of(kept.path()))));
    // idempotent
    assertTrue(publisher.deleteLeftovers(List.of(kept)).isEmpty());
  }
}
