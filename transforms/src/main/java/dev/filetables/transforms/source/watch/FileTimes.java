package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.partition.time.PartitionTimeExtractor;
import dev.filetables.io.partition.time.PartitionTimeExtractors;
import dev.filetables.io.partition.time.PartitionTimes;
import dev.filetables.io.table.TableOptions;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file's time for the file-time watermark: its partition time (in the table's {@code
 * sink.partition-commit.watermark-time-zone}) when a partition time extractor is configured (a
 * {@code timestamp-pattern} or a custom extractor), else its modification time.
 */
final class FileTimes {
  private static final Logger LOG = LoggerFactory.getLogger(FileTimes.class);

  private final List<String> keys;
  private final PartitionTimeExtractor extractor; // null: modification time
  private final ZoneId zone;

  FileTimes(List<String> partitionKeys, TableOptions options) {
    this.keys = List.copyOf(partitionKeys);
    boolean configured =
        !keys.isEmpty()
            && (options.timestampPattern().isPresent()
                || "custom".equals(options.timeExtractorKind()));
    this.extractor = configured ? PartitionTimeExtractors.fromOptions(options) : null;
    this.zone = options.watermarkTimeZone();
  }

  boolean usesPartitionTime() {
    return extractor != null;
  }

  long of(DataFile file) {
    if (extractor == null) {
      return file.modificationTimeMillis();
    }
    List<String> values = new ArrayList<>(keys.size());
    for (String key : keys) {
      values.add(file.partition().get(key));
    }
    try {
      LocalDateTime local = extractor.extract(keys, values);
      return PartitionTimes.toEpochMillis(local, zone);
    } catch (RuntimeException e) {
      LOG.warn(
          "No partition time for {} ({}); its rows take the file's modification time",
          file.path(),
          e.getMessage());
      return file.modificationTimeMillis();
    }
  }
}
