package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableSpecTest {

  @TempDir Path tmp;

  private TableOptions options() {
    return TableOptions.builder().path(tmp.resolve("t")).format("parquet").build();
  }

  private Schema schema() {
    return Schema.builder()
        .addField("id", FieldType.INT64)
        .addNullableField("dt", FieldType.STRING)
        .addField("file.path", FieldType.STRING)
        .addNullableField("amount", ColumnType.decimal(10, 2))
        .addNullableField("hour", FieldType.INT32)
        .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
        .build();
  }

  private TableSpec.Builder builder() {
    return TableSpec.builder()
        .setName("orders")
        .setSchema(schema())
        .setPartitionKeys(List.of("dt", "hour"))
        .setMetadataColumns(List.of(MetadataColumn.of("file.path", MetadataKey.FILE_PATH)))
        .setOptions(options());
  }

  @Test
  void viewsDropMetadataAndPartitionColumnsKeepingOrder() {
    TableSpec spec = builder().build();
    assertEquals(
        List.of("id", "dt", "file.path", "amount", "hour", "ts"), spec.schema().getFieldNames());
    assertEquals(
        List.of("id", "dt", "amount", "hour", "ts"), spec.physicalSchema().getFieldNames());
    assertEquals(List.of("id", "amount", "ts"), spec.fileSchema().getFieldNames());
    assertEquals(Set.of("file.path"), spec.metadataColumnNames());
    // field types and nullability are carried over unchanged
    assertEquals(schema().getField("amount"), spec.fileSchema().getField("amount"));
    assertEquals(schema().getField("id"), spec.physicalSchema().getField("id"));
  }

  @Test
  void ddlAndBuilderGiveTheSameSpec() {
    TableSpec fromDdl =
        DdlParser.parse(
            "CREATE TABLE orders (id BIGINT NOT NULL, dt STRING,"
                + " `file.path` STRING NOT NULL METADATA, amount DECIMAL(10, 2), `hour` INT,"
                + " ts TIMESTAMP(3)) PARTITIONED BY (dt, `hour`) WITH ('path' = '"
                + tmp.resolve("t")
                + "', 'format' = 'parquet')");
    assertEquals(builder().build(), fromDdl);
  }

  @Test
  void builderValidates() {
    assertContains(
        assertThrows(
                TableDefinitionException.class,
                () -> builder().setPartitionKeys(List.of("nope")).build())
            .getMessage(),
        "partition key `nope` is not a column");
    assertContains(
        assertThrows(
                TableDefinitionException.class,
                () -> builder().setPartitionKeys(List.of("file.path")).build())
            .getMessage(),
        "is a metadata column");
    assertContains(
        assertThrows(
                TableDefinitionException.class,
                () -> builder().setWatermark(WatermarkSpec.of("id", Duration.ZERO)).build())
            .getMessage(),
        "it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)");
    assertEquals(
        WatermarkSpec.of("ts", Duration.ofSeconds(1)),
        builder()
            .setWatermark(WatermarkSpec.of("ts", Duration.ofSeconds(1)))
            .build()
            .watermark()
            .get());
  }

  @Test
  void serializable() throws Exception {
    assertRoundTrips(builder().setWatermark(WatermarkSpec.of("ts", Duration.ofSeconds(1))).build());
    assertRoundTrips(builder().build());
  }

  private static void assertRoundTrips(TableSpec spec) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(spec);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(spec, in.readObject());
    }
  }

  private static void assertContains(String message, String part) {
    assertTrue(message.contains(part), "expected <" + part + "> in: " + message);
  }
}
