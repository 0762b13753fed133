package dev.filetables.io.commit;

import com.google.auto.value.AutoValue;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.checkerframework.checker.nullness.qual.Nullable;

/** What a {@link PartitionCommitPolicy} gets to know about the partition it commits. */
@AutoValue
public abstract class PartitionCommitContext {

  /** The table's name. */
  public abstract String tableName();

  /** Absolute table root directory. */
  public abstract Path tableRoot();

  /** Partition keys, outermost first. */
  public abstract List<String> partitionKeys();

  /** Raw (unescaped) partition values in key order; null for the default partition. */
  public abstract List<@Nullable String> partitionValues();

  /** Relative partition directory, e.g. {@code dt=2020-05-20/hour=12} (escaped as on disk). */
  public abstract String partitionPath();

  /** Absolute partition directory. */
  public Path partitionDirectory() {
    return tableRoot().resolve(partitionPath());
  }

  /** Key → raw value, in key order. */
  public Map<String, @Nullable String> partition() {
    Map<String, @Nullable String> partition = new LinkedHashMap<>();
    for (int i = 0; i < partitionKeys().size(); i++) {
      partition.put(partitionKeys().get(i), partitionValues().get(i));
    }
    return Collections.unmodifiableMap(partition);
  }

  /**
   * Files this job published into the partition since its previous commit (the ones this commit
   * adds).
   */
  public abstract List<CommittedFile> newFiles();

  /**
   * Every visible data file in the partition directory at commit time, sorted by name: the new
   * files, earlier commits' files, and files of other writers (row counts unknown unless an earlier
   * manifest counted them).
   */
  public abstract List<CommittedFile> files();

  /** The partition's local time, when it can be extracted. */
  public abstract Optional<LocalDateTime> partitionTime();

  /**
   * For a {@code partition-time} commit, the instant the watermark had passed: partition time in
   * the watermark time zone + delay; also at the end of input, where the final watermark passes
   * every partition at once. Empty for {@code process-time} commits and when the partition time
   * cannot be extracted.
   */
  public abstract Optional<Instant> watermark();

  /** Wall-clock time of this commit. */
  public abstract Instant commitTime();

  /**
   * 1 for the first commit of the partition by this job, 2 and more for re-commits after late data.
   */
  public abstract int commitNumber();

  /**
   * {@code partition-time}, {@code process-time} or {@code end-of-input}: what made the partition
   * due.
   */
  public abstract String reason();

  /** Rows in {@link #newFiles()}. */
  public long newRowCount() {
    return newFiles().stream().mapToLong(f -> f.rowCount().orElse(0)).sum();
  }

  /** Rows in {@link #files()}, when every file's count is known. */
  public OptionalLong rowCount() {
    long rows = 0;
    for (CommittedFile file : files()) {
      if (file.rowCount().isEmpty()) {
        return OptionalLong.empty();
      }
      rows += file.rowCount().getAsLong();
    }
    return OptionalLong.of(rows);
  }

  public static Builder builder() {
    return new AutoValue_PartitionCommitContext.Builder()
        .setWatermark(Optional.empty())
        .setPartitionTime(Optional.empty())
        .setCommitNumber(1);
  }

  public abstract Builder toBuilder();

  @AutoValue.Builder
  public abstract static class Builder {
    public abstract Builder setTableName(String name);

    public abstract Builder setTableRoot(Path root);

    public abstract Builder setPartitionKeys(List<String> keys);

    public abstract Builder setPartitionValues(List<@Nullable String> values);

    public abstract Builder setPartitionPath(String path);

    public abstract Builder setNewFiles(List<CommittedFile> files);

    public abstract Builder setFiles(List<CommittedFile> files);

    public abstract Builder setPartitionTime(Optional<LocalDateTime> time);

    public abstract Builder setWatermark(Optional<Instant> watermark);

    public abstract Builder setCommitTime(Instant time);

    public abstract Builder setCommitNumber(int number);

    public abstract Builder setReason(String reason);

    public abstract PartitionCommitContext build();
  }
}
