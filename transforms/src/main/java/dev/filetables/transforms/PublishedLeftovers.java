package dev.filetables.transforms;

import dev.filetables.transforms.sink.publish.EndOfInputIntents.RecoveredPartition;
import java.util.List;

/** What {@link FileTableMaintenance#publishLeftovers} did (or, in a dry run, would do). */
public final class PublishedLeftovers {
  private final String table;
  private final boolean dryRun;
  private final List<RecoveredPartition> partitions;
  private final List<String> committed;

  PublishedLeftovers(
      String table, boolean dryRun, List<RecoveredPartition> partitions, List<String> committed) {
    this.table = table;
    this.dryRun = dryRun;
    this.partitions = List.copyOf(partitions);
    this.committed = List.copyOf(committed);
  }

  /** The partitions that had intents or aborted hidden files of the write. */
  public List<RecoveredPartition> partitions() {
    return partitions;
  }

  /** Partition paths whose commit policies ran (empty in a dry run or without commit policies). */
  public List<String> committed() {
    return committed;
  }

  /** Visible files that hold the rows of the completed intents. */
  public int filesPublished() {
    return partitions.stream().mapToInt(p -> p.published().size()).sum();
  }

  /** Aborted hidden files deleted. */
  public int abortedFilesDeleted() {
    return partitions.stream().mapToInt(p -> p.abortedFiles().size()).sum();
  }

  /** True if there was nothing to do. */
  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  public boolean dryRun() {
    return dryRun;
  }

  /** One line: what was (or would be) published, deleted and committed. */
  public String summary() {
    if (isEmpty()) {
      return "table `" + table + "`: no end-of-input leftovers";
    }
    return "table `"
        + table
        + "`: "
        + (dryRun ? "would publish " : "published ")
        + filesPublished()
        + " file(s) left hidden at the end of the input in "
        + partitions.size()
        + " partition(s)"
        + (abortedFilesDeleted() > 0
            ? (dryRun ? ", would delete " : ", deleted ")
                + abortedFilesDeleted()
                + " aborted hidden file(s)"
            : "")
        + (committed.isEmpty() ? "" : ", committed " + committed.size() + " partition(s)");
  }

  @Override
  public String toString() {
    return summary() + " " + partitions;
  }
}
