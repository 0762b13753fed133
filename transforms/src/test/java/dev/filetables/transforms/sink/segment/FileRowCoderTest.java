package dev.filetables.transforms.sink.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class FileRowCoderTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addNullableField("s", ColumnType.STRING.fieldType())
          .addNullableField("b", ColumnType.BOOLEAN.fieldType())
          .addNullableField("i", ColumnType.INT.fieldType())
          .addNullableField("l", ColumnType.BIGINT.fieldType())
          .addNullableField("f", ColumnType.FLOAT.fieldType())
          .addNullableField("d", ColumnType.DOUBLE.fieldType())
          .addNullableField("dec", ColumnType.decimal(20, 3))
          .addNullableField("date", ColumnType.DATE.fieldType())
          .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
          .addField("k", ColumnType.BIGINT.fieldType())
          .build();

  private static Row row(Object... values) {
    return Row.withSchema(SCHEMA).addValues(values).build();
  }

  @Test
  void rowsRoundTripAsRowCoderWouldGiveThem() throws Exception {
    Coder<Row> coder = FileRowCoder.of(SCHEMA);
    assertTrue(coder instanceof FileRowCoder);
    List<Row> rows =
        List.of(
            row(
                "héllo ☃",
                true,
                -7,
                Long.MIN_VALUE,
                -1.5f,
                Double.NaN,
                new BigDecimal("-12345678901234567.125"),
                LocalDate.of(1969, 12, 31),
                LocalDateTime.of(1960, 1, 2, 3, 4, 5, 6_000_000),
                new Instant(-1L),
                1L),
            row(
                "",
                false,
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                Float.MAX_VALUE,
                -0.0d,
                new BigDecimal("0.000"),
                LocalDate.of(2020, 5, 20),
                LocalDateTime.of(2020, 5, 20, 12, 0),
                new Instant(1_590_000_000_123L),
                2L),
            row(null, null, null, null, null, null, null, null, null, null, 3L));
    for (Row row : rows) {
      byte[] bytes = CoderUtils.encodeToByteArray(coder, row);
      Row back = CoderUtils.decodeFromByteArray(coder, bytes);
      assertEquals(row, back);
      assertEquals(
          CoderUtils.decodeFromByteArray(
              RowCoder.of(SCHEMA), CoderUtils.encodeToByteArray(RowCoder.of(SCHEMA), row)),
          back);
      assertEquals(Arrays.asList(row.getValues().toArray()), back.getValues());
    }
    coder.verifyDeterministic();
  }

  @Test
  void otherSchemasFallBackToRowCoder() {
    Schema arrays = Schema.builder().addArrayField("a", Schema.FieldType.STRING).build();
    assertTrue(FileRowCoder.of(arrays) instanceof RowCoder);
  }
}
