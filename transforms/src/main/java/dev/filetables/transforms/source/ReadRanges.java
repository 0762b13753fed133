package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;

/**
 * The three steps of a read, for composing: list the data files (at run time, pruned), split each into
 * byte ranges, read each range into rows of the table schema. The caller spreads the work between
 * steps (e.g. with {@code Reshuffle.viaRandomKey()}).
 */
public final class ReadRanges {
  private ReadRanges() {}

  /** Impulse → the table's visible data files matching {@code filter}. */
  public static ParDo.SingleOutput<byte[], DataFile> listFiles(TableSpec table, PartitionFilter filter) {
    return ParDo.of(new ListFilesFn(table, filter));
  }

  /** Data file → its ranges of about {@code targetSplitSize} bytes. */
  public static ParDo.SingleOutput<DataFile, FileRange> splitFiles(
      TableOptions options, long targetSplitSize) {
    return ParDo.of(new SplitFileFn(options, targetSplitSize));
  }

  /** Range → rows of {@link TableSpec#schema()}. */
  public static ParDo.SingleOutput<FileRange, Row> readRows(TableSpec table) {
    return ParDo.of(new ReadRangeFn(table));
  }
}
