package dev.filetables.transforms.commit;

import com.google.auto.value.AutoValue;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.checkerframework.checker.nullness.qual.Nullable;

/** One commit of one partition, as output by {@link PartitionCommit}. */
@AutoValue
@DefaultCoder(CommittedPartitionCoder.class)
public abstract class CommittedPartition implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Relative partition directory, e.g. {@code dt=2020-05-20/hour=12}. */
  public abstract String partitionPath();

  /** Raw partition values in key order; null for the default partition. */
  public abstract List<@Nullable String> partitionValues();

  /** 1 for the first commit, 2 and more for re-commits after late data. */
  public abstract int commitNumber();

  /** Files and rows this commit added (published since the previous commit). */
  public abstract int newFileCount();

  public abstract long newRowCount();

  /** Visible data files in the partition at commit time. */
  public abstract int fileCount();

  public abstract Instant commitTime();

  abstract @Nullable LocalDateTime partitionTimeOrNull();

  /** The partition's local time, when it can be extracted. */
  public Optional<LocalDateTime> partitionTime() {
    return Optional.ofNullable(partitionTimeOrNull());
  }

  /** {@code partition-time}, {@code process-time} or {@code end-of-input}. */
  public abstract String reason();

  public boolean isRecommit() {
    return commitNumber() > 1;
  }

  public static CommittedPartition of(
      String partitionPath,
      List<@Nullable String> partitionValues,
      int commitNumber,
      int newFileCount,
      long newRowCount,
      int fileCount,
      Instant commitTime,
      @Nullable LocalDateTime partitionTime,
      String reason) {
    // ArrayList: serializable and null-tolerant, unlike List.copyOf
    List<@Nullable String> values = Collections.unmodifiableList(new ArrayList<>(partitionValues));
    return new AutoValue_CommittedPartition(
        partitionPath,
        values,
        commitNumber,
        newFileCount,
        newRowCount,
        fileCount,
        commitTime,
        partitionTime,
        reason);
  }
}
