package dev.filetables.io.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Decodes one message (e.g. a Kafka record value) holding one row in a row format (csv, json) with
 * the format's own reader, so a message decodes exactly as the same line in a file of the table
 * would: same types, null rules and format options ({@code ignore-parse-errors} included).
 */
@Internal
public final class RecordDecoder {
  private final FileFormat format;
  private final Schema schema;

  private RecordDecoder(FileFormat format, Schema schema) {
    this.format = format;
    this.schema = schema;
  }

  /** A decoder of {@code format} (csv or json) into rows of {@code schema}. */
  public static RecordDecoder of(FileFormat format, Schema schema) {
    if (!(format instanceof JsonFormat) && !(format instanceof CsvFormat)) {
      throw new IllegalArgumentException(
          "format '" + format.name() + "' is not a row format; a message decodes with csv or json");
    }
    return new RecordDecoder(format, schema);
  }

  /**
   * The row in {@code message}; {@code null} when the message holds no row (blank) or a bad one
   * that the format's {@code ignore-parse-errors} skips. A bad message otherwise throws {@link
   * BadRecordException} saying why (the caller adds where the message came from).
   */
  public @Nullable Row decode(byte[] message) throws BadRecordException {
    ByteArrayChannel channel = new ByteArrayChannel(message);
    try (RowReader reader =
        format.createReader(channel, message.length, ByteRange.of(0, message.length), schema)) {
      Row row = reader.next();
      if (row != null && reader.next() != null) {
        throw new BadRecordException("the message holds more than one row (a line break inside?)");
      }
      return row;
    } catch (BadRecordException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new BadRecordException(String.valueOf(e.getMessage()), e);
    }
  }

  /** A read-only channel over a byte array. */
  private static final class ByteArrayChannel implements SeekableByteChannel {
    private final byte[] bytes;
    private int position;
    private boolean open = true;

    ByteArrayChannel(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      if (!open) {
        throw new ClosedChannelException();
      }
      if (position >= bytes.length) {
        return -1;
      }
      int n = Math.min(dst.remaining(), bytes.length - position);
      dst.put(bytes, position, n);
      position += n;
      return n;
    }

    @Override
    public int write(ByteBuffer src) {
      throw new NonWritableChannelException();
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
      position = (int) Math.min(newPosition, bytes.length);
      return this;
    }

    @Override
    public long size() {
      return bytes.length;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
      throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      open = false;
    }
  }
}
