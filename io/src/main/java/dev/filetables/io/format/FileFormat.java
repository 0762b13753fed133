package dev.filetables.io.format;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;

/**
 * One data file format (csv, json, avro, parquet, orc): how rows of a table's file schema become
 * bytes and back.
 *
 * <p>Contract shared by all formats:
 *
 * <ul>
 *   <li>Writers receive rows whose schema is exactly the file schema given at creation; every value
 *       type of {@link dev.filetables.io.table.ColumnType} must round-trip, nulls included.
 *   <li>{@link #split} cuts a file into byte ranges that can be read independently; each range it
 *       returns is handed back unchanged to {@link #createReader}. Reading all ranges of a split
 *       yields every row of the file exactly once. The format decides what a boundary means (row
 *       formats sync to the next record start, Parquet assigns each row group to the range holding
 *       its midpoint, ORC each stripe to the range holding its start).
 *   <li>Readers match file columns to the requested schema by name, so files written by other tools
 *       (other column order, wider or narrower numeric encodings) read as long as values convert.
 * </ul>
 *
 * Instances are immutable and serializable; they carry the format options of the table.
 */
public interface FileFormat extends Serializable {

  /** The {@code format} option value, e.g. {@code parquet}. */
  String name();

  /** File name extension including the dot, e.g. {@code .parquet}. */
  String extension();

  /**
   * Opens a writer that writes rows of {@code fileSchema} to {@code out}; closing it closes {@code
   * out}.
   */
  RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException;

  /**
   * Splits a file of {@code fileSize} bytes into ranges of about {@code targetRangeSize} bytes (one
   * range when the format cannot split or the file is small).
   */
  List<ByteRange> split(SeekableByteChannel file, long fileSize, long targetRangeSize)
      throws IOException;

  /**
   * Opens a reader over one range of a file. {@code file} is positioned by the reader as it needs;
   * the reader does not close it. Rows have schema {@code fileSchema}.
   */
  RowReader createReader(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema fileSchema)
      throws IOException;
}
