package dev.filetables.io.partition.time;

import java.time.LocalDateTime;
import java.util.List;

/**
 * Turns a partition into the local date-time it stands for, e.g. {@code dt=2020-05-20/hour=12} →
 * {@code 2020-05-20T12:00}. The time is local: {@link PartitionTimes#toInstant} places it in the
 * table's {@code sink.partition-commit.watermark-time-zone}.
 *
 * <p>Same shape as Flink's {@code PartitionTimeExtractor}, so a Flink custom extractor ports by
 * changing its interface. A custom extractor ({@code partition.time-extractor.kind = custom}) is a
 * public class with a public no-argument constructor named by {@code
 * partition.time-extractor.class}; it is created once per worker and need not be serializable.
 * Throw an exception (preferably {@link PartitionTimeException}) for a partition it cannot read:
 * that partition is reported and left uncommitted, others go on.
 */
public interface PartitionTimeExtractor {

  /**
   * The partition's local time.
   *
   * @param partitionKeys the table's partition keys, outermost first
   * @param partitionValues the partition's raw (unescaped) values in key order; null for the
   *     default partition
   */
  LocalDateTime extract(List<String> partitionKeys, List<String> partitionValues);
}
