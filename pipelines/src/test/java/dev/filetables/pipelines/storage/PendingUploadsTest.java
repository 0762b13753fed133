package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.Stores;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * Files created for a publish on the real S3 server ({@code FileOps.createForPublish}): the bytes
 * wait in an open multipart upload at the visible key, the hidden name holds a marker, the publish
 * completes the upload. What readers, listings, replays and clean-ups see, checked through the
 * table code's {@code Files} API and, for what it hides (open uploads), a plain S3 client.
 */
@Tag("cluster")
class PendingUploadsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static StorageServers servers;
  private static S3Client s3;

  @BeforeAll
  static void startServers() throws Exception {
    servers = StorageServers.shared();
    s3 = servers.s3().client();
  }

  @AfterAll
  static void closeClient() {
    s3.close();
  }

  private static Path dir(String name) {
    return TablePaths.of(servers.root("s3") + "/pending-uploads/" + name);
  }

  private static String key(Path path) {
    String uri = path.toString(); // s3://bucket/key
    return uri.substring(uri.indexOf('/', "s3://".length()) + 1);
  }

  private static Path create(Path dir, String hiddenName, byte[] content) throws IOException {
    try (OutputStream out = FileOps.createForPublish(dir, hiddenName)) {
      out.write(content);
    }
    return dir.resolve(hiddenName);
  }

  private static List<MultipartUpload> openUploads(Path dir) {
    return s3.listMultipartUploads(b -> b.bucket(StorageServers.BUCKET).prefix(key(dir) + "/"))
        .uploads();
  }

  private static JsonNode marker(Path hidden) throws IOException {
    return JSON.readTree(
        s3.getObjectAsBytes(b -> b.bucket(StorageServers.BUCKET).key(key(hidden))).asByteArray());
  }

  /** Completes the marker's upload as the publish would, without deleting the marker: a crash. */
  private static void completeOnly(Path hidden) throws IOException {
    servers.s3().completeLeavingMarker(StorageServers.BUCKET, key(hidden));
  }

  private static List<String> names(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    for (Stores.Entry entry : Stores.list(dir)) {
      names.add(entry.path().getFileName().toString());
    }
    return names;
  }

  @Test
  void aPendingFileIsAMarkerUntilItsPublishCompletesTheUpload() throws Exception {
    Path dir = dir("basic");
    byte[] content = "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
    Path hidden = create(dir, ".part-p1-0-0.json.inprogress", content);
    Path visible = dir.resolve("part-p1-0-0.json");

    assertTrue(Files.exists(hidden));
    assertEquals(
        content.length, Files.size(hidden), "stat reports the file's size, not the marker's");
    assertFalse(Files.exists(visible), "an open upload is invisible to HEAD");
    assertEquals(List.of(".part-p1-0-0.json.inprogress"), names(dir), "and to listings");
    assertEquals(1, openUploads(dir).size());
    assertEquals(key(visible), openUploads(dir).get(0).key());
    IOException unreadable = assertThrows(IOException.class, () -> Files.readAllBytes(hidden));
    assertTrue(
        unreadable.getMessage().contains("pending upload")
            && unreadable.getMessage().contains("after its publish")
            && !unreadable.getMessage().contains("\n"),
        unreadable.getMessage());
    // a whole-file read is one GET without a HEAD: it must refuse the marker by the GET's metadata
    IOException unstreamable =
        assertThrows(IOException.class, () -> Files.newInputStream(hidden).close());
    assertEquals(unreadable.getMessage(), unstreamable.getMessage());

    assertEquals(visible, FileOps.publish(hidden));
    assertArrayEquals(content, Files.readAllBytes(visible));
    assertFalse(Files.exists(hidden), "the marker is deleted");
    assertEquals(List.of(), openUploads(dir));
    assertEquals(List.of("part-p1-0-0.json"), names(dir));
    assertEquals(visible, FileOps.publish(hidden), "a retried publish finds it published");
  }

  @Test
  void aPartitionValueOutsideAsciiNamesThePendingFile() throws Exception {
    Path dir = dir("region=zürich €");
    byte[] content = {7, 8, 9};
    Path hidden = create(dir, ".part-p8-0-0.bin.inprogress", content);
    assertEquals(content.length, Files.size(hidden));
    assertArrayEquals(content, Files.readAllBytes(FileOps.publish(hidden)));
    Path deleted = create(dir, ".part-p8-0-1.bin.inprogress", content);
    Files.delete(deleted);
    assertEquals(List.of(), openUploads(dir));
  }

  @Test
  void aFileOfSeveralPartsReadsBackByteIdentical() throws Exception {
    Path dir = dir("large");
    byte[] content = new byte[20 << 20];
    new Random(20).nextBytes(content);
    Path hidden = create(dir, ".part-p2-0-0.bin.inprogress", content);
    assertEquals(3, marker(hidden).get("parts").size(), "20 MiB in parts of 8 MiB");
    assertEquals(content.length, Files.size(hidden));
    Path visible = FileOps.publish(hidden);
    assertEquals(content.length, Files.size(visible));
    assertArrayEquals(content, Files.readAllBytes(visible));
  }

  @Test
  void aPublishCutBetweenCompleteAndMarkerDeleteIsFinishedByItsReplay() throws Exception {
    Path dir = dir("cut");
    byte[] content = "{}\n".getBytes(StandardCharsets.UTF_8);
    Path hidden = create(dir, ".part-p3-0-0.json.inprogress", content);
    completeOnly(hidden); // the crash: the upload is complete, its marker is still there
    assertEquals(dir.resolve("part-p3-0-0.json"), FileOps.publish(hidden));
    assertFalse(Files.exists(hidden), "the replay deletes the marker");
    assertArrayEquals(content, Files.readAllBytes(dir.resolve("part-p3-0-0.json")));

    // the same cut, replayed by the move itself, for a file of two parts: the repeated Complete
    // (AWS: NoSuchUpload, then the object of the marker's size counts as this upload; s3proxy
    // answers 200) leaves the object as it was
    byte[] large = new byte[9 << 20];
    new Random(3).nextBytes(large);
    Path again = create(dir, ".part-p3-0-1.bin.inprogress", large);
    completeOnly(again);
    FileOps.moveIntoPlace(again, dir.resolve("part-p3-0-1.bin"), false);
    assertFalse(Files.exists(again));
    assertArrayEquals(large, Files.readAllBytes(dir.resolve("part-p3-0-1.bin")));
    assertEquals(List.of(), openUploads(dir));
  }

  @Test
  void aPublishNeverOverwritesAnotherObject() throws Exception {
    Path dir = dir("overwrite");
    Path hidden =
        create(
            dir, ".part-p4-0-0.json.inprogress", "{\"mine\":1}\n".getBytes(StandardCharsets.UTF_8));
    Path visible = dir.resolve("part-p4-0-0.json");
    Files.write(visible, "other\n".getBytes(StandardCharsets.UTF_8));
    assertThrows(FileAlreadyExistsException.class, () -> FileOps.publish(hidden));
    // the store's own guard, below publish's check: Complete with If-None-Match: *
    assertThrows(
        FileAlreadyExistsException.class, () -> FileOps.moveIntoPlace(hidden, visible, false));
    assertEquals("other\n", Files.readString(visible));
    assertTrue(Files.exists(hidden), "the pending file stays for someone to look at");

    IOException elsewhere =
        assertThrows(
            IOException.class, () -> FileOps.moveIntoPlace(hidden, dir.resolve("x.json"), false));
    assertTrue(
        elsewhere.getMessage().contains("can only be published there"), elsewhere.getMessage());
    assertFalse(Files.exists(dir.resolve("x.json")));
    Files.delete(hidden);
  }

  @Test
  void deletingAMarkerAbortsItsUpload() throws Exception {
    Path dir = dir("delete");
    Path hidden = create(dir, ".part-p5-0-0.json.inprogress", new byte[] {1, 2, 3});
    assertEquals(1, openUploads(dir).size());
    assertTrue(FileOps.deleteQuietly(hidden));
    assertEquals(List.of(), openUploads(dir));
    assertFalse(Files.exists(dir.resolve("part-p5-0-0.json")));
    assertFalse(Files.exists(hidden));
  }

  @Test
  void anUploadInterruptedAtCloseLeavesNothingOpen() throws Exception {
    Path dir = dir("interrupted");
    OutputStream out = FileOps.createForPublish(dir, ".part-p9-0-0.json.inprogress");
    out.write(new byte[] {1});
    Thread.currentThread().interrupt(); // a cancelled task
    try {
      assertThrows(InterruptedIOException.class, out::close);
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the task");
    } finally {
      Thread.interrupted();
    }
    assertEquals(List.of(), openUploads(dir));
    assertFalse(Files.exists(dir.resolve(".part-p9-0-0.json.inprogress")));
  }

  @Test
  void anUploadWithoutMarkerIsAbortedByTheCleanUpOfItsWrite() throws Exception {
    Path dir = dir("orphan");
    // a crash between CreateMultipartUpload and the marker's PutObject
    s3.createMultipartUpload(
        b -> b.bucket(StorageServers.BUCKET).key(key(dir) + "/part-p6-0-0.json"));
    s3.createMultipartUpload(
        b -> b.bucket(StorageServers.BUCKET).key(key(dir) + "/part-other-0-0.json"));
    assertEquals(
        1, Stores.abortOpenUploads(dir, name -> name.equals(".part-p6-0-0.json.inprogress")));
    assertEquals(1, openUploads(dir).size(), "another write's upload is left alone");
    assertEquals(key(dir) + "/part-other-0-0.json", openUploads(dir).get(0).key());
    assertEquals(1, Stores.abortOpenUploads(dir, name -> true));
    assertEquals(List.of(), openUploads(dir));
  }

  @Test
  void onHdfsAFileForPublishIsAPlainHiddenFile() throws Exception {
    Path dir = TablePaths.of(servers.root("hdfs") + "/pending-uploads/plain");
    byte[] content = {4, 5, 6};
    Path hidden = create(dir, ".part-p7-0-0.bin.inprogress", content);
    assertArrayEquals(content, Files.readAllBytes(hidden));
    assertArrayEquals(content, Files.readAllBytes(FileOps.publish(hidden)));
  }
}
