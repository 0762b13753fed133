package dev.filetables.transforms.sink.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.filetables.io.commit.PartitionFiles;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.IntentFileName;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.Stores;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.beam.sdk.annotations.Internal;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * End-of-input intents of the streaming sink on Flink: the groups of hidden files that the last
 * stretch of a finite stream publishes at the job's final checkpoint ({@link
 * FinalCheckpointPublisher}), kept in a hidden file of the partition directory ({@link
 * IntentFileName}) so that the post-job publish ({@link #recover}) can finish what the final
 * checkpoint's callback did not.
 *
 * <p>Format: JSON, written atomically (temporary name, then rename):
 *
 * <pre>
 * { "format" : 1, "writeUuid" : "…", "partition" : "dt=…/hour=…", "createdMillis" : 1700000000000,
 *   "merge" : true,                      // groups are merged (auto-compaction), else each file renamed
 *   "groups" : [ [ { "name" : ".part-….json.inprogress", "rows" : 10, "bytes" : 1234,
 *                    "minTimestamp" : 1700000000000, "maxTimestamp" : 1700000000999 }, … ], … ] }
 * </pre>
 *
 * Completing an intent publishes its groups one by one with the idempotent operations of {@link
 * PartitionCompactor} and then deletes the intent: running it again, or after a crash midway, is
 * safe.
 */
@Internal
public final class EndOfInputIntents {
  private static final Logger LOG = LoggerFactory.getLogger(EndOfInputIntents.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FORMAT = 1;

  /** Intent times strictly increase within a JVM, so a rewritten intent is always the newest. */
  private static final AtomicLong LAST_MILLIS = new AtomicLong();

  private EndOfInputIntents() {}

  /** One intent: the groups of hidden files a partition still has to publish. */
  public static final class Intent {
    final Path file;
    final String writeUuid;
    final String partitionPath;
    final long createdMillis;
    final boolean merge;
    final List<List<WrittenFile>> groups;

    Intent(
        Path file,
        String writeUuid,
        String partitionPath,
        long createdMillis,
        boolean merge,
        List<List<WrittenFile>> groups) {
      this.file = file;
      this.writeUuid = writeUuid;
      this.partitionPath = partitionPath;
      this.createdMillis = createdMillis;
      this.merge = merge;
      this.groups = groups;
    }

    public Path file() {
      return file;
    }

    public String partitionPath() {
      return partitionPath;
    }

    public List<List<WrittenFile>> groups() {
      return groups;
    }
  }

  /**
   * Writes the intent of {@code groups} (hidden files of one partition directory {@code dir}) and
   * returns its path; the name's time is later than that of every intent written before in this
   * JVM.
   */
  static Path write(
      Path dir,
      String writeUuid,
      String partitionPath,
      boolean merge,
      List<List<WrittenFile>> groups)
      throws IOException {
    long millis = LAST_MILLIS.updateAndGet(last -> Math.max(System.currentTimeMillis(), last + 1));
    String name =
        IntentFileName.of(
            writeUuid, millis, UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("writeUuid", writeUuid);
    root.put("partition", partitionPath);
    root.put("createdMillis", millis);
    root.put("merge", merge);
    ArrayNode groupsNode = root.putArray("groups");
    for (List<WrittenFile> group : groups) {
      ArrayNode files = groupsNode.addArray();
      for (WrittenFile file : group) {
        Path path = TablePaths.of(file.path());
        if (!dir.equals(path.getParent())) {
          throw new IllegalArgumentException(file.path() + " is not in " + dir);
        }
        ObjectNode entry = files.addObject();
        entry.put("name", path.getFileName().toString());
        entry.put("rows", file.rowCount());
        entry.put("bytes", file.sizeBytes());
        entry.put("minTimestamp", file.minTimestamp().getMillis());
        entry.put("maxTimestamp", file.maxTimestamp().getMillis());
      }
    }
    Path temporary = dir.resolve(IntentFileName.temporaryOf(name));
    Path intent = dir.resolve(name);
    Files.createDirectories(dir);
    FileOps.writeWhole(
        intent, temporary, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root), false);
    return intent;
  }

  /** Reads an intent file; an {@link IOException} naming the file if it is not one. */
  public static Intent read(Path file) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException(
          "End-of-input intent " + file + " is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || root.path("format").asInt(-1) != FORMAT || !root.path("groups").isArray()) {
      throw new IOException(
          "End-of-input intent "
              + file
              + " has an unknown format (expected \"format\" : "
              + FORMAT
              + ")");
    }
    Path dir = file.getParent();
    String partition = root.path("partition").asText();
    List<List<WrittenFile>> groups = new ArrayList<>();
    for (JsonNode groupNode : root.path("groups")) {
      List<WrittenFile> group = new ArrayList<>();
      for (JsonNode f : groupNode) {
        String name = f.path("name").asText();
        if (!PartFileName.isInProgress(name) || name.contains("/")) {
          throw new IOException(
              "End-of-input intent " + file + " names '" + name + "', not a hidden part file");
        }
        group.add(
            WrittenFile.of(
                partition,
                dir.resolve(name).toString(),
                f.path("rows").asLong(),
                f.path("bytes").asLong(),
                new Instant(f.path("minTimestamp").asLong()),
                new Instant(f.path("maxTimestamp").asLong())));
      }
      if (!group.isEmpty()) {
        groups.add(group);
      }
    }
    return new Intent(
        file,
        root.path("writeUuid").asText(),
        partition,
        root.path("createdMillis").asLong(),
        root.path("merge").asBoolean(),
        groups);
  }

  /**
   * Publishes every group of {@code intent} (merged with {@code compactor} when the intent says so,
   * else each file renamed) and then deletes the intent. Idempotent: a group published before is
   * found published. Returns the visible files that hold the groups' rows.
   *
   * @param afterGroup called after each published group (failure injection in tests)
   */
  static List<WrittenFile> complete(
      Intent intent, @Nullable PartitionCompactor compactor, AfterGroup afterGroup)
      throws IOException {
    if (intent.merge && compactor == null) {
      throw new IllegalArgumentException(intent.file + " merges its groups: a compactor is needed");
    }
    List<WrittenFile> visible = new ArrayList<>();
    for (List<WrittenFile> group : intent.groups) {
      visible.addAll(
          intent.merge ? compactor.compact(group) : PartitionCompactor.publishAlone(group));
      afterGroup.published(intent.file);
    }
    FileOps.deleteQuietly(intent.file);
    return visible;
  }

  /** Called after each group an intent's completion published. */
  @FunctionalInterface
  interface AfterGroup {
    void published(Path intent);
  }

  /** What {@link #complete} would return, without changing anything. */
  static List<WrittenFile> preview(Intent intent, @Nullable PartitionCompactor compactor)
      throws IOException {
    List<WrittenFile> visible = new ArrayList<>();
    for (List<WrittenFile> group : intent.groups) {
      visible.addAll(intent.merge && compactor != null ? compactor.preview(group) : renamed(group));
    }
    return visible;
  }

  /** The visible files a group of files published one by one (renamed) becomes. */
  static List<WrittenFile> renamed(List<WrittenFile> group) {
    List<WrittenFile> visible = new ArrayList<>(group.size());
    for (WrittenFile file : group) {
      Path path = TablePaths.of(file.path());
      visible.add(
          file.withPath(
              path.resolveSibling(PartFileName.visibleOf(path.getFileName().toString()))
                  .toString()));
    }
    return visible;
  }

  /** The intents of {@code writeUuid} directly in {@code dir}, newest first. */
  static List<Path> intentsOf(Path dir, String writeUuid) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      entries
          .map(p -> p.getFileName().toString())
          .filter(n -> IntentFileName.isOfWrite(n, writeUuid))
          .forEach(names::add);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    names.sort(IntentFileName.NEWEST_FIRST);
    List<Path> paths = new ArrayList<>();
    names.forEach(n -> paths.add(dir.resolve(n)));
    return paths;
  }

  /**
   * Deletes the intents of {@code writeUuid} in {@code dir} except {@code keep}: intents of
   * earlier, failed attempts, which the replay supersedes. Returns how many were deleted.
   */
  static int deleteOthers(Path dir, String writeUuid, @Nullable Path keep) throws IOException {
    int deleted = 0;
    for (Path intent : intentsOf(dir, writeUuid)) {
      if (!intent.equals(keep)) {
        LOG.info(
            "Deleting {}: the end-of-input intent of an earlier attempt, superseded by the replay",
            intent);
        if (FileOps.deleteQuietly(intent)) {
          deleted++;
        }
      }
    }
    return deleted;
  }

  /** What {@link #recover} did in one partition directory. */
  public static final class RecoveredPartition {
    private final String writeUuid;
    private final String partitionPath;
    private final @Nullable Path intent;
    private final List<WrittenFile> published;
    private final int olderIntents;
    private final List<Path> abortedFiles;

    RecoveredPartition(
        String writeUuid,
        String partitionPath,
        @Nullable Path intent,
        List<WrittenFile> published,
        int olderIntents,
        List<Path> abortedFiles) {
      this.writeUuid = writeUuid;
      this.partitionPath = partitionPath;
      this.intent = intent;
      this.published = published;
      this.olderIntents = olderIntents;
      this.abortedFiles = abortedFiles;
    }

    public String writeUuid() {
      return writeUuid;
    }

    /** The partition path relative to the table root ('' for the root). */
    public String partitionPath() {
      return partitionPath;
    }

    /** The newest intent, completed; null if the partition only had aborted hidden files. */
    public @Nullable Path intent() {
      return intent;
    }

    /** The visible files that hold the rows of the completed intent. */
    public List<WrittenFile> published() {
      return published;
    }

    /** Older intents of the write in the partition (earlier attempts), deleted. */
    public int olderIntents() {
      return olderIntents;
    }

    /** Hidden files of the write that no newest intent names (aborted attempts), deleted. */
    public List<Path> abortedFiles() {
      return abortedFiles;
    }

    @Override
    public String toString() {
      return (partitionPath.isEmpty() ? "(root)" : partitionPath)
          + ": "
          + published.size()
          + " file(s) published"
          + (intent == null ? "" : " from " + intent.getFileName())
          + (olderIntents > 0 ? ", " + olderIntents + " older intent(s) deleted" : "")
          + (abortedFiles.isEmpty()
              ? ""
              : ", " + abortedFiles.size() + " aborted hidden file(s) deleted");
    }
  }

  /**
   * The post-job publish: finishes the end-of-input intents of {@code writeUuid} (every write when
   * null) under the table's root. <b>Only safe once the writing job has ended for good</b> (not to
   * be restored from a savepoint or checkpoint taken before its input ended): while it can still be
   * restored, a restore could write the same rows again.
   *
   * <p>Per partition directory the newest intent of the write wins (a failed attempt's intent is
   * always followed by a newer one of the replay, or removed by the replay's publish); it is
   * completed, idempotently, and older intents are deleted. Hidden files of the write in such a
   * partition that the newest intent does not name are left over from aborted attempts: deleted,
   * never published. With {@code dryRun} nothing changes; the result says what would be done.
   */
  public static List<RecoveredPartition> recover(
      TableSpec table, @Nullable String writeUuid, boolean dryRun) throws IOException {
    Path root = table.options().rootPath().toAbsolutePath().normalize();
    // write uuid -> partition directory -> its intents
    Map<String, Map<Path, List<Path>>> intents = new TreeMap<>();
    if (Files.isDirectory(root)) {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              String name = file.getFileName().toString();
              if (writeUuid != null
                  && IntentFileName.isTemporaryOfWrite(name, writeUuid)
                  && !dryRun) {
                LOG.info("Deleting {}: an end-of-input intent whose writing was interrupted", file);
                FileOps.deleteQuietly(file);
              }
              IntentFileName.parse(name)
                  .filter(p -> writeUuid == null || p.writeUuid().equals(writeUuid))
                  .ifPresent(
                      p ->
                          intents
                              .computeIfAbsent(p.writeUuid(), u -> new TreeMap<>())
                              .computeIfAbsent(file.getParent(), d -> new ArrayList<>())
                              .add(file));
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              LOG.warn(
                  "Skipping {} while looking for end-of-input intents: {}", file, e.toString());
              return FileVisitResult.CONTINUE;
            }
          });
    }
    if (writeUuid != null) {
      intents.computeIfAbsent(writeUuid, u -> new TreeMap<>());
    }
    List<RecoveredPartition> recovered = new ArrayList<>();
    for (Map.Entry<String, Map<Path, List<Path>>> write : intents.entrySet()) {
      String uuid = write.getKey();
      Map<Path, RecoveredPartition> byDir = new LinkedHashMap<>();
      Set<Path> named = new HashSet<>();
      for (Map.Entry<Path, List<Path>> partition : write.getValue().entrySet()) {
        Path dir = partition.getKey();
        List<Path> found = new ArrayList<>(partition.getValue());
        found.sort(
            (a, b) ->
                IntentFileName.NEWEST_FIRST.compare(
                    a.getFileName().toString(), b.getFileName().toString()));
        Intent newest = read(found.get(0));
        PartitionCompactor own =
            newest.merge ? new PartitionCompactor(uuid, compactorMerger(table)) : null;
        newest.groups.forEach(g -> g.forEach(f -> named.add(TablePaths.of(f.path()))));
        List<WrittenFile> published;
        if (dryRun) {
          published = preview(newest, own);
        } else {
          for (Path older : found.subList(1, found.size())) {
            LOG.info(
                "Deleting {}: an older end-of-input intent, superseded by {}",
                older,
                found.get(0).getFileName());
            FileOps.deleteQuietly(older);
          }
          published = complete(newest, own, intent -> {});
          LOG.info(
              "Completed end-of-input intent {}: published {} file(s)",
              newest.file,
              published.size());
        }
        byDir.put(
            dir,
            new RecoveredPartition(
                uuid,
                relative(root, dir),
                newest.file,
                published,
                found.size() - 1,
                new ArrayList<>()));
      }
      // hidden files of the write that no newest intent names, in the partitions that have one:
      // aborted attempts' leftovers there. Elsewhere hidden files are left alone: they may belong
      // to
      // the open files of a stopped job that a savepoint will restore.
      for (Path hidden : FileOps.listHidden(root, uuid)) {
        if (named.contains(hidden)
            || !write.getValue().containsKey(hidden.getParent())
            || !uuid.equals(PartitionFiles.writeUuidOf(hidden.getFileName().toString()))) {
          continue;
        }
        if (named.stream().anyMatch(n -> isDerivedFrom(hidden, n))) {
          continue; // a segment of a file an intent publishes (deleted with it)
        }
        Path dir = hidden.getParent();
        RecoveredPartition partition =
            byDir.computeIfAbsent(
                dir,
                d ->
                    new RecoveredPartition(
                        uuid, relative(root, d), null, List.of(), 0, new ArrayList<>()));
        partition.abortedFiles.add(hidden);
        if (!dryRun) {
          LOG.info(
              "Deleting {}: a hidden file of write {} that no end-of-input intent publishes (aborted attempt)",
              hidden,
              uuid);
          FileOps.deleteQuietly(hidden);
        }
      }
      if (!dryRun) {
        // the intents are completed and the rest deleted: an upload of the write still open on S3
        // in these partitions is one whose marker an aborted attempt never wrote
        for (Path dir : write.getValue().keySet()) {
          Stores.abortOpenUploads(dir, name -> uuid.equals(PartitionFiles.writeUuidOf(name)));
        }
      }
      recovered.addAll(byDir.values());
    }
    return Collections.unmodifiableList(recovered);
  }

  /**
   * Hidden files of {@code writeUuid} (every write when null) under the table's root: in-progress
   * part files and their segments, intents and interrupted intent writes. After a write's job has
   * ended and its post-job publish ran, there must be none: nothing will ever publish them.
   */
  public static List<Path> hiddenFilesOf(TableSpec table, @Nullable String writeUuid)
      throws IOException {
    Path root = table.options().rootPath().toAbsolutePath().normalize();
    return FileOps.listFiles(root, name -> isHiddenOfWrite(name, writeUuid));
  }

  private static boolean isHiddenOfWrite(String name, @Nullable String writeUuid) {
    if (writeUuid == null) {
      return PartFileName.isInProgress(name)
          || IntentFileName.isIntent(name)
          || isTemporaryIntent(name);
    }
    return (PartFileName.isInProgress(name) && name.contains("part-" + writeUuid))
        || IntentFileName.isOfWrite(name, writeUuid)
        || IntentFileName.isTemporaryOfWrite(name, writeUuid);
  }

  private static boolean isTemporaryIntent(String name) {
    return name.endsWith(".tmp")
        && IntentFileName.isIntent(name.substring(0, name.length() - ".tmp".length()));
  }

  private static dev.filetables.io.format.FileMerger compactorMerger(TableSpec table) {
    return FileMergers.of(FileFormats.of(table.options()), table.fileSchema());
  }

  /**
   * True if {@code hidden} is a segment (or other derived file) of the hidden part file {@code
   * part}.
   */
  private static boolean isDerivedFrom(Path hidden, Path part) {
    if (!hidden.getParent().equals(part.getParent())) {
      return false;
    }
    String name = part.getFileName().toString();
    String prefix = name.substring(0, name.length() - ".inprogress".length()) + ".";
    return hidden.getFileName().toString().startsWith(prefix);
  }

  private static String relative(Path root, Path dir) {
    return root.relativize(dir).toString().replace('\\', '/');
  }
}
