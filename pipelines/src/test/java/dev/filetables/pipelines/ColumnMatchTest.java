package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.MetadataColumn;
import dev.filetables.io.table.MetadataKey;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.junit.jupiter.api.Test;

class ColumnMatchTest {
  private static TableSpec table(
      String name, Schema schema, List<String> keys, List<MetadataColumn> metadata) {
    return TableSpec.builder()
        .setName(name)
        .setSchema(schema)
        .setPartitionKeys(keys)
        .setMetadataColumns(metadata)
        .setOptions(
            TableOptions.of(
                Map.of("connector", "filesystem", "path", "/tmp/" + name, "format", "parquet")))
        .build();
  }

  private static final TableSpec SOURCE =
      table(
          "src",
          Schema.builder()
              .addInt64Field("id")
              .addNullableField("name", ColumnType.STRING.fieldType())
              .addNullableField("price", ColumnType.decimal(10, 2))
              .addNullableField("dt", ColumnType.STRING.fieldType())
              .addField("file", ColumnType.STRING.fieldType())
              .build(),
          List.of("dt"),
          List.of(MetadataColumn.of("file", MetadataKey.FILE_PATH)));

  @Test
  void matchesByNameAndReportsDroppedColumns() {
    TableSpec sink =
        table(
            "dst",
            Schema.builder()
                .addNullableField("dt", ColumnType.STRING.fieldType())
                .addInt64Field("id")
                .addNullableField("price", ColumnType.decimal(12, 3))
                .build(),
            List.of("dt"),
            List.of());
    assertEquals(List.of("name", "file"), ColumnMatch.between(SOURCE, sink).dropped());
  }

  @Test
  void metadataColumnsCanBeStored() {
    TableSpec sink =
        table(
            "dst",
            Schema.builder()
                .addInt64Field("id")
                .addField("file", ColumnType.STRING.fieldType())
                .build(),
            List.of(),
            List.of());
    assertEquals(List.of("name", "price", "dt"), ColumnMatch.between(SOURCE, sink).dropped());
  }

  @Test
  void aSinkColumnMissingInTheSourceIsNamed() {
    TableSpec sink =
        table(
            "dst",
            Schema.builder()
                .addInt64Field("id")
                .addNullableField("country", ColumnType.STRING.fieldType())
                .build(),
            List.of(),
            List.of());
    CliException e = assertThrows(CliException.class, () -> ColumnMatch.between(SOURCE, sink));
    assertEquals(
        "sink column `country` is not a column of the source table `src`; source columns: id, name, price, dt, file",
        e.getMessage());
  }

  @Test
  void typesMustAgreeAndDecimalsMayOnlyWiden() {
    TableSpec wrongType =
        table("dst", Schema.builder().addInt32Field("id").build(), List.of(), List.of());
    assertEquals(
        "column `id` is BIGINT in the source but INT in the sink; declare the same type",
        assertThrows(CliException.class, () -> ColumnMatch.between(SOURCE, wrongType))
            .getMessage());
    TableSpec narrower =
        table(
            "dst",
            Schema.builder().addNullableField("price", ColumnType.decimal(10, 1)).build(),
            List.of(),
            List.of());
    assertEquals(
        "column `price` is DECIMAL(10,2) in the source but DECIMAL(10,1) in the sink, which cannot hold every value; widen the sink type",
        assertThrows(CliException.class, () -> ColumnMatch.between(SOURCE, narrower)).getMessage());
  }
}
