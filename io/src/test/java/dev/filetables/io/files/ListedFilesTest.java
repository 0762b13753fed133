package dev.filetables.io.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listed file is read where it is: under its name, its grace name once replaced, or in the merged
 * file that holds its rows once the grace name is gone.
 */
class ListedFilesTest {
  @TempDir Path dir;

  private static String readAll(SeekableByteChannel channel) throws Exception {
    ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
    while (buffer.hasRemaining() && channel.read(buffer) >= 0) {}
    return new String(buffer.array(), StandardCharsets.UTF_8);
  }

  @Test
  void aFileMovedToItsGraceNameAfterTheListingIsReadThere() throws Exception {
    Path listed = Files.writeString(dir.resolve("part-u-0-1.json"), "{\"id\":1}\n");
    try (SeekableByteChannel channel = ListedFiles.open(listed)) {
      assertEquals("{\"id\":1}\n", readAll(channel));
    }
    Files.move(listed, ReplacedFiles.graceNameOf(listed));
    assertEquals(dir.resolve(".part-u-0-1.json.replaced"), ReplacedFiles.graceNameOf(listed));
    assertEquals(true, ReplacedFiles.isGraceName(".part-u-0-1.json.replaced"));
    assertEquals("part-u-0-1.json", ReplacedFiles.replacedNameOf(".part-u-0-1.json.replaced"));
    try (SeekableByteChannel channel = ListedFiles.open(listed)) {
      channel.position(1);
      assertEquals(9, channel.size());
      assertEquals("\"id\":1}\n", readAll(channel).substring(0, 8));
    }
    Files.delete(ReplacedFiles.graceNameOf(listed));
    NoSuchFileException gone =
        assertThrows(NoSuchFileException.class, () -> ListedFiles.open(listed));
    assertEquals(listed.toString(), gone.getFile(), "names the listed file");
  }

  @Test
  void aReplacedFileWhoseGraceNameIsGoneIsHeldByTheMergedFileThatRecordsIt() throws Exception {
    Path listed = dir.resolve("part-u-0-2.json");
    assertEquals(Optional.empty(), ListedFiles.holderOf(listed), "no merged file records it");
    List<String> replaced = List.of("part-u-0-1.json", "part-u-0-2.json");
    String merged = CompactedFileName.visible(CompactedFileName.OFFLINE_UUID, replaced, ".json");
    Files.writeString(dir.resolve(merged), "{\"id\":1}\n{\"id\":2}\n");
    ReplacedFiles.write(
        dir.resolve(merged),
        replaced,
        List.of(
            new ReplacedFiles.Origin("part-u-0-1.json", 5L, 0, 9),
            new ReplacedFiles.Origin("part-u-0-2.json", 6L, 9, 18)));
    ListedFiles.Holder holder = ListedFiles.holderOf(listed).orElseThrow();
    assertEquals(dir.resolve(merged), holder.merged());
    assertEquals(18, holder.size());
    assertEquals(List.of(9L, 18L), List.of(holder.start(), holder.end()));
    assertEquals(Optional.empty(), ListedFiles.holderOf(dir.resolve("part-u-0-3.json")));
  }
}
