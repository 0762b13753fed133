package dev.filetables.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a write left on disk: visible data files (names not starting with '.' or '_', as readers see
 * them) per partition directory, and their bytes. Counted from the file system rather than from the
 * pipeline, so FileTables and the Beam baseline are measured the same way.
 */
final class BatchTableStats {
  final int partitions;
  final int files;
  final int minFilesPerPartition;
  final int maxFilesPerPartition;
  final long bytes;

  private BatchTableStats(Map<Path, Integer> filesPerPartition, long bytes) {
    this.partitions = filesPerPartition.size();
    this.files = filesPerPartition.values().stream().mapToInt(Integer::intValue).sum();
    this.minFilesPerPartition =
        filesPerPartition.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    this.maxFilesPerPartition =
        filesPerPartition.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    this.bytes = bytes;
  }

  static BatchTableStats of(Path table) throws IOException {
    Map<Path, Integer> perPartition = new TreeMap<>();
    long bytes = 0;
    try (Stream<Path> paths = Files.walk(table)) {
      for (Path file : (Iterable<Path>) paths::iterator) {
        if (!Files.isRegularFile(file) || hidden(table.relativize(file))) {
          continue;
        }
        perPartition.merge(file.getParent(), 1, Integer::sum);
        bytes += Files.size(file);
      }
    }
    return new BatchTableStats(perPartition, bytes);
  }

  /** True when any path element is hidden ('.' or '_' first), e.g. Beam's temporary directory. */
  private static boolean hidden(Path relative) {
    for (Path element : relative) {
      String name = element.toString();
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  /** {@code 2} or {@code 1-3 (avg 2.1)}. */
  String filesPerPartition() {
    if (minFilesPerPartition == maxFilesPerPartition) {
      return Integer.toString(minFilesPerPartition);
    }
    return String.format(
        "%d-%d (avg %.1f)",
        minFilesPerPartition, maxFilesPerPartition, files / (double) Math.max(1, partitions));
  }
}
