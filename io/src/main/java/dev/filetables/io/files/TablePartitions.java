package dev.filetables.io.files;

import dev.filetables.io.partition.PartitionFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Lists a table's leaf partition directories (without their files), with the same walk and pruning
 * as {@link TableListing}: for partition commits and compaction. An unpartitioned table has one,
 * its root; a missing root has none.
 */
@Internal
public final class TablePartitions {
  private TablePartitions() {}

  public static List<PartitionDirectory> listPartitions(
      Path root, List<String> partitionKeys, String defaultPartitionName, PartitionFilter filter)
      throws IOException {
    PartitionWalker walker =
        new PartitionWalker(partitionKeys, defaultPartitionName, filter, PartitionWalker.NIO);
    List<PartitionDirectory> partitions = new ArrayList<>();
    walker.walk(
        root.toAbsolutePath(),
        (dir, partition) -> partitions.add(PartitionDirectory.of(dir.toString(), partition)));
    partitions.sort(Comparator.comparing(PartitionDirectory::path));
    return partitions;
  }
}
