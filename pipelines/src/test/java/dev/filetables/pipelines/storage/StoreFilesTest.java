package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.FilesInOrder;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.Stores;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's {@code Files} API on the real S3 server and the real HDFS, through the stores: what the
 * table code relies on (create, read with seeks, list with attributes, publish, delete) behaves as
 * on a local disk, and what a store cannot do says so.
 */
@Tag("cluster")
class StoreFilesTest {
  private static StorageServers servers;

  @BeforeAll
  static void startServers() throws Exception {
    servers = StorageServers.shared();
  }

  static Stream<String> stores() {
    return Stream.of("s3", "hdfs");
  }

  private static Path root(String store, String name) {
    return TablePaths.of(servers.root(store) + "/store-files/" + name);
  }

  @ParameterizedTest
  @MethodSource("stores")
  void writesReadsSeeksAndLists(String store) throws Exception {
    Path dir = root(store, "basics");
    assertTrue(Stores.isStore(dir));
    Path file = dir.resolve("dt=2024-01-01/part-0.json");
    Files.createDirectories(file.getParent());
    byte[] content = "0123456789abcdefghij".getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(content);
    }
    assertEquals(file.toString(), TablePaths.of(file.toString()).toString());
    assertArrayEquals(content, Files.readAllBytes(file));
    assertEquals(20, Files.size(file));
    assertTrue(Files.isRegularFile(file));
    assertTrue(Files.isDirectory(file.getParent()));
    assertTrue(Files.isDirectory(dir));
    try (SeekableByteChannel channel = Files.newByteChannel(file)) {
      channel.position(10);
      ByteBuffer buffer = ByteBuffer.allocate(5);
      channel.read(buffer);
      assertEquals("abcde", new String(buffer.array(), StandardCharsets.UTF_8));
      channel.position(2);
      buffer.clear();
      channel.read(buffer);
      assertEquals("23456", new String(buffer.array(), StandardCharsets.UTF_8));
      channel.position(20);
      assertEquals(-1, channel.read(ByteBuffer.allocate(1)));
    }

