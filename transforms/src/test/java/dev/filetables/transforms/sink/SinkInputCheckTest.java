package dev.filetables.transforms.sink;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.MetadataColumn;
import dev.filetables.io.table.MetadataKey;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.junit.jupiter.api.Test;

class SinkInputCheckTest {
  private static final TableSpec TABLE =
      TableSpec.builder()
          .setName("t")
          .setSchema(
              Schema.builder()
                  .addInt64Field("id")
                  .addNullableField("name", FieldType.STRING)
                  .addNullableField("amount", ColumnType.decimal(10, 2))
                  .addNullableField("dt", FieldType.STRING)
                  .addField("path", FieldType.STRING)
                  .build())
          .setPartitionKeys(List.of("dt"))
          .setMetadataColumns(List.of(MetadataColumn.of("path", MetadataKey.FILE_PATH)))
          .setOptions(
              TableOptions.of(Map.of("connector", "filesystem", "path", "/tmp/t", "format", "csv")))
          .build();

  private static String failure(Schema input) {
    return assertThrows(IllegalArgumentException.class, () -> SinkInputCheck.check(TABLE, input))
        .getMessage();
  }

  @Test
  void acceptsAnyOrderAndNarrowerNullability() {
    SinkInputCheck.check(
        TABLE,
        Schema.builder()
            .addStringField("dt")
            .addStringField("name")
            .addInt64Field("id")
            .addField("amount", ColumnType.decimal(8, 1))
            .build());
  }

  @Test
  void namesMissingColumns() {
    String message =
        failure(
            Schema.builder().addInt64Field("id").addNullableField("dt", FieldType.STRING).build());
    assertTrue(message.contains("missing column(s) [name, amount]"), message);
  }

  @Test
  void namesExtraColumnsAndMetadataColumns() {
    String message =
        failure(
            Schema.builder()
                .addInt64Field("id")
                .addStringField("name")
                .addField("amount", ColumnType.decimal(10, 2))
                .addStringField("dt")
                .addStringField("path")
                .addStringField("comment")
                .build());
    assertTrue(message.contains("[path, comment]"), message);
    assertTrue(message.contains("read-only"), message);
  }

  @Test
  void rejectsOtherTypesWiderNullabilityAndDecimalsThatDoNotFit() {
    String message =
        failure(
            Schema.builder()
                .addNullableField("id", FieldType.INT64)
                .addInt32Field("name")
                .addField("amount", ColumnType.decimal(12, 2))
                .addStringField("dt")
                .build());
    assertTrue(message.contains("`id` is NOT NULL in the table but nullable"), message);
    assertTrue(message.contains("`name` is STRING in the table but INT"), message);
    assertTrue(message.contains("DECIMAL(12, 2)"), message);
  }
}
