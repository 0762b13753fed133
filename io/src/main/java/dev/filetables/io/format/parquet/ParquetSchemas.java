package dev.filetables.io.format.parquet;

import dev.filetables.io.format.internal.Decimals;
import dev.filetables.io.table.ColumnType;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/** The Parquet schema FileTables writes for a file schema: one primitive column per field. */
final class ParquetSchemas {
  private ParquetSchemas() {}

  static final String MESSAGE_NAME = "filetables_schema";

  static MessageType toParquet(Schema schema) {
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (Schema.Field field : schema.getFields()) {
      message.addField(toParquet(field));
    }
    return message.named(MESSAGE_NAME);
  }

  static PrimitiveType toParquet(Schema.Field field) {
    Repetition repetition =
        field.getType().getNullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
    ColumnType type = ColumnType.of(field.getType());
    switch (type) {
      case STRING:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition)
            .as(LogicalTypeAnnotation.stringType())
            .named(field.getName());
      case BOOLEAN:
        return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(field.getName());
      case INT:
        return Types.primitive(PrimitiveTypeName.INT32, repetition).named(field.getName());
      case BIGINT:
        return Types.primitive(PrimitiveTypeName.INT64, repetition).named(field.getName());
      case FLOAT:
        return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(field.getName());
      case DOUBLE:
        return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(field.getName());
      case DECIMAL:
        {
          int precision = ColumnType.decimalPrecision(field.getType());
          int scale = ColumnType.decimalScale(field.getType());
          LogicalTypeAnnotation decimal = LogicalTypeAnnotation.decimalType(scale, precision);
          if (precision <= 9) {
            return Types.primitive(PrimitiveTypeName.INT32, repetition)
                .as(decimal)
                .named(field.getName());
          }
          if (precision <= 18) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition)
                .as(decimal)
                .named(field.getName());
          }
          return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
              .length(Decimals.fixedLength(precision))
              .as(decimal)
              .named(field.getName());
        }
      case DATE:
        return Types.primitive(PrimitiveTypeName.INT32, repetition)
            .as(LogicalTypeAnnotation.dateType())
            .named(field.getName());
      case TIMESTAMP:
        return Types.primitive(PrimitiveTypeName.INT64, repetition)
            .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MILLIS))
            .named(field.getName());
      case TIMESTAMP_LTZ:
        return Types.primitive(PrimitiveTypeName.INT64, repetition)
            .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MILLIS))
            .named(field.getName());
      default:
        throw new AssertionError(type);
    }
  }
}
