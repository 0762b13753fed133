package dev.filetables.io.table;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;
import org.apache.beam.sdk.schemas.logicaltypes.FixedPrecisionNumeric;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;

/**
 * The SQL column types a file table supports, and the one mapping between them and Beam field
 * types.
 *
 * <p>Every format, partition parser and reader switches on this enum instead of inspecting Beam
 * {@link FieldType}s itself, so the Java value carried in a {@code Row} is defined in one place:
 *
 * <pre>
 * STRING        -> String             (STRING, VARCHAR(n))
 * BOOLEAN       -> Boolean
 * INT           -> Integer
 * BIGINT        -> Long
 * FLOAT         -> Float
 * DOUBLE        -> Double
 * DECIMAL       -> java.math.BigDecimal        (DECIMAL(p,s): FixedPrecisionNumeric logical type)
 * DATE          -> java.time.LocalDate          (SqlTypes.DATE)
 * TIMESTAMP     -> java.time.LocalDateTime      (TIMESTAMP(3): SqlTypes.DATETIME, no time zone)
 * TIMESTAMP_LTZ -> org.joda.time.Instant        (TIMESTAMP_LTZ(3): Beam DATETIME, an instant)
 * </pre>
 */
public enum ColumnType {
  STRING,
  BOOLEAN,
  INT,
  BIGINT,
  FLOAT,
  DOUBLE,
  DECIMAL,
  DATE,
  TIMESTAMP,
  TIMESTAMP_LTZ;

  /** The column type of a Beam field type, or an {@link IllegalArgumentException} naming it. */
  public static ColumnType of(FieldType type) {
    TypeName name = type.getTypeName();
    switch (name) {
      case STRING:
        return STRING;
      case BOOLEAN:
        return BOOLEAN;
      case INT32:
        return INT;
      case INT64:
        return BIGINT;
      case FLOAT:
        return FLOAT;
      case DOUBLE:
        return DOUBLE;
      case DECIMAL:
        return DECIMAL;
      case DATETIME:
        return TIMESTAMP_LTZ;
      case LOGICAL_TYPE:
        String id = type.getLogicalType().getIdentifier();
        if (FixedPrecisionNumeric.IDENTIFIER.equals(id)) {
          return DECIMAL;
        }
        if (SqlTypes.DATE.getIdentifier().equals(id)) {
          return DATE;
        }
        if (SqlTypes.DATETIME.getIdentifier().equals(id)) {
          return TIMESTAMP;
        }
        throw new IllegalArgumentException("Unsupported logical type " + id);
      default:
        throw new IllegalArgumentException(
            "Unsupported field type "
                + type
                + "; supported: "
                + java.util.Arrays.toString(values()));
    }
  }

  /** Precision of a DECIMAL field (38 when the Beam type carries none). */
  public static int decimalPrecision(FieldType type) {
    if (type.getTypeName() == TypeName.LOGICAL_TYPE) {
      Object arg = type.getLogicalType().getArgument();
      if (arg instanceof org.apache.beam.sdk.values.Row) {
        return ((org.apache.beam.sdk.values.Row) arg).getInt32("precision");
      }
    }
    return 38;
  }

  /** Scale of a DECIMAL field (18 when the Beam type carries none). */
  public static int decimalScale(FieldType type) {
    if (type.getTypeName() == TypeName.LOGICAL_TYPE) {
      Object arg = type.getLogicalType().getArgument();
      if (arg instanceof org.apache.beam.sdk.values.Row) {
        return ((org.apache.beam.sdk.values.Row) arg).getInt32("scale");
      }
    }
    return 18;
  }

  /**
   * The Beam field type for this column type (nullable as asked); DECIMAL needs {@link #decimal}.
   */
  public FieldType fieldType() {
    switch (this) {
      case STRING:
        return FieldType.STRING;
      case BOOLEAN:
        return FieldType.BOOLEAN;
      case INT:
        return FieldType.INT32;
      case BIGINT:
        return FieldType.INT64;
      case FLOAT:
        return FieldType.FLOAT;
      case DOUBLE:
        return FieldType.DOUBLE;
      case DECIMAL:
        return decimal(38, 18);
      case DATE:
        return FieldType.logicalType(SqlTypes.DATE);
      case TIMESTAMP:
        return FieldType.logicalType(SqlTypes.DATETIME);
      case TIMESTAMP_LTZ:
        return FieldType.DATETIME;
      default:
        throw new AssertionError(this);
    }
  }

  /** DECIMAL(precision, scale). */
  public static FieldType decimal(int precision, int scale) {
    return FieldType.logicalType(FixedPrecisionNumeric.of(precision, scale));
  }

  /** The Java class of values of this type inside a Beam {@code Row}. */
  public Class<?> javaClass() {
    switch (this) {
      case STRING:
        return String.class;
      case BOOLEAN:
        return Boolean.class;
      case INT:
        return Integer.class;
      case BIGINT:
        return Long.class;
      case FLOAT:
        return Float.class;
      case DOUBLE:
        return Double.class;
      case DECIMAL:
        return BigDecimal.class;
      case DATE:
        return LocalDate.class;
      case TIMESTAMP:
        return LocalDateTime.class;
      case TIMESTAMP_LTZ:
        return org.joda.time.Instant.class;
      default:
        throw new AssertionError(this);
    }
  }
}
