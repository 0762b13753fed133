package dev.filetables.pipelines;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Optional;

/**
 * What a reader of a table sees right now, in figures: its visible data files (listed like every
 * reader lists them), their bytes and rows (each file read completely with the table's format). For
 * the demos' summaries; the tests' oracle that also reports hidden and unreadable files is {@code
 * TableContents} in the test-fixtures module.
 */
final class TableSummary {
  final long files;
  final long bytes;
  final long rows;

  private TableSummary(long files, long bytes, long rows) {
    this.files = files;
    this.bytes = bytes;
    this.rows = rows;
  }

  /**
   * Lists and reads the table's visible files. As in the tests' oracle, a file that fails to read
   * (e.g. one a compaction removed meanwhile) counts the rows read before the failure.
   */
  static TableSummary of(TableSpec table) throws IOException {
    TableOptions options = table.options();
    FileFormat format = FileFormats.of(options);
    List<DataFile> dataFiles =
        TableListing.list(
            options.rootPath(),
            table.partitionKeys(),
            options.partitionDefaultName(),
            PartitionFilter.all(),
            Optional.empty());
    long bytes = 0;
    long rows = 0;
    for (DataFile file : dataFiles) {
      bytes += file.size();
      rows += countRows(format, table, file);
    }
    return new TableSummary(dataFiles.size(), bytes, rows);
  }

  private static long countRows(FileFormat format, TableSpec table, DataFile file) {
    long rows = 0;
    try (SeekableByteChannel channel = ListedFiles.open(TablePaths.of(file.path()))) {
      long size = channel.size();
      try (RowReader reader =
          format.createReader(channel, size, ByteRange.of(0, size), table.fileSchema())) {
        while (reader.next() != null) {
          rows++;
        }
      }
    } catch (IOException | RuntimeException e) {
      // counted so far; the demo compares the total with what it produced
    }
    return rows;
  }
}
