package dev.filetables.transforms.sink.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.commit.PartitionFiles;
import dev.filetables.io.files.IntentFileName;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableMaintenance;
import dev.filetables.transforms.PublishedLeftovers;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.schemas.Schema;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-of-input intents and the post-job publish that finishes them, on the local file system.
 */
class EndOfInputIntentsTest {
  private static final String UUID = "5e1b7a0c-aaaa-bbbb-cccc-0123456789ab";
  private static final String OTHER_UUID = "77777777-aaaa-bbbb-cccc-0123456789ab";

  @TempDir Path root;

  private TableSpec table(String... more) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(TableOptions.CONNECTOR, "filesystem");
    options.put(TableOptions.PATH, root.toString());
    options.put(TableOptions.FORMAT, "json");
    for (int i = 0; i < more.length; i += 2) {
      options.put(more[i], more[i + 1]);
    }
    return TableSpec.builder()
        .setName("t")
        .setSchema(
            Schema.builder()
                .addInt64Field("n")
                .addNullableField("dt", Schema.FieldType.STRING)
                .build())
        .setPartitionKeys(List.of("dt"))
        .setOptions(TableOptions.of(options))
        .build();
  }

  /**
   * A hidden part file of {@code uuid} in partition {@code dt=<dt>} with {@code rows} rows, and a
   * segment.
   */
  private WrittenFile hidden(String uuid, String dt, long counter, int rows) throws Exception {
    Path dir = Files.createDirectories(root.resolve("dt=" + dt));
    String name = PartFileName.hidden(uuid, "0", counter, ".json");
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      text.append("{\"n\":").append(counter * 1000 + i).append("}\n");
    }
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    Files.writeString(dir.resolve(name.replace(".inprogress", ".seg-0.inprogress")), "x\n");
    return WrittenFile.of(
        "dt=" + dt, file.toString(), rows, Files.size(file), new Instant(1), new Instant(2));
  }

  private List<String> names(String dt) throws Exception {
    try (Stream<Path> entries = Files.list(root.resolve("dt=" + dt))) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  private long visibleRows(String dt) throws Exception {
    long rows = 0;
    for (String name : names(dt)) {
      if (!PartFileName.isHidden(name)) {
        rows += Files.readAllLines(root.resolve("dt=" + dt).resolve(name)).size();
      }
    }
    return rows;
  }

  private List<String> hiddenNames(String dt) throws Exception {
    return names(dt).stream().filter(n -> n.startsWith(".")).collect(Collectors.toList());
  }

  @Test
  void intentNamesAreHiddenOrderedAndNotPartFiles() {
    String name = IntentFileName.of(UUID, 1700000000123L, "abc123");
    assertTrue(PartFileName.isHidden(name));
    assertFalse(PartFileName.isInProgress(name));
    assertFalse(name.endsWith(".json") || name.endsWith(".parquet"));
    assertEquals(UUID, IntentFileName.parse(name).get().writeUuid());
    assertEquals(1700000000123L, IntentFileName.parse(name).get().epochMillis());
    assertTrue(IntentFileName.isOfWrite(name, UUID));
    assertFalse(IntentFileName.isOfWrite(name, OTHER_UUID));
    assertFalse(IntentFileName.isIntent(IntentFileName.temporaryOf(name)));
    List<String> sorted =
        new ArrayList<>(
            List.of(
                IntentFileName.of(UUID, 5, "a"),
                IntentFileName.of(UUID, 7, "a"),
                IntentFileName.of(UUID, 6, "b")));
    sorted.sort(IntentFileName.NEWEST_FIRST);
    assertEquals(IntentFileName.of(UUID, 7, "a"), sorted.get(0));
  }

  @Test
  void theCommitWaitsForAnIntentOfTheWrite() throws Exception {
    WrittenFile file = hidden(UUID, "a", 1, 1);
    Path dir = Path.of(file.path()).getParent();
    Path intent = EndOfInputIntents.write(dir, UUID, "dt=a", false, List.of(List.of(file)));
    PartitionCompactor.publishAlone(List.of(file));
    assertEquals(List.of(intent), PartitionFiles.inProgressFiles(dir, List.of(UUID)));
    assertEquals(List.of(), PartitionFiles.inProgressFiles(dir, List.of(OTHER_UUID)));
    assertEquals(
        List.of(),
        PartitionFiles.visibleDataFiles(dir).stream()
            .filter(f -> f.name().contains("intent"))
            .collect(Collectors.toList()));
  }

  @Test
  void theNewestIntentWinsAndOlderAttemptsFilesAreNeverPublished() throws Exception {
    // attempt 1 prepared file 10 (3 rows) and failed; the replay cut the same rows into files 11
    // and 12
    WrittenFile failed = hidden(UUID, "a", 10, 3);
    Path dir = Path.of(failed.path()).getParent();
    EndOfInputIntents.write(dir, UUID, "dt=a", false, List.of(List.of(failed)));
    WrittenFile replay1 = hidden(UUID, "a", 11, 2);
    WrittenFile replay2 = hidden(UUID, "a", 12, 1);
    Path newest =
        EndOfInputIntents.write(
            dir, UUID, "dt=a", false, List.of(List.of(replay1), List.of(replay2)));
    WrittenFile otherWrite = hidden(OTHER_UUID, "a", 13, 5);
    Path interrupted = dir.resolve(IntentFileName.temporaryOf(IntentFileName.of(UUID, 3, "tmp1")));
    Files.writeString(interrupted, "{");

    PublishedLeftovers dry = FileTableMaintenance.publishLeftovers(table(), UUID, true);
    assertEquals(2, dry.filesPublished(), dry.toString());
    assertEquals(0, visibleRows("a"), "a dry run changes nothing");

    PublishedLeftovers done = FileTableMaintenance.publishLeftovers(table(), UUID);
    assertEquals(1, done.partitions().size(), done.toString());
    assertEquals(newest, done.partitions().get(0).intent());
    assertEquals(1, done.partitions().get(0).olderIntents());
    assertEquals(2, done.filesPublished());
    assertEquals(3, visibleRows("a"), names("a").toString());
    // only the other write's hidden file (and its segment) is left
    assertEquals(
        List.of(Path.of(otherWrite.path()).getFileName().toString()),
        hiddenNames("a").stream().filter(n -> !n.contains(".seg-")).collect(Collectors.toList()));
    assertTrue(
        hiddenNames("a").stream().noneMatch(n -> n.contains(UUID)), hiddenNames("a").toString());
    assertFalse(Files.exists(interrupted), "an interrupted intent's temporary file is deleted");

    PublishedLeftovers again = FileTableMaintenance.publishLeftovers(table(), UUID);
    assertTrue(again.isEmpty(), again.toString());
    assertEquals(3, visibleRows("a"));
  }

  @Test
  void aCallbackThatFailedMidwayIsFinishedOnceWithMerging() throws Exception {
    WrittenFile a = hidden(UUID, "b", 1, 2);
    WrittenFile b = hidden(UUID, "b", 2, 3);
    WrittenFile c = hidden(UUID, "b", 3, 4);
    Path dir = Path.of(a.path()).getParent();
    Path intentFile =
        EndOfInputIntents.write(dir, UUID, "dt=b", true, List.of(List.of(a, b), List.of(c)));
    EndOfInputIntents.Intent intent = EndOfInputIntents.read(intentFile);
    PartitionCompactor compactor =
        new PartitionCompactor(
            UUID,
            dev.filetables.io.format.FileMergers.of(
                dev.filetables.io.format.FileFormats.of(table().options()), table().fileSchema()));
    List<WrittenFile> expected = EndOfInputIntents.preview(intent, compactor);
    // the final checkpoint's callback publishes the first group and fails
    assertThrows(
        IllegalStateException.class,
        () ->
            EndOfInputIntents.complete(
                intent,
                compactor,
                p -> {
                  throw new IllegalStateException("crash");
                }));
    assertEquals(5, visibleRows("b"));
    assertTrue(Files.exists(intentFile));

    PublishedLeftovers done = FileTableMaintenance.publishLeftovers(table(), UUID);
    assertEquals(9, visibleRows("b"), names("b").toString());
    assertEquals(
        List.of(),
        hiddenNames("b").stream()
            .filter(n -> !n.endsWith(".replaces"))
            .collect(Collectors.toList()));
    Set<String> visible =
        names("b").stream()
            .filter(n -> !PartFileName.isHidden(n))
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        expected.stream()
            .map(f -> Path.of(f.path()).getFileName().toString())
            .collect(Collectors.toCollection(TreeSet::new)),
        visible,
        "the files emitted before publishing are the ones published");
    assertEquals(2, done.filesPublished(), done.toString());
    assertTrue(FileTableMaintenance.publishLeftovers(table(), UUID).isEmpty());
  }

  @Test
  void aMissingInputWithNoVisibleFileIsAnError() throws Exception {
    WrittenFile gone = hidden(UUID, "c", 1, 1);
    Path dir = Path.of(gone.path()).getParent();
    EndOfInputIntents.write(dir, UUID, "dt=c", false, List.of(List.of(gone)));
    Files.delete(Path.of(gone.path()));
    assertThrows(
        NoSuchFileException.class, () -> FileTableMaintenance.publishLeftovers(table(), UUID));
  }

  @Test
  void partitionsWithCommitPoliciesAreCommittedAfterThePublish() throws Exception {
    TableSpec committed =
        table(
            TableOptions.COMMIT_POLICY_KIND, "success-file",
            TableOptions.COMMIT_SUCCESS_FILE_MANIFEST, "true");
    WrittenFile one = hidden(UUID, "d", 1, 2);
    WrittenFile two = hidden(UUID, "e", 2, 3);
    EndOfInputIntents.write(
        Path.of(one.path()).getParent(), UUID, "dt=d", false, List.of(List.of(one)));
    EndOfInputIntents.write(
        Path.of(two.path()).getParent(), UUID, "dt=e", false, List.of(List.of(two)));

    PublishedLeftovers done = FileTableMaintenance.publishLeftovers(committed, UUID);
    assertEquals(List.of("dt=d", "dt=e"), done.committed(), done.toString());
    for (String dt : List.of("d", "e")) {
      Path dir = root.resolve("dt=" + dt);
      CommitManifest manifest = CommitManifest.read(dir.resolve("_SUCCESS"));
      assertEquals(List.of(), manifest.verify(dir), dt);
      assertEquals(
          dt.equals("d") ? 2 : 3,
          manifest.json().path("rowCount").asLong(),
          manifest.json().toString());
    }
  }

  @Test
  void finishingAWritePublishesItsIntentsAndThenFindsNothingHidden() throws Exception {
    WrittenFile file = hidden(UUID, "f", 100, 3);
    EndOfInputIntents.write(
        Path.of(file.path()).getParent(), UUID, "dt=f", false, List.of(List.of(file)));
    hidden(OTHER_UUID, "f", 200, 1); // another write's open file: not this write's business

    PublishedLeftovers done = FileTableMaintenance.finishWrite(table(), UUID);

    assertEquals(1, done.filesPublished(), done.toString());
    assertEquals(3, visibleRows("f"));
    assertEquals(List.of(), EndOfInputIntents.hiddenFilesOf(table(), UUID));
    assertTrue(
        FileTableMaintenance.finishWrite(table(), UUID).isEmpty(),
        "a second call has nothing to do");
  }

  @Test
  void finishingAWriteWhoseRowsNoIntentPublishesFailsNamingTheFiles() throws Exception {
    // a closed hidden file of the write in a partition without an intent: nothing will publish it
    WrittenFile orphan = hidden(UUID, "g", 300, 2);

    dev.filetables.transforms.UnpublishedFilesException e =
        assertThrows(
            dev.filetables.transforms.UnpublishedFilesException.class,
            () -> FileTableMaintenance.finishWrite(table(), UUID));

    String name = Path.of(orphan.path()).getFileName().toString();
    assertTrue(e.getMessage().contains("dt=g/" + name), e.getMessage());
    assertTrue(e.getMessage().contains("write " + UUID), e.getMessage());
    assertTrue(e.getMessage().contains("may be missing"), e.getMessage());
    assertEquals(2, e.files().size(), "the file and its segment: " + e.files());
    assertTrue(Files.exists(Path.of(orphan.path())), "kept for inspection");
    // every write, as the CLI's publish-leftovers without --write-uuid: the same verdict
    assertThrows(
        dev.filetables.transforms.UnpublishedFilesException.class,
        () -> FileTableMaintenance.finishWrite(table(), null));
  }
}
