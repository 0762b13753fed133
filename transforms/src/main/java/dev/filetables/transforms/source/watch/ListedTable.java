package dev.filetables.transforms.source.watch;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.files.TableListing;
import java.util.List;
import java.util.Map;

/**
 * What one listing of the watched table found: its files, and for the merged files of an offline
 * compaction among them, the files whose rows they hold ({@link ReplacedFiles.Origin}, by merged
 * file path).
 */
record ListedTable(List<DataFile> files, Map<String, List<ReplacedFiles.Origin>> origins) {
  static final ListedTable EMPTY = new ListedTable(List.of(), Map.of());

  ListedTable {
    files = List.copyOf(files);
    origins = Map.copyOf(origins);
  }

  static ListedTable of(TableListing.Result listing) {
    return new ListedTable(listing.files(), listing.origins());
  }

  /** A listing without merged files that record origins (tools, tests). */
  static ListedTable of(List<DataFile> files) {
    return new ListedTable(files, Map.of());
  }
}
