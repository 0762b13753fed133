package dev.filetables.io.format.avro;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.RowReader;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileReader;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Reads the blocks of one byte range of an Avro container file with Avro's split rule: start at the
 * first sync marker at or after the range start, stop once past a sync marker at or after the range
 * end, so each block belongs to the range where its preceding sync marker starts.
 */
@Internal
public final class AvroRowReader implements RowReader {
  private static final int SYNC_SIZE = 16;

  private final DataFileReader<Row> reader;
  private final RowDatumReader rows;
  private final long end;
  private final SeekableByteChannel file;
  private final long fileSize;
  private final byte[] syncMarker;
  private long blockStart = -1;
  private long recordInBlock = -1;
  private boolean endChecked;

  private AvroRowReader(
      DataFileReader<Row> reader,
      RowDatumReader rows,
      long end,
      SeekableByteChannel file,
      long fileSize,
      byte[] syncMarker) {
    this.reader = reader;
    this.rows = rows;
    this.end = end;
    this.file = file;
    this.fileSize = fileSize;
    this.syncMarker = syncMarker;
  }

  /** Opens a reader of {@code range}; the channel stays open on close. */
  public static AvroRowReader open(
      SeekableByteChannel file, long fileSize, ByteRange range, Schema schema) throws IOException {
    RowDatumReader rows = new RowDatumReader(schema);
    DataFileReader<Row> reader;
    try {
      reader = new DataFileReader<>(new ChannelSeekableInput(file, fileSize), rows);
    } catch (RowDatumReader.SchemaMismatchException e) {
      throw new IOException(e.getMessage(), e);
    }
    byte[] syncMarker;
    try {
      // the header ends with the file's sync marker; right after opening, previousSync() is there
      syncMarker = readAt(file, reader.previousSync() - SYNC_SIZE, SYNC_SIZE);
      reader.sync(range.start());
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
    return new AvroRowReader(reader, rows, range.end(), file, fileSize, syncMarker);
  }

  private static byte[] readAt(SeekableByteChannel file, long position, int length)
      throws IOException {
    java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(length);
    file.position(position);
    while (buffer.hasRemaining() && file.read(buffer) >= 0) {}
    return buffer.array();
  }

  /**
   * Avro's reader takes a file that ends inside a block for a file that ends: every complete
   * container file ends with its sync marker, so the range holding the file's end checks that.
   */
  private void checkFileEnd() throws IOException {
    if (endChecked || end < fileSize) {
      return;
    }
    endChecked = true;
    if (fileSize < SYNC_SIZE
        || !java.util.Arrays.equals(syncMarker, readAt(file, fileSize - SYNC_SIZE, SYNC_SIZE))) {
      String reason =
          "the file ends inside a block (truncated?): its last 16 bytes are not the sync marker";
      throw BadRecordException.fatal(
          "end of file (byte " + fileSize + "): " + reason, reason, fileSize, null);
    }
  }

  @Override
  public Row next() throws IOException {
    try {
      if (!reader.hasNext()) {
        checkFileEnd();
        return null;
      }
      if (reader.pastSync(end)) {
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
        throw BadRecordException.skippable(
            position() + ": " + problem, problem, -1, blockStart, null);
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