    List<String> names = new ArrayList<>();
    try (var stream = Files.newDirectoryStream(dir)) {
      stream.forEach(p -> names.add(p.getFileName().toString()));
    }
    assertEquals(List.of("dt=2024-01-01"), names);
    List<Stores.Entry> entries = Stores.list(file.getParent());
    assertEquals(1, entries.size());
    assertEquals(file, entries.get(0).path());
    assertEquals(20, entries.get(0).size());
    assertThrows(NotDirectoryException.class, () -> Stores.list(file));
    assertThrows(NoSuchFileException.class, () -> Stores.list(dir.resolve("missing")));
    assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(dir.resolve("missing")));
    assertFalse(Files.exists(dir.resolve("missing")));

    assertThrows(
        FileAlreadyExistsException.class,
        () -> Files.write(file, content, java.nio.file.StandardOpenOption.CREATE_NEW));
    assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(file.getParent()));
    assertTrue(Files.deleteIfExists(file));
    assertFalse(Files.deleteIfExists(file));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void publishMakesTheHiddenFileVisibleOnceAndIsIdempotent(String store) throws Exception {
    Path dir = root(store, "publish");
    try (OutputStream out = FileOps.createHidden(dir, ".part-abc-0-0.json.inprogress")) {
      out.write("{}\n".getBytes(StandardCharsets.UTF_8));
    }
    Path hidden = dir.resolve(".part-abc-0-0.json.inprogress");
    Path visible = FileOps.publish(hidden);
    assertEquals(dir.resolve("part-abc-0-0.json"), visible);
    assertFalse(Files.exists(hidden));
    assertEquals("{}\n", Files.readString(visible));
    assertEquals(visible, FileOps.publish(hidden), "a retried publish finds the file published");
    assertEquals(List.of(), FileOps.listHidden(dir, "abc"));
  }

  @Test
  void aPublishCutBetweenCopyAndDeleteIsFinishedByItsReplay() throws Exception {
    Path dir = root("s3", "publish-cut");
    Path hidden = dir.resolve(".part-cut-0-0.json.inprogress");
    Files.write(hidden, "{}\n".getBytes(StandardCharsets.UTF_8));
    Path visible = dir.resolve("part-cut-0-0.json");
    Files.copy(hidden, visible); // the copy of an S3 publish, then the crash before its delete
    assertEquals(visible, FileOps.publish(hidden));
    assertFalse(Files.exists(hidden), "the replay deletes the hidden copy");
    assertEquals("{}\n", Files.readString(visible));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aSmallFileAppearsWholeAndIsReplaced(String store) throws Exception {
    Path dir = root(store, "success");
    FileOps.writeWhole(dir.resolve("_SUCCESS"), dir.resolve("._SUCCESS.tmp"), new byte[] {1}, true);
    FileOps.writeWhole(
        dir.resolve("_SUCCESS"), dir.resolve("._SUCCESS.tmp"), new byte[] {1, 2}, true);
    assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(dir.resolve("_SUCCESS")));
    assertFalse(Files.exists(dir.resolve("._SUCCESS.tmp")));
    assertThrows(
        FileAlreadyExistsException.class,
        () ->
            FileOps.writeWhole(
                dir.resolve("_SUCCESS"), dir.resolve("._SUCCESS.tmp"), new byte[] {3}, false));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aReplacedHiddenFileHoldsTheNewBytes(String store) throws Exception {
    Path dir = root(store, "replace");
    String name = ".part-r-0-0.json.seg-0.inprogress";
    try (OutputStream out = FileOps.replaceHidden(dir, name)) {
      out.write("first attempt, longer\n".getBytes(StandardCharsets.UTF_8));
    }
    try (OutputStream out = FileOps.replaceHidden(dir, name)) {
      out.write("replay\n".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("replay\n", Files.readString(dir.resolve(name)));
    assertThrows(
        FileAlreadyExistsException.class,
        () -> FileOps.createHidden(dir, name).close(),
        "createHidden still refuses a taken name");
  }

  /**
   * S3 deletes in requests of at most 1000 keys: 1,001 files take two, with missing ones mixed in.
   */
  @ParameterizedTest
  @MethodSource("stores")
  void hiddenFilesAreDeletedInBatchesAndMissingOnesAreNoError(String store) throws Exception {
    Path dir = root(store, "batch-delete");
    int count = store.equals("s3") ? 1_001 : 5;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      files.add(dir.resolve(".part-d-0-" + i + ".json.seg-0.inprogress"));
    }
    files.parallelStream()
        .forEach(
            file -> {
              try (OutputStream out = FileOps.replaceHidden(dir, file.getFileName().toString())) {
                out.write('x');
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    Path kept = dir.resolve("part-d-0-0.json");
    Files.write(kept, new byte[] {1});
    List<Path> toDelete = new ArrayList<>(files);
    toDelete.add(dir.resolve(".part-d-0-missing.json.seg-0.inprogress"));
    FileOps.deleteHiddenQuietly(toDelete);
    assertEquals(List.of(kept), Files.list(dir).toList());
  }

  /**
   * A merge's inputs are opened ahead on stores: every file comes in order, a missing one fails at
   * its turn with the JDK's exception, and closing early leaves nothing open that matters.
   */
  @ParameterizedTest
  @MethodSource("stores")
  void filesInOrderReadsEveryFileInOrderAndFailsAtAMissingOne(String store) throws Exception {
    Path dir = root(store, "in-order");
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      Path file = dir.resolve("f" + i);
      Files.createDirectories(dir);
      Files.writeString(file, "file " + i + "\n");
      files.add(file);
    }
    StringBuilder read = new StringBuilder();
    try (FilesInOrder inOrder = new FilesInOrder(files)) {
      while (inOrder.hasNext()) {
        try (var in = inOrder.next()) {
          read.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 9; i++) {
      expected.append("file ").append(i).append('\n');
    }
    assertEquals(expected.toString(), read.toString());

    List<Path> withGap = new ArrayList<>(files.subList(0, 2));
    withGap.add(dir.resolve("missing"));
    withGap.addAll(files.subList(2, 9));
    try (FilesInOrder inOrder = new FilesInOrder(withGap)) {
      inOrder.next().close();
      inOrder.next().close();
      NoSuchFileException missing = assertThrows(NoSuchFileException.class, inOrder::next);
      assertTrue(missing.getMessage().endsWith("missing"), missing.getMessage());
    }
  }
}
