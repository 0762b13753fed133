package dev.filetables.transforms.sink.segment;

import dev.filetables.io.table.ColumnType;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.joda.time.ReadableInstant;

/**
 * A coder for rows of a table's file schema (the column types of {@link ColumnType}), used by the
 * streaming sink for its shuffle and for spill segments. Same rows as {@link RowCoder}, at a
 * fraction of its cost: Beam 2.62's {@code RowCoder} builds and validates a whole {@code Row} for
 * every {@code TIMESTAMP(3)} value (its logical type's base type is a row) and formats an error
 * message for every {@code DECIMAL}; these showed up as a third of the sink's CPU. Decoded rows are
 * built with {@code attachValues}, holding the values a built row would hold.
 *
 * <p>Layout: a null bitmap (one bit per field), then each non-null value: strings and decimals'
 * unscaled bytes length-prefixed, numbers and times fixed width or var-int.
 */
@Internal
public final class FileRowCoder extends CustomCoder<Row> {
  private static final long serialVersionUID = 1L;

  private final Schema schema;
  private final ColumnType[] types;

  private FileRowCoder(Schema schema, ColumnType[] types) {
    this.schema = schema;
    this.types = types;
  }

  /** This coder for {@code schema}, or {@link RowCoder} when a field is not a table column type. */
  public static org.apache.beam.sdk.coders.Coder<Row> of(Schema schema) {
    ColumnType[] types = new ColumnType[schema.getFieldCount()];
    for (int i = 0; i < types.length; i++) {
      try {
        types[i] = ColumnType.of(schema.getField(i).getType());
      } catch (IllegalArgumentException e) {
        return RowCoder.of(schema);
      }
    }
    return new FileRowCoder(schema, types);
  }

  @Override
  public void encode(Row row, OutputStream out) throws IOException {
    if (row == null) {
      throw new CoderException("cannot encode a null Row");
    }
    int n = types.length;
    byte[] nulls = new byte[(n + 7) >>> 3];
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      values[i] = row.getValue(i);
      if (values[i] == null) {
        nulls[i >>> 3] |= (byte) (1 << (i & 7));
      }
    }
    out.write(nulls);
    for (int i = 0; i < n; i++) {
      Object v = values[i];
      if (v == null) {
        continue;
      }
      switch (types[i]) {
        case STRING:
          writeBytes(((String) v).getBytes(StandardCharsets.UTF_8), out);
          break;
        case BOOLEAN:
          out.write((Boolean) v ? 1 : 0);
          break;
        case INT:
          VarInt.encode(zigZag(((Number) v).intValue()), out);
          break;
        case BIGINT:
          VarInt.encode(zigZag(((Number) v).longValue()), out);
          break;
        case FLOAT:
          writeLong(Float.floatToRawIntBits(((Number) v).floatValue()), 4, out);
          break;
        case DOUBLE:
          writeLong(Double.doubleToRawLongBits(((Number) v).doubleValue()), 8, out);
          break;
        case DECIMAL:
          BigDecimal d = (BigDecimal) v;
          VarInt.encode(zigZag(d.scale()), out);
          writeBytes(d.unscaledValue().toByteArray(), out);
          break;
        case DATE:
          VarInt.encode(zigZag(((LocalDate) v).toEpochDay()), out);
          break;
        case TIMESTAMP:
          LocalDateTime t = (LocalDateTime) v;
          VarInt.encode(zigZag(t.toEpochSecond(ZoneOffset.UTC)), out);
          VarInt.encode(t.getNano(), out);
          break;
        case TIMESTAMP_LTZ:
          VarInt.encode(zigZag(((ReadableInstant) v).getMillis()), out);
          break;
        default:
          throw new CoderException("Unsupported column type " + types[i]);
      }
    }
  }

  @Override
  public Row decode(InputStream in) throws IOException {
    int n = types.length;
    byte[] nulls = new byte[(n + 7) >>> 3];
    readFully(in, nulls);
    List<Object> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if ((nulls[i >>> 3] & (1 << (i & 7))) != 0) {
        values.add(null);
        continue;
      }
      switch (types[i]) {
        case STRING:
          values.add(new String(readBytes(in), StandardCharsets.UTF_8));
          break;
        case BOOLEAN:
          values.add(readByte(in) != 0);
          break;
        case INT:
          values.add((int) unZigZag(VarInt.decodeLong(in)));
          break;
        case BIGINT:
          values.add(unZigZag(VarInt.decodeLong(in)));
          break;
        case FLOAT:
          values.add(Float.intBitsToFloat((int) readLong(4, in)));
          break;
        case DOUBLE:
          values.add(Double.longBitsToDouble(readLong(8, in)));
          break;
        case DECIMAL:
          int scale = (int) unZigZag(VarInt.decodeLong(in));
          values.add(new BigDecimal(new BigInteger(readBytes(in)), scale));
          break;
        case DATE:
          values.add(LocalDate.ofEpochDay(unZigZag(VarInt.decodeLong(in))));
          break;
        case TIMESTAMP:
          long seconds = unZigZag(VarInt.decodeLong(in));
          int nanos = VarInt.decodeInt(in);
          values.add(LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC));
          break;
        case TIMESTAMP_LTZ:
          values.add(new Instant(unZigZag(VarInt.decodeLong(in))));
          break;
        default:
          throw new CoderException("Unsupported column type " + types[i]);
      }
    }
    return Row.withSchema(schema).attachValues(values);
  }

  private static long zigZag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private static long unZigZag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  private static void writeBytes(byte[] bytes, OutputStream out) throws IOException {
    VarInt.encode(bytes.length, out);
    out.write(bytes);
  }

  private static byte[] readBytes(InputStream in) throws IOException {
    int length = VarInt.decodeInt(in);
    if (length < 0) {
      throw new CoderException("negative length " + length);
    }
    byte[] bytes = new byte[length];
    readFully(in, bytes);
    return bytes;
  }

  private static void writeLong(long v, int bytes, OutputStream out) throws IOException {
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
  }

  private static long readLong(int bytes, InputStream in) throws IOException {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = (v << 8) | readByte(in);
    }
    return v;
  }

  private static int readByte(InputStream in) throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("row ends early");
    }
    return b;
  }

  private static void readFully(InputStream in, byte[] bytes) throws IOException {
    int done = 0;
    while (done < bytes.length) {
      int n = in.read(bytes, done, bytes.length - done);
      if (n < 0) {
        throw new EOFException("row ends early");
      }
      done += n;
    }
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    // equal rows encode to equal bytes (decimals keep their scale, as RowCoder does)
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FileRowCoder && schema.equals(((FileRowCoder) other).schema);
  }

  @Override
  public int hashCode() {
    return Objects.hash(FileRowCoder.class, schema);
  }
}
