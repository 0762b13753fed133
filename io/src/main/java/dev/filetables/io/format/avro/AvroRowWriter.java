package dev.filetables.io.format.avro;

import dev.filetables.io.format.RowWriter;
import dev.filetables.io.format.internal.CountingOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Writes one Avro object container file of Beam rows. Each row is encoded by {@link RowEncoder}
 * into a reused buffer and appended pre-encoded, which also tells exactly how many bytes wait in
 * the open block: {@link #estimatedSize} is the bytes written plus that, scaled by the codec's last
 * ratio.
 */
@Internal
public final class AvroRowWriter implements RowWriter {
  private final CountingOutputStream counted;
  private final DataFileWriter<Object> fileWriter;
  private final RowEncoder rowEncoder;
  private final Buffer buffer = new Buffer();
  private final BinaryEncoder encoder;
  private long rows;
  private long pendingBytes;
  private double compressionRatio = 1.0;
  private boolean closed;

  public AvroRowWriter(OutputStream out, Schema schema, AvroOptions options) throws IOException {
    this.counted = new CountingOutputStream(out);
    this.rowEncoder = new RowEncoder(schema);
    this.encoder = EncoderFactory.get().binaryEncoder(buffer, null);
    try {
      org.apache.avro.Schema avroSchema = AvroSchemas.toAvro(schema);
      this.fileWriter =
          new DataFileWriter<>(new GenericDatumWriter<>(avroSchema))
              .setCodec(options.codecFactory())
              .setSyncInterval(options.syncInterval())
              .create(avroSchema, counted);
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  public void write(Row row) throws IOException {
    buffer.reset();
    try {
      rowEncoder.encode(row, encoder, rows);
    } finally {
      encoder.flush(); // empties the encoder's own buffer, also of a rejected row
    }
    long before = counted.count();
    fileWriter.appendEncoded(ByteBuffer.wrap(buffer.bytes, 0, buffer.size));
    rows++;
    pendingBytes += buffer.size;
    long written = counted.count() - before;
    if (written > 0) { // the append completed a block
      compressionRatio = (double) written / pendingBytes;
      pendingBytes = 0;
    }
  }

  @Override
  public long estimatedSize() {
    return counted.count() + (long) (pendingBytes * compressionRatio);
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      fileWriter.close();
    }
  }

  /** A growable byte buffer without synchronization, exposing its array. */
  private static final class Buffer extends OutputStream {
    byte[] bytes = new byte[1024];
    int size;

    void reset() {
      size = 0;
    }

    @Override
    public void write(int b) {
      ensure(1);
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }
  }
}
