package dev.filetables.transforms.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.partition.PartitionPath;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

class PartitionerTest {
  private static final Schema TABLE_SCHEMA =
      Schema.builder()
          .addInt64Field("id")
          .addNullableField("dt", FieldType.STRING)
          .addNullableField("name", FieldType.STRING)
          .addNullableField("hour", FieldType.INT32)
          .build();

  /** The input has the table's columns in another order. */
  private static final Schema INPUT =
      Schema.builder()
          .addNullableField("hour", FieldType.INT32)
          .addStringField("name")
          .addNullableField("dt", FieldType.STRING)
          .addInt64Field("id")
          .build();

  private static TableSpec table(List<String> keys) {
    return TableSpec.builder()
        .setSchema(TABLE_SCHEMA)
        .setPartitionKeys(keys)
        .setOptions(
            TableOptions.of(Map.of("connector", "filesystem", "path", "/t", "format", "csv")))
        .build();
  }

  private static Row input(Integer hour, String dt, long id) {
    return Row.withSchema(INPUT).addValues(hour, "n" + id, dt, id).build();
  }

  private static String expected(String dt, Integer hour) {
    return PartitionPath.toRelativePath(
        List.of("dt", "hour"),
        Arrays.asList(dt, hour == null ? null : hour.toString()),
        "__DEFAULT_PARTITION__");
  }

  @Test
  void computesTheSamePathsAsPartitionPathWhateverTheOrderOfRows() {
    Partitioner partitioner = Partitioner.of(table(List.of("dt", "hour")), INPUT);
    assertTrue(partitioner.isPartitioned());
    Object[][] cases = {
      {"a", 1},
      {"a", 1},
      {"a", 2},
      {"b", 1},
      {"a", 1},
      {null, 1},
      {null, null},
      {"a/b", null},
      {"a", 1},
    };
    for (Object[] c : cases) {
      String dt = (String) c[0];
      Integer hour = (Integer) c[1];
      assertEquals(
          expected(dt, hour), partitioner.partitionPath(input(hour, dt, 1)), Arrays.toString(c));
    }
    // more partitions than the cache holds, twice
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 600; i++) {
        assertEquals(
            expected("d" + i, i % 24), partitioner.partitionPath(input(i % 24, "d" + i, i)));
      }
    }
  }

  @Test
  void projectsOntoTheFileSchema() {
    TableSpec table = table(List.of("dt", "hour"));
    Partitioner partitioner = Partitioner.of(table, INPUT);
    Row fileRow = partitioner.toFileRow(input(3, "x", 7));
    assertEquals(table.fileSchema(), fileRow.getSchema());
    assertEquals(List.of(7L, "n7"), fileRow.getValues());
  }

  @Test
  void unpartitionedTablesUseTheRoot() {
    Partitioner partitioner = Partitioner.of(table(List.of()), INPUT);
    assertFalse(partitioner.isPartitioned());
    assertEquals("", partitioner.partitionPath(input(3, "x", 7)));
    assertEquals(4, partitioner.toFileRow(input(3, "x", 7)).getFieldCount());
  }
}
