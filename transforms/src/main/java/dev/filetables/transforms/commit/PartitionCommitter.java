package dev.filetables.transforms.commit;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.commit.CommittedFile;
import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.commit.PartitionCommitPolicies;
import dev.filetables.io.commit.PartitionCommitPolicy;
import dev.filetables.io.commit.PartitionFiles;
import dev.filetables.io.commit.SuccessFilePolicy;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.partition.PartitionPath;
import dev.filetables.io.partition.time.DefaultPartitionTimeExtractor;
import dev.filetables.io.partition.time.PartitionTimeException;
import dev.filetables.io.partition.time.PartitionTimeExtractor;
import dev.filetables.io.partition.time.PartitionTimeExtractors;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The non-Beam half of a partition commit, created once per worker from the table: reads a
 * partition's time, finds the in-progress files that hold a commit back, and runs the policies in
 * their listed order. The {@link CommitTrigger} decides <em>when</em>; this class does the work.
 */
final class PartitionCommitter {
  /** The reason of a commit at the end of the input, whatever the trigger. */
  static final String END_OF_INPUT = "end-of-input";

  private final TableSpec table;
  private final Path root;
  private final List<String> keys;
  private final String defaultName;
  private final PartitionTimeExtractor extractor;
  private final ZoneId zone;
  private final Duration delay;
  private final List<PartitionCommitPolicy> policies;
  private final @Nullable SuccessFilePolicy successFile;

  PartitionCommitter(TableSpec table) {
    this.table = table;
    TableOptions options = table.options();
    this.root = options.rootPath().toAbsolutePath().normalize();
    this.keys = table.partitionKeys();
    this.defaultName = options.partitionDefaultName();
    this.extractor = PartitionTimeExtractors.fromOptions(options);
    this.zone = options.watermarkTimeZone();
    this.delay = options.commitDelay();
    this.policies = PartitionCommitPolicies.fromOptions(options);
    this.successFile = PartitionCommitPolicies.successFile(policies).orElse(null);
  }

  /** True if the success file carries a manifest (which records row counts). */
  boolean writesManifest() {
    return successFile != null && successFile.writesManifest();
  }

  Duration delay() {
    return delay;
  }

  ZoneId zone() {
    return zone;
  }

  Path directory(String partitionPath) {
    return partitionPath.isEmpty() ? root : root.resolve(partitionPath);
  }

  /** Raw values of a partition path, in key order (null for the default partition). */
  List<@Nullable String> values(String partitionPath) {
    return new ArrayList<>(PartitionPath.parse(partitionPath, keys, defaultName).values());
  }

  /**
   * The partition's local time; a {@link PartitionTimeException} naming the partition path and the
   * extractor's settings when it cannot be read.
   */
  LocalDateTime partitionTime(String partitionPath) {
    try {
      return extractor.extract(keys, values(partitionPath));
    } catch (RuntimeException e) {
      throw new PartitionTimeException(
          "Cannot extract the time of partition '"
              + partitionPath
              + "' of table `"
              + table.name()
              + "` ("
              + describeExtractor()
              + "): "
              + e.getMessage(),
          e);
    }
  }

