package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The three steps of a read, for composing: list the data files (at run time, pruned), split each
 * into byte ranges, read each range into rows of the table schema. The caller spreads the work
 * between steps (e.g. with {@code Reshuffle.viaRandomKey()}).
 */
@Internal
public final class ReadRanges {
  private ReadRanges() {}

  /** Impulse → the table's visible data files matching {@code filter}. */
  public static ParDo.SingleOutput<byte[], DataFile> listFiles(
      TableSpec table, PartitionFilter filter) {
    return ParDo.of(new ListFilesFn(table, filter));
  }

  /** Data file → its ranges of about {@code targetSplitSize} bytes. */
  public static ParDo.SingleOutput<DataFile, FileRange> splitFiles(
      TableOptions options, long targetSplitSize) {
    return ParDo.of(new SplitFileFn(options, targetSplitSize));
  }

  /**
   * Range → rows of {@link TableSpec#schema()}, bad records handled by the table's {@code
   * source.bad-records} policy ({@link FileRangeReader}); with {@code dead-letter} they are in the
   * result's {@link ReadResult#deadLetters}, for the caller to write (bounded or unbounded input
   * alike).
   */
  public static ReadRows readRows(TableSpec table) {
    return new ReadRows(table);
  }

  /** See {@link #readRows}. */
  public static final class ReadRows implements ReadSteps<PCollection<FileRange>> {
    private static final long serialVersionUID = 1L;
    private final TableSpec table;

    private ReadRows(TableSpec table) {
      this.table = table;
    }

    @Override
    public ReadResult applyTo(PCollection<FileRange> ranges) {
      PCollectionTuple read =
          ranges.apply(
              "Read",
              ParDo.of(new ReadRangeFn(table))
                  .withOutputTags(ReadRangeFn.ROWS, TupleTagList.of(ReadRangeFn.DEAD_LETTERS)));
      return ReadResult.of(
          read.get(ReadRangeFn.ROWS).setRowSchema(table.schema()),
          read.get(ReadRangeFn.DEAD_LETTERS).setRowSchema(DeadLetterTable.SCHEMA));
    }
  }
}
