package dev.filetables.io.format.orc;

import dev.filetables.io.table.ColumnType;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.orc.TypeDescription;

/**
 * The ORC schema FileTables writes for a file schema: a struct of one column per field, typed as
 * Flink's flink-orc types them ({@code OrcSplitReaderUtil.logicalTypeToOrcType}). ORC columns carry
 * no nullability: a NOT NULL column is checked when writing and reading, not recorded in the file.
 *
 * <pre>
 * STRING        string
 * BOOLEAN       boolean
 * INT           int
 * BIGINT        bigint
 * FLOAT         float
 * DOUBLE        double
 * DECIMAL(p,s)  decimal(p,s)
 * DATE          date
 * TIMESTAMP     timestamp   (the wall-clock time, written with the UTC writer time zone)
 * TIMESTAMP_LTZ timestamp   (the instant's wall-clock time in UTC, as Flink writes it)
 * </pre>
 */
final class OrcSchemas {
  private OrcSchemas() {}

  static TypeDescription toOrc(Schema schema) {
    TypeDescription struct = TypeDescription.createStruct();
    for (Schema.Field field : schema.getFields()) {
      struct.addField(field.getName(), toOrc(field.getType()));
    }
    return struct;
  }

  static TypeDescription toOrc(Schema.FieldType type) {
    ColumnType column = ColumnType.of(type);
    switch (column) {
      case STRING:
        return TypeDescription.createString();
      case BOOLEAN:
        return TypeDescription.createBoolean();
      case INT:
        return TypeDescription.createInt();
      case BIGINT:
        return TypeDescription.createLong();
      case FLOAT:
        return TypeDescription.createFloat();
      case DOUBLE:
        return TypeDescription.createDouble();
      case DECIMAL:
        return TypeDescription.createDecimal()
            .withScale(ColumnType.decimalScale(type))
            .withPrecision(ColumnType.decimalPrecision(type));
      case DATE:
        return TypeDescription.createDate();
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return TypeDescription.createTimestamp();
      default:
        throw new AssertionError(column);
    }
  }
}
