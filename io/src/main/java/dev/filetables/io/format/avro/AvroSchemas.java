package dev.filetables.io.format.avro;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The Avro schema FileTables writes for a file schema (the mapping Flink's avro format uses):
 * STRING string, BOOLEAN boolean, INT int, BIGINT long, FLOAT float, DOUBLE double, DECIMAL(p,s)
 * bytes decimal(p,s), DATE int date, TIMESTAMP(3) long local-timestamp-millis, TIMESTAMP_LTZ(3)
 * long timestamp-millis; a nullable column is the union [null, T] with default null.
 */
@Internal
public final class AvroSchemas {
  private AvroSchemas() {}

  static final String RECORD_NAME = "record";
  static final String NAMESPACE = "dev.filetables.avro.generated";

  public static Schema toAvro(org.apache.beam.sdk.schemas.Schema schema) {
    List<Schema.Field> fields = new ArrayList<>();
    for (org.apache.beam.sdk.schemas.Schema.Field field : schema.getFields()) {
      Schema type = toAvro(field.getType());
      try {
        fields.add(
            field.getType().getNullable()
                ? new Schema.Field(
                    field.getName(),
                    Schema.createUnion(Schema.create(Schema.Type.NULL), type),
                    null,
                    JsonProperties.NULL_VALUE)
                : new Schema.Field(field.getName(), type, null, (Object) null));
      } catch (SchemaParseException e) {
        throw new TableDefinitionException(
            "Column name '"
                + field.getName()
                + "' is not a valid Avro field name (letters, digits and _,"
                + " not starting with a digit); the avro format cannot store it",
            e);
      }
    }
    return Schema.createRecord(RECORD_NAME, null, NAMESPACE, false, fields);
  }

  static Schema toAvro(org.apache.beam.sdk.schemas.Schema.FieldType type) {
    ColumnType columnType = ColumnType.of(type);
    switch (columnType) {
      case STRING:
        return Schema.create(Schema.Type.STRING);
      case BOOLEAN:
        return Schema.create(Schema.Type.BOOLEAN);
      case INT:
        return Schema.create(Schema.Type.INT);
      case BIGINT:
        return Schema.create(Schema.Type.LONG);
      case FLOAT:
        return Schema.create(Schema.Type.FLOAT);
      case DOUBLE:
        return Schema.create(Schema.Type.DOUBLE);
      case DECIMAL:
        return LogicalTypes.decimal(
                ColumnType.decimalPrecision(type), ColumnType.decimalScale(type))
            .addToSchema(Schema.create(Schema.Type.BYTES));
      case DATE:
        return LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case TIMESTAMP:
        return LogicalTypes.localTimestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
      case TIMESTAMP_LTZ:
        return LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
      default:
        throw new AssertionError(columnType);
    }
  }
}
