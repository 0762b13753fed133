package dev.filetables.transforms.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.table.MetadataColumn;
import dev.filetables.io.table.MetadataKey;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class RowAssemblerTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addField("path", FieldType.STRING)
          .addNullableField("day", FieldType.logicalType(SqlTypes.DATE))
          .addInt64Field("id")
          .addField("size", FieldType.INT64)
          .addField("hour", FieldType.INT32)
          .addNullableField("name", FieldType.STRING)
          .addField("name_of_file", FieldType.STRING)
          .addField("mtime", FieldType.DATETIME)
          .build();

  private static final TableSpec TABLE =
      TableSpec.builder()
          .setSchema(SCHEMA)
          .setPartitionKeys(List.of("day", "hour"))
          .setMetadataColumns(
              List.of(
                  MetadataColumn.of("path", MetadataKey.FILE_PATH),
                  MetadataColumn.of("size", MetadataKey.FILE_SIZE),
                  MetadataColumn.of("name_of_file", MetadataKey.FILE_NAME),
                  MetadataColumn.of("mtime", MetadataKey.FILE_MODIFICATION_TIME)))
          .setOptions(
              TableOptions.of(Map.of("connector", "filesystem", "path", "/t", "format", "csv")))
          .build();

  private static DataFile file(String day, String hour) {
    Map<String, String> partition = new LinkedHashMap<>();
    partition.put("day", day);
    partition.put("hour", hour);
    return DataFile.of("/t/day=x/hour=y/part-1.csv", partition, 123, 1_600_000_000_123L);
  }

  @Test
  void placesFilePartitionAndMetadataValues() {
    RowAssembler assembler = new RowAssembler(TABLE);
    assertEquals(List.of("id", "name"), assembler.fileSchema().getFieldNames());
    Object[] constants = assembler.constantsFor(file("2020-05-20", "7"));
    Row fileRow = Row.withSchema(assembler.fileSchema()).addValues(5L, null).build();

    Row row = assembler.assemble(fileRow, constants);

    assertEquals(SCHEMA, row.getSchema());
    assertEquals(
        Arrays.asList(
            "/t/day=x/hour=y/part-1.csv",
            LocalDate.of(2020, 5, 20),
            5L,
            123L,
            7,
            null,
            "part-1.csv",
            new Instant(1_600_000_000_123L)),
        row.getValues());
  }

  @Test
  void nullPartitionOfANotNullColumnIsAnError() {
    RowAssembler assembler = new RowAssembler(TABLE);
    assertEquals(null, assembler.constantsFor(file(null, "1"))[1]);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> assembler.constantsFor(file("2020-01-01", null)));
    assertTrue(e.getMessage().contains("`hour`"), e.getMessage());
  }

  @Test
  void unparsablePartitionValueNamesFileAndValue() {
    RowAssembler assembler = new RowAssembler(TABLE);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> assembler.constantsFor(file("2020-01-01", "noon")));
    assertTrue(
        e.getMessage().contains("noon") && e.getMessage().contains("/t/day=x"), e.getMessage());
  }
}
