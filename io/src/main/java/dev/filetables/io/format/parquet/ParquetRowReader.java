package dev.filetables.io.format.parquet;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.parquet.ColumnConverters.IncompatibleColumnException;
import dev.filetables.io.format.parquet.ColumnConverters.RowSlots;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads the row groups of one byte range of a Parquet file (those whose midpoint lies in the range)
 * as Beam rows. Only the requested columns are read, matched by name (exact, else
 * case-insensitive); values are converted from whatever encoding the writer chose.
 *
 * <p>The file's schema is flat here, so rows are assembled directly from the column readers (one
 * value per column per row) instead of Parquet's generic record assembly.
 */
@Internal
public final class ParquetRowReader implements RowReader {
  private final ParquetFileReader reader;
  private final Schema schema;
  private final MessageType projection;
  private final String createdBy;
  private final List<BlockMetaData> rowGroups;
  private final ColumnDescriptor[] columns;
  private final String[] columnNames;
  private final boolean[] notNull;
  private final int[] maxDefinitionLevel;
  private final GroupConverter root;
  private final RowSlots slots = new RowSlots();
  private ColumnReader[] columnReaders = new ColumnReader[0];
  private int rowGroupIndex = -1;
  private long rowsLeftInGroup;
  private long rowInGroup = -1;

  private ParquetRowReader(ParquetFileReader reader, Schema schema, ParquetOptions options)
      throws IOException {
    this.reader = reader;
    this.schema = schema;
    this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
    this.rowGroups = new ArrayList<>(reader.getRowGroups());
    MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();

    Map<String, Type> exact = new HashMap<>();
    Map<String, Type> folded = new HashMap<>();
    for (Type field : fileSchema.getFields()) {
      exact.put(field.getName(), field);
      folded.putIfAbsent(field.getName().toLowerCase(Locale.ROOT), field);
    }
    List<Type> projected = new ArrayList<>();
    List<PrimitiveConverter> converters = new ArrayList<>();
    List<Schema.Field> readFields = new ArrayList<>();
    for (int slot = 0; slot < schema.getFieldCount(); slot++) {
      Schema.Field field = schema.getField(slot);
      Type fileField = exact.get(field.getName());
      if (fileField == null) {
        fileField = folded.get(field.getName().toLowerCase(Locale.ROOT));
      }
      if (fileField == null) {
        if (!field.getType().getNullable()) {
          throw new IOException(
              "Column '"
                  + field.getName()
                  + "' is NOT NULL but the Parquet file has no such column; its columns are "
                  + fileColumnNames(fileSchema));
        }
        continue; // reads as null
      }
      if (!fileField.isPrimitive() || fileField.isRepetition(Type.Repetition.REPEATED)) {
        throw new IOException(
            "Column '"
                + field.getName()
                + "' is the nested or repeated column '"
                + fileField
                + "' in the Parquet file; only flat columns can be read");
      }
      try {
        converters.add(
            ColumnConverters.forColumn(
                fileField.asPrimitiveType(), field, options.utcTimezone(), slots, slot));
      } catch (IncompatibleColumnException e) {
        throw new IOException(e.getMessage(), e);
      }
      projected.add(fileField);
      readFields.add(field);
    }
    this.projection = new MessageType(fileSchema.getName(), projected);
    reader.setRequestedSchema(projection);

    int n = projected.size();
    this.columns = projection.getColumns().toArray(new ColumnDescriptor[0]);
    this.columnNames = new String[n];
    this.notNull = new boolean[n];
    this.maxDefinitionLevel = new int[n];
    for (int i = 0; i < n; i++) {
      columnNames[i] = readFields.get(i).getName();
      notNull[i] = !readFields.get(i).getType().getNullable();
      maxDefinitionLevel[i] = columns[i].getMaxDefinitionLevel();
    }
    PrimitiveConverter[] byIndex = converters.toArray(new PrimitiveConverter[0]);
    this.root =
        new GroupConverter() {
          @Override
          public Converter getConverter(int fieldIndex) {
            return byIndex[fieldIndex];
          }

          @Override
          public void start() {}

          @Override
          public void end() {}
        };
  }

  /** Opens a reader of the row groups of {@code range}; the channel stays open on close. */
  public static ParquetRowReader open(
      SeekableByteChannel file,
      long fileSize,
      ByteRange range,
      Schema schema,
      ParquetOptions options)
      throws IOException {
    ParquetReadOptions readOptions =
        ParquetReadOptions.builder()
            .withRange(range.start(), range.end())
            // Pages carrying a CRC (parquet-mr writes them by default, so do we) are verified: a
            // corrupt page then fails as a bad file instead of decoding into silently wrong values.
            .usePageChecksumVerification(true)
            .withCodecFactory(new CodecFactory(options.hadoopConf(), 0))
            .build();
    ParquetFileReader reader =
        new ParquetFileReader(new ChannelInputFile(file, fileSize), readOptions);
    try {
      return new ParquetRowReader(reader, schema, options);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private static List<String> fileColumnNames(MessageType fileSchema) {
    List<String> names = new ArrayList<>();
    for (Type field : fileSchema.getFields()) {
      names.add(field.getName());
    }
    return names;
  }

  @Override
  public Row next() throws IOException {
    while (rowsLeftInGroup == 0) {
      if (!nextRowGroup()) {
        return null;
      }
    }
    Object[] values = new Object[schema.getFieldCount()];
    slots.values = values;
    String problem = null;
    ColumnReader[] readers = columnReaders;
    for (int c = 0; c < readers.length; c++) {
      ColumnReader column = readers[c];
      if (column.getCurrentDefinitionLevel() == maxDefinitionLevel[c]) {
        try {
          column.writeCurrentValueToConverter();
        } catch (RuntimeException e) {
          problem =
              problem != null ? problem : "column '" + columnNames[c] + "': " + e.getMessage();
        }
      } else if (notNull[c] && problem == null) {
        problem = "column '" + columnNames[c] + "' is NOT NULL but the file has a null";
      }
      column.consume(); // keep every column on the same row even after a problem
    }
    rowsLeftInGroup--;
    rowInGroup++;
    if (problem != null) {
      throw BadRecordException.skippable(
          position() + ": " + problem, problem, -1, byteOffset(), null);
    }
    return Row.withSchema(schema).attachValues(Arrays.asList(values));
  }

  private boolean nextRowGroup() throws IOException {
    PageReadStore pages = reader.readNextRowGroup();
    if (pages == null) {
      return false;
    }
    rowGroupIndex++;
    ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, root, projection, createdBy);
    ColumnReader[] readers = new ColumnReader[columns.length];
    for (int c = 0; c < columns.length; c++) {
      readers[c] = store.getColumnReader(columns[c]);
    }
    columnReaders = readers;
    rowsLeftInGroup = pages.getRowCount();
    rowInGroup = -1;
    return true;
  }

  @Override
  public String position() {
    if (rowGroupIndex < 0) {
      return "start of range";
    }
    long start =
        rowGroupIndex < rowGroups.size() ? rowGroups.get(rowGroupIndex).getStartingPos() : -1;
    return "row group at byte " + start + ", row " + rowInGroup;
  }

  @Override
  public long byteOffset() {
    return rowGroupIndex >= 0 && rowGroupIndex < rowGroups.size()
        ? rowGroups.get(rowGroupIndex).getStartingPos()
        : -1;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