  /** The partition's time, or empty when it cannot be read (for metrics and manifests only). */
  Optional<LocalDateTime> partitionTimeIfAny(String partitionPath) {
    try {
      return Optional.of(partitionTime(partitionPath));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  String describeExtractor() {
    if (extractor instanceof DefaultPartitionTimeExtractor) {
      DefaultPartitionTimeExtractor d = (DefaultPartitionTimeExtractor) extractor;
      return "timestamp-pattern "
          + (d.pattern() != null ? "'" + d.pattern() + "'" : "unset")
          + ", timestamp-formatter "
          + (d.formatterPattern() != null ? "'" + d.formatterPattern() + "'" : "unset");
    }
    return "extractor " + extractor.getClass().getName();
  }

  /**
   * In-progress part files in the partition directory that belong to this write ({@code writeUuid})
   * or to the write of any pending file: while one exists, some of the partition's rows are not
   * visible yet.
   */
  List<Path> inProgressFiles(
      String partitionPath, @Nullable String writeUuid, Collection<WrittenFile> pending)
      throws IOException {
    Set<String> uuids = new LinkedHashSet<>();
    if (writeUuid != null) {
      uuids.add(writeUuid);
    }
    for (WrittenFile file : pending) {
      String uuid = PartitionFiles.writeUuidOf(TablePaths.of(file.path()).getFileName().toString());
      if (uuid != null) {
        uuids.add(uuid);
      }
    }
    return PartitionFiles.inProgressFiles(directory(partitionPath), uuids);
  }

  /**
   * Runs every policy, in the listed order, for the partition and returns the context they got. An
   * exception from a policy propagates, naming the policy; the caller retries the whole list.
   */
  PartitionCommitContext commit(
      String partitionPath,
      List<WrittenFile> newFiles,
      int commitNumber,
      Optional<Instant> watermark,
      String reason)
      throws Exception {
    return commit(partitionPath, newFiles, List.of(), commitNumber, watermark, reason);
  }

  /**
   * As {@link #commit(String, List, int, Optional, String)}; {@code announced} are hidden files of
   * the write announced before their publication: never listed as files of the commit (the
   * directory says what is visible), only the row counts of those now visible under their published
   * names are used, so a manifest knows them.
   */
  PartitionCommitContext commit(
      String partitionPath,
      List<WrittenFile> newFiles,
      List<WrittenFile> announced,
      int commitNumber,
      Optional<Instant> watermark,
      String reason)
      throws Exception {
    PartitionCommitContext context =
        context(partitionPath, newFiles, announced, commitNumber, watermark, reason);
    CommitFailpoints.reached(CommitFailpoints.Point.BEFORE_POLICIES, partitionPath);
    for (PartitionCommitPolicy policy : policies) {
      try {
        policy.commit(context);
      } catch (Exception e) {
        throw new PartitionCommitException(
            "Commit policy "
                + policy
                + " failed for partition '"
                + partitionPath
                + "' of table `"
                + table.name()
                + "`: "
                + e,
            e);
      }
    }
    CommitFailpoints.reached(CommitFailpoints.Point.AFTER_POLICIES, partitionPath);
    return context;
  }

  PartitionCommitContext context(
      String partitionPath,
      List<WrittenFile> newFiles,
      int commitNumber,
      Optional<Instant> watermark,
      String reason)
      throws IOException {
    return context(partitionPath, newFiles, List.of(), commitNumber, watermark, reason);
  }

  PartitionCommitContext context(
      String partitionPath,
      List<WrittenFile> newFiles,
      List<WrittenFile> announced,
      int commitNumber,
      Optional<Instant> watermark,
      String reason)
      throws IOException {
    Path dir = directory(partitionPath);
    List<CommittedFile> added = new ArrayList<>();
    Map<String, Long> rows = new HashMap<>(previousRowCounts(dir));
    for (WrittenFile file : announced) {
      String name = TablePaths.of(file.path()).getFileName().toString();
      if (PartFileName.isInProgress(name)) {
        rows.put(PartFileName.visibleOf(name), file.rowCount()); // same file, renamed on publishing
      }
    }
    List<CommittedFile> visible = PartitionFiles.visibleDataFiles(dir);
    Map<String, Long> listedSizes = new HashMap<>();
    visible.forEach(f -> listedSizes.put(f.name(), f.sizeBytes()));
    for (WrittenFile file : newFiles) {
      String name = TablePaths.of(file.path()).getFileName().toString();
      // a file emitted before it was published (end of input on Flink: a merged file's size was
      // then estimated) has its real size on disk
      long size = listedSizes.getOrDefault(name, file.sizeBytes());
      added.add(CommittedFile.of(file.path(), size, file.rowCount()));
      rows.put(name, file.rowCount());
    }
    List<CommittedFile> all = new ArrayList<>();
    for (CommittedFile file : visible) {
      Long count = rows.get(file.name());
      all.add(count == null ? file : CommittedFile.of(file.path(), file.sizeBytes(), count));
    }
    return PartitionCommitContext.builder()
        .setTableName(table.name())
        .setTableRoot(root)
        .setPartitionKeys(keys)
        .setPartitionValues(values(partitionPath))
        .setPartitionPath(partitionPath)
        .setNewFiles(added)
        .setFiles(all)
        .setPartitionTime(partitionTimeIfAny(partitionPath))
        .setWatermark(watermark)
        .setCommitTime(Instant.now())
        .setCommitNumber(commitNumber)
        .setReason(reason)
        .build();
  }

  /**
   * Row counts an earlier manifest recorded, so a re-commit's manifest still counts the files of
   * earlier commits without keeping them in state. Empty without a manifest (or an unreadable one).
   */
  private Map<String, Long> previousRowCounts(Path dir) {
    Map<String, Long> rows = new HashMap<>();
    if (successFile == null || !successFile.writesManifest()) {
      return rows;
    }
    Path file = dir.resolve(successFile.fileName());
    if (!Files.isRegularFile(file)) {
      return rows;
    }
    try {
      CommitManifest.read(file)
          .files()
          .forEach((name, entry) -> entry.rowCount.ifPresent(n -> rows.put(name, n)));
    } catch (IOException e) {
      // an empty success file from Flink or an earlier run without manifests: counts are unknown
    }
    return rows;
  }

  /** A failed commit policy; the commit is retried. */
  static final class PartitionCommitException extends Exception {
    private static final long serialVersionUID = 1L;

    PartitionCommitException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
