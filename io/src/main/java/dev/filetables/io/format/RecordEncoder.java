package dev.filetables.io.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Encodes one row as one message (e.g. a Kafka record value) in a row format (csv, json), exactly
 * as the format writes that row as a line of a file, without the line terminator: the counterpart
 * of {@link RecordDecoder}, for producers of test and demo data.
 */
@Internal
public final class RecordEncoder {
  private final FileFormat format;
  private final Schema schema;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);

  private RecordEncoder(FileFormat format, Schema schema) {
    this.format = format;
    this.schema = schema;
  }

  public static RecordEncoder of(FileFormat format, Schema schema) {
    if (!(format instanceof JsonFormat) && !(format instanceof CsvFormat)) {
      throw new IllegalArgumentException(
          "format '" + format.name() + "' is not a row format; a message encodes with csv or json");
    }
    return new RecordEncoder(format, schema);
  }

  /** The row's bytes; the row must have this encoder's schema. Not thread-safe. */
  public byte[] encode(Row row) {
    buffer.reset();
    try (RowWriter writer = format.createWriter(buffer, schema)) {
      writer.write(row);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode " + row + " as " + format.name(), e);
    }
    byte[] bytes = buffer.toByteArray();
    int end = bytes.length;
    while (end > 0 && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r')) {
      end--;
    }
    return end == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, end);
  }
}
