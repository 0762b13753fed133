package dev.filetables.transforms.source;

import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Reads one range of a data file and emits rows of the table schema (file columns, partition
 * columns, metadata columns) to {@link #ROWS}, and bad records to {@link #DEAD_LETTERS} when the
 * table's policy is {@code dead-letter} (see {@link FileRangeReader}).
 */
class ReadRangeFn extends DoFn<FileRange, Row> {
  static final TupleTag<Row> ROWS = new TupleTag<Row>("rows") {};
  static final TupleTag<Row> DEAD_LETTERS = new TupleTag<Row>("deadLetters") {};

  private final FileRangeReader reader;

  ReadRangeFn(TableSpec table) {
    this.reader = new FileRangeReader(table);
  }

  @ProcessElement
  public void processElement(@Element FileRange range, MultiOutputReceiver out) throws IOException {
    OutputReceiver<Row> rows = out.get(ROWS);
    OutputReceiver<Row> deadLetters = out.get(DEAD_LETTERS);
    reader.read(range, rows::output, deadLetters::output);
  }
}
