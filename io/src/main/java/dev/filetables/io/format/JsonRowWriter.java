package dev.filetables.io.format;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.filetables.io.format.internal.CountingOutputStream;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/** Writes rows as JSON lines with one streaming generator per file. */
final class JsonRowWriter implements RowWriter {
  private final CountingOutputStream counted;
  private final JsonGenerator gen;
  private final SerializedString[] names;
  private final ColumnType[] types;
  private final boolean ignoreNullFields;
  private final char separator;
  private final char[] scratch = new char[TemporalText.MAX_CHARS];
  private boolean closed;

  JsonRowWriter(JsonFormat format, OutputStream out, Schema schema) throws IOException {
    this.counted = new CountingOutputStream(out);
    this.gen = JsonFormat.FACTORY.createGenerator(counted, JsonEncoding.UTF8);
    int n = schema.getFieldCount();
    this.names = new SerializedString[n];
    this.types = new ColumnType[n];
    for (int i = 0; i < n; i++) {
      names[i] = new SerializedString(schema.getField(i).getName());
      types[i] = ColumnType.of(schema.getField(i).getType());
    }
    this.ignoreNullFields = format.ignoreNullFields;
    this.separator = format.isoTimestamps ? 'T' : ' ';
  }

  @Override
  public void write(Row row) throws IOException {
    if (closed) {
      throw new IOException("JSON writer is closed");
    }
    JsonGenerator g = gen;
    g.writeStartObject();
    for (int i = 0; i < types.length; i++) {
      Object value = row.getValue(i);
      if (value == null) {
        if (!ignoreNullFields) {
          g.writeFieldName(names[i]);
          g.writeNull();
        }
        continue;
      }
      g.writeFieldName(names[i]);
      switch (types[i]) {
        case STRING:
          g.writeString((String) value);
          break;
        case BOOLEAN:
          g.writeBoolean((Boolean) value);
          break;
        case INT:
          g.writeNumber(((Number) value).intValue());
          break;
        case BIGINT:
          g.writeNumber(((Number) value).longValue());
          break;
        case FLOAT:
          // NaN and infinities become the strings "NaN", "Infinity", "-Infinity" (valid JSON)
          g.writeNumber(((Number) value).floatValue());
          break;
        case DOUBLE:
          g.writeNumber(((Number) value).doubleValue());
          break;
        case DECIMAL:
          g.writeNumber((BigDecimal) value);
          break;
        case DATE:
        case TIMESTAMP:
        case TIMESTAMP_LTZ:
          g.writeString(scratch, 0, TemporalText.format(types[i], value, separator, scratch));
          break;
        default:
          throw new IllegalStateException("Unsupported column type " + types[i]);
      }
    }
    g.writeEndObject();
    g.writeRaw('\n');
  }

  @Override
  public long estimatedSize() {
    return counted.count() + gen.getOutputBuffered();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    gen.close(); // flushes and closes the target stream
  }
}
