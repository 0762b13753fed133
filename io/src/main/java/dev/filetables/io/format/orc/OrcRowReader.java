package dev.filetables.io.format.orc;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.orc.VectorReaders.IncompatibleColumnException;
import dev.filetables.io.format.orc.VectorReaders.VectorReader;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;

/**
 * Reads the stripes of one byte range of an ORC file (those that start in the range, orc-core's own
 * split rule, so every stripe is read by exactly one range) as Beam rows. Only the requested
 * columns are read, matched by name (exact, else case-insensitive); values are converted from the
 * file's types ({@link VectorReaders}).
 */
@Internal
public final class OrcRowReader implements RowReader {
  private final Reader reader;
  private final RecordReader records;
  private final VectorizedRowBatch batch;
  private final Schema schema;

  /** Per requested field: its vector in the batch, or -1 for a column the file lacks. */
  private final int[] vectorIndex;

  private final VectorReader[] readers;
  private final String[] names;
  private final boolean[] notNull;
  private final List<StripeInformation> stripes;
  private final long[] stripeFirstRow;
  private int rowInBatch;
  private long batchFirstRow = -1;

  private OrcRowReader(Reader reader, ByteRange range, Schema schema) throws IOException {
    this.reader = reader;
    this.schema = schema;
    TypeDescription fileSchema = reader.getSchema();
    if (fileSchema.getCategory() != TypeDescription.Category.STRUCT) {
      throw new IOException(
          "The ORC file's schema is '" + fileSchema + "', not a struct of columns");
    }
    List<String> fileNames = fileSchema.getFieldNames();
    List<TypeDescription> fileTypes = fileSchema.getChildren();
    Map<String, Integer> exact = new HashMap<>();
    Map<String, Integer> folded = new HashMap<>();
    for (int c = 0; c < fileNames.size(); c++) {
      exact.put(fileNames.get(c), c);
      folded.putIfAbsent(fileNames.get(c).toLowerCase(Locale.ROOT), c);
    }
    int n = schema.getFieldCount();
    this.vectorIndex = new int[n];
    this.readers = new VectorReader[n];
    this.names = new String[n];
    this.notNull = new boolean[n];
    boolean[] include = new boolean[fileSchema.getMaximumId() + 1];
    include[0] = true;
    for (int slot = 0; slot < n; slot++) {
      Schema.Field field = schema.getField(slot);
      names[slot] = field.getName();
      notNull[slot] = !field.getType().getNullable();
      Integer c = exact.get(field.getName());
      if (c == null) {
        c = folded.get(field.getName().toLowerCase(Locale.ROOT));
      }
      if (c == null) {
        if (notNull[slot]) {
          throw new IOException(
              "Column '"
                  + field.getName()
                  + "' is NOT NULL but the ORC file has no such column; its columns are "
                  + fileNames);
        }
        vectorIndex[slot] = -1; // reads as null
        continue;
      }
      TypeDescription fileType = fileTypes.get(c);
      try {
        readers[slot] = VectorReaders.of(fileType, field);
      } catch (IncompatibleColumnException e) {
        throw new IOException(e.getMessage(), e);
      }
      vectorIndex[slot] = c;
      for (int id = fileType.getId(); id <= fileType.getMaximumId(); id++) {
        include[id] = true;
      }
    }
    List<StripeInformation> all = reader.getStripes();
    this.stripes = all;
    this.stripeFirstRow = new long[all.size()];
    long first = 0;
    for (int s = 0; s < all.size(); s++) {
      stripeFirstRow[s] = first;
      first += all.get(s).getNumberOfRows();
    }
    this.records =
        reader.rows(
            new Reader.Options(OrcOptions.conf())
                .range(range.start(), range.end() - range.start())
                .include(include));
    this.batch = fileSchema.createRowBatch();
    this.rowInBatch = 0;
  }

  /** Opens a reader of the stripes of {@code range}; the channel stays open on close. */
  public static OrcRowReader open(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema schema) throws IOException {
    Reader reader = OrcFiles.openReader(file, fileSize);
    try {
      return new OrcRowReader(reader, range, schema);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  @Override
  public Row next() throws IOException {
    while (rowInBatch >= batch.size) {
      batchFirstRow = records.getRowNumber();
      rowInBatch = 0;
      if (!records.nextBatch(batch)) {
        batch.size = 0;
        return null;
      }
    }
    int row = rowInBatch++;
    Object[] values = new Object[schema.getFieldCount()];
    String problem = null;
    for (int slot = 0; slot < values.length; slot++) {
      int c = vectorIndex[slot];
      if (c < 0) {
        continue;
      }
      ColumnVector vector = batch.cols[c];
      int r = vector.isRepeating ? 0 : row;
      if (!vector.noNulls && vector.isNull[r]) {
        if (notNull[slot] && problem == null) {
          problem = "column '" + names[slot] + "' is NOT NULL but the file has a null";
        }
        continue;
      }
      try {
        values[slot] = readers[slot].get(vector, r);
      } catch (RuntimeException e) {
        problem = problem != null ? problem : "column '" + names[slot] + "': " + e.getMessage();
      }
    }
    if (problem != null) {
      throw BadRecordException.skippable(
          position() + ": " + problem, problem, -1, byteOffset(), null);
    }
    return Row.withSchema(schema).attachValues(Arrays.asList(values));
  }

  /** The file stripe holding the last row read, or -1. */
  private int stripe() {
    if (batchFirstRow < 0) {
      return -1;
    }
    long rowNumber = batchFirstRow + Math.max(rowInBatch - 1, 0);
    int s = Arrays.binarySearch(stripeFirstRow, rowNumber);
    return s >= 0 ? s : -s - 2;
  }

  @Override
  public String position() {
    int s = stripe();
    if (s < 0 || s >= stripes.size()) {
      return "start of range";
    }
    return "stripe at byte "
        + stripes.get(s).getOffset()
        + ", row "
        + (batchFirstRow + Math.max(rowInBatch - 1, 0) - stripeFirstRow[s]);
  }

  @Override
  public long byteOffset() {
    int s = stripe();
    return s >= 0 && s < stripes.size() ? stripes.get(s).getOffset() : -1;
  }

  @Override
  public void close() throws IOException {
    try {
      records.close();
    } finally {
      reader.close();
    }
  }
}
