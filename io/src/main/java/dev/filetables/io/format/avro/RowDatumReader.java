package dev.filetables.io.format.avro;

import dev.filetables.io.format.internal.ValueConversions;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Decodes Avro records of any writer schema straight into Beam rows of the requested schema: fields
 * are matched by name (exact, else case-insensitive), unrequested fields are skipped, and values
 * are converted from the writer's types (int to long, decimals in bytes or fixed, timestamps in
 * millis, micros or nanos, unions in any branch order). The plan is built once per writer schema.
 */
final class RowDatumReader implements DatumReader<Row> {
  /** The writer schema cannot produce the requested rows; thrown from {@link #setSchema}. */
  static final class SchemaMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SchemaMismatchException(String message) {
      super(message);
    }
  }

  private final Schema schema;
  private FieldReader[] plan = new FieldReader[0];
  private String problem;

  RowDatumReader(Schema schema) {
    this.schema = schema;
  }

  @Override
  public void setSchema(org.apache.avro.Schema writer) {
    if (writer.getType() != org.apache.avro.Schema.Type.RECORD) {
      throw new SchemaMismatchException(
          "The Avro file holds values of type " + writer.getType() + ", not records");
    }
    Map<String, Integer> exact = new HashMap<>();
    Map<String, Integer> folded = new HashMap<>();
    for (int i = 0; i < schema.getFieldCount(); i++) {
      exact.put(schema.getField(i).getName(), i);
      folded.putIfAbsent(schema.getField(i).getName().toLowerCase(Locale.ROOT), i);
    }
    boolean[] found = new boolean[schema.getFieldCount()];
    List<String> writerFields = new ArrayList<>();
    FieldReader[] readers = new FieldReader[writer.getFields().size()];
    // Exact names first, so a case-insensitive match never steals a column that has an exact one.
    for (int pass = 0; pass < 2; pass++) {
      for (org.apache.avro.Schema.Field field : writer.getFields()) {
        if (readers[field.pos()] != null) {
          continue;
        }
        Integer slot =
            pass == 0 ? exact.get(field.name()) : folded.get(field.name().toLowerCase(Locale.ROOT));
        if (slot != null && !found[slot]) {
          found[slot] = true;
          readers[field.pos()] = new Requested(slot, schema.getField(slot), field.schema());
        }
      }
    }
    for (org.apache.avro.Schema.Field field : writer.getFields()) {
      writerFields.add(field.name());
      if (readers[field.pos()] == null) {
        readers[field.pos()] = new Skipped(field.schema());
      }
    }
    for (int i = 0; i < found.length; i++) {
      if (!found[i] && !schema.getField(i).getType().getNullable()) {
        throw new SchemaMismatchException(
            "Column '"
                + schema.getField(i).getName()
                + "' is NOT NULL but the Avro file has no such field; its fields are "
                + writerFields);
      }
    }
    this.plan = readers;
  }

  /**
   * Decodes the next record. A record with a bad value is still read to its end (so the file stays
   * in step) and yields null; {@link #takeProblem} then says what was wrong. Throwing here instead
   * would leave Avro's block record count off by one.
   */
  @Override
  public Row read(Row reuse, Decoder in) throws IOException {
    Object[] values = new Object[schema.getFieldCount()];
    String first = null;
    for (FieldReader reader : plan) {
      String p = reader.read(in, values);
      if (p != null && first == null) {
        first = p;
      }
    }
    if (first != null) {
      problem = first;
      return null;
    }
    return Row.withSchema(schema).attachValues(Arrays.asList(values));
  }

  /** The problem of the last record read, if it had one; clears it. */
  String takeProblem() {
    String p = problem;
    problem = null;
    return p;
  }

  private interface FieldReader {
    /** Reads one field of the writer's record; returns a problem description or null. */
    String read(Decoder in, Object[] values) throws IOException;
  }

  private static final class Skipped implements FieldReader {
    private final org.apache.avro.Schema writer;

    Skipped(org.apache.avro.Schema writer) {
      this.writer = writer;
    }

    @Override
    public String read(Decoder in, Object[] values) throws IOException {
      GenericDatumReader.skip(writer, in);
      return null;
    }
  }

  private static final class Requested implements FieldReader {
    private final int slot;
    private final String name;
    private final boolean notNull;
    private final ValueReader reader;

    Requested(int slot, Schema.Field target, org.apache.avro.Schema writer) {
      this.slot = slot;
      this.name = target.getName();
      this.notNull = !target.getType().getNullable();
      this.reader = valueReader(writer, target, ColumnType.of(target.getType()));
    }

    @Override
    public String read(Decoder in, Object[] values) throws IOException {
      Object value;
      try {
        value = reader.read(in);
      } catch (IllegalArgumentException | ArithmeticException e) {
        return "column '" + name + "': " + e.getMessage();
      }
      if (value == null && notNull) {
        return "column '" + name + "' is NOT NULL but the file has a null";
      }
      values[slot] = value;
      return null;
    }
  }

  /**
   * Reads one value of a writer type. Conversions that fail throw IllegalArgumentException after
   * the value is consumed.
   */
  private interface ValueReader {
    Object read(Decoder in) throws IOException;
  }

  private static ValueReader valueReader(
      org.apache.avro.Schema writer, Schema.Field target, ColumnType type) {
    ValueReader reader = valueReaderOrNull(writer, target, type);
    if (reader == null) {
      throw new SchemaMismatchException(
          "Column '"
              + target.getName()
              + "' is stored as Avro "
              + writer
              + ", which cannot be read as "
              + type);
    }
    return reader;
  }

  private static ValueReader valueReaderOrNull(
      org.apache.avro.Schema writer, Schema.Field target, ColumnType type) {
    String logical = writer.getProp("logicalType");
    switch (writer.getType()) {
      case NULL:
        return in -> {
          in.readNull();
          return null;
        };
      case UNION:
        return unionReader(writer, target, type);
      case STRING:
        return type == ColumnType.STRING ? Decoder::readString : null;
      case ENUM:
        if (type == ColumnType.STRING) {
          List<String> symbols = writer.getEnumSymbols();
          return in -> symbols.get(in.readEnum());
        }
        return null;
      case BOOLEAN:
        return type == ColumnType.BOOLEAN ? Decoder::readBoolean : null;
      case INT:
        {
          if (logical != null && !logical.equals("date")) {
            return null; // time-millis
          }
          if (type == ColumnType.INT && logical == null) {
            return Decoder::readInt;
          }
          LongFunction<Object> f =
              logical != null
                  ? ValueConversions.fromEpochDay(type)
                  : ValueConversions.fromInteger(type, target.getType());
          return f == null ? null : in -> f.apply(in.readInt());
        }
      case LONG:
        {
          LongFunction<Object> f;
          if (logical == null) {
            if (type == ColumnType.BIGINT) {
              return Decoder::readLong;
            }
            f = ValueConversions.fromInteger(type, target.getType());
          } else {
            long unitsPerMilli = timestampUnitsPerMilli(logical);
            f = unitsPerMilli > 0 ? ValueConversions.fromEpochUnits(type, unitsPerMilli) : null;
          }
          return f == null ? null : in -> f.apply(in.readLong());
        }
      case FLOAT:
        {
          DoubleFunction<Object> f = ValueConversions.fromFloating(type, target.getType());
          return f == null ? null : in -> f.apply(in.readFloat());
        }
      case DOUBLE:
        {
          DoubleFunction<Object> f = ValueConversions.fromFloating(type, target.getType());
          return f == null ? null : in -> f.apply(in.readDouble());
        }
      case BYTES:
      case FIXED:
        {
          if (!"decimal".equals(logical)) {
            return null;
          }
          int precision = intProp(writer, "precision", 38);
          int scale = intProp(writer, "scale", 0);
          Function<BigDecimal, Object> f =
              ValueConversions.fromDecimal(type, target.getType(), precision, scale);
          if (f == null) {
            return null;
          }
          if (writer.getType() == org.apache.avro.Schema.Type.FIXED) {
            int size = writer.getFixedSize();
            return in -> {
              byte[] bytes = new byte[size];
              in.readFixed(bytes);
              return f.apply(new BigDecimal(new BigInteger(bytes), scale));
            };
          }
          return in -> {
            java.nio.ByteBuffer bytes = in.readBytes(null);
            return f.apply(
                new BigDecimal(
                    new BigInteger(
                        bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining()),
                    scale));
          };
        }
      default:
        return null; // records, arrays, maps: not a flat column
    }
  }

  /** A union in any branch order; a branch that cannot convert fails only when a value uses it. */
  private static ValueReader unionReader(
      org.apache.avro.Schema union, Schema.Field target, ColumnType type) {
    List<org.apache.avro.Schema> branches = union.getTypes();
    ValueReader[] readers = new ValueReader[branches.size()];
    boolean any = false;
    for (int i = 0; i < readers.length; i++) {
      org.apache.avro.Schema branch = branches.get(i);
      ValueReader r = valueReaderOrNull(branch, target, type);
      if (r != null && branch.getType() != org.apache.avro.Schema.Type.NULL) {
        any = true;
      }
      if (r == null) {
        r =
            in -> {
              GenericDatumReader.skip(branch, in);
              throw new IllegalArgumentException(
                  "a value of Avro type " + branch + " cannot be read as " + type);
            };
      }
      readers[i] = r;
    }
    if (!any) {
      return null;
    }
    if (readers.length == 2 && branches.get(0).getType() == org.apache.avro.Schema.Type.NULL) {
      ValueReader value = readers[1];
      return in -> {
        if (in.readIndex() == 0) {
          in.readNull();
          return null;
        }
        return value.read(in);
      };
    }
    return in -> readers[in.readIndex()].read(in);
  }

  /** Units per milli of an Avro timestamp logical type, 0 if {@code logical} is not one. */
  private static long timestampUnitsPerMilli(String logical) {
    switch (logical) {
      case "timestamp-millis":
      case "local-timestamp-millis":
        return 1;
      case "timestamp-micros":
      case "local-timestamp-micros":
        return 1_000;
      case "timestamp-nanos":
      case "local-timestamp-nanos":
        return 1_000_000;
      default:
        return 0;
    }
  }

  private static int intProp(org.apache.avro.Schema schema, String name, int dflt) {
    Object value = schema.getObjectProp(name);
    return value instanceof Number ? ((Number) value).intValue() : dflt;
  }
}
