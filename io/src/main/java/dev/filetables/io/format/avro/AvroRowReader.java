package dev.filetables.io.format.avro;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.RowReader;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileReader;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Reads the blocks of one byte range of an Avro container file with Avro's split rule: start at the
 * first sync marker at or after the range start, stop once past a sync marker at or after the range
 * end, so each block belongs to the range where its preceding sync marker starts.
 */
public final class AvroRowReader implements RowReader {
  private final DataFileReader<Row> reader;
  private final RowDatumReader rows;
  private final long end;
  private long blockStart = -1;
  private long recordInBlock = -1;

  private AvroRowReader(DataFileReader<Row> reader, RowDatumReader rows, long end) {
    this.reader = reader;
    this.rows = rows;
    this.end = end;
  }

  /** Opens a reader of {@code range}; the channel stays open on close. */
  public static AvroRowReader open(SeekableByteChannel file, long fileSize, ByteRange range, Schema schema)
      throws IOException {
    RowDatumReader rows = new RowDatumReader(schema);
    DataFileReader<Row> reader;
    try {
      reader = new DataFileReader<>(new ChannelSeekableInput(file, fileSize), rows);
    } catch (RowDatumReader.SchemaMismatchException e) {
      throw new IOException(e.getMessage(), e);
    }
    try {
      reader.sync(range.start());
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
    return new AvroRowReader(reader, rows, range.end());
  }

  @Override
  public Row next() throws IOException {
    try {
      if (!reader.hasNext() || reader.pastSync(end)) {
        return null;
      }
      long sync = reader.previousSync();
      if (sync != blockStart) {
        blockStart = sync;
        recordInBlock = -1;
      }
      recordInBlock++;
      Row row = reader.next(null);
      if (row == null) {
        String problem = rows.takeProblem();
        throw BadRecordException.skippable(position() + ": " + problem, problem, -1, blockStart, null);
      }
      return row;
    } catch (AvroRuntimeException e) {
      // a corrupt or truncated block: the rest of the range cannot be decoded
      String reason = "corrupt Avro data: " + e.getMessage();
      throw BadRecordException.fatal(position() + ": " + reason, reason, blockStart, e);
    }
  }

  @Override
  public String position() {
    if (blockStart < 0) {
      return "start of range";
    }
    return "block after byte " + blockStart + ", record " + recordInBlock;
  }

  @Override
  public long byteOffset() {
    return blockStart;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
