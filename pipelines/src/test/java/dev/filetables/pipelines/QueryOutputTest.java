package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** How query prints rows: display strings, JSON lines, CSV, the carrier line and the ordering. */
class QueryOutputTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addNullableField("s", ColumnType.STRING.fieldType())
          .addNullableField("b", ColumnType.BOOLEAN.fieldType())
          .addNullableField("i", ColumnType.INT.fieldType())
          .addNullableField("l", ColumnType.BIGINT.fieldType())
          .addNullableField("f", ColumnType.FLOAT.fieldType())
          .addNullableField("d", ColumnType.DOUBLE.fieldType())
          .addNullableField("dec", ColumnType.decimal(10, 2))
          .addNullableField("day", ColumnType.DATE.fieldType())
          .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
          .build();
  private static final List<String> NAMES = SCHEMA.getFieldNames();
  private static final List<ColumnType> TYPES = RowCells.types(SCHEMA);

  private static final Row FULL =
      Row.withSchema(SCHEMA)
          .addValues(
              "Puzzle, \"1000\" pieces",
              true,
              7,
              10_000_000_000L,
              1.5f,
              Double.NaN,
              new BigDecimal("1234.50"),
              LocalDate.of(2020, 5, 20),
              LocalDateTime.of(2020, 5, 20, 12, 0, 6, 344_000_000),
              Instant.parse("2020-05-20T10:00:00.001Z"))
          .build();
  private static final Row EMPTY =
      Row.withSchema(SCHEMA)
          .addValues("", null, null, null, null, null, null, null, null, null)
          .build();

  @Test
  void displayStringsFollowFlinkSql() {
    assertEquals(
        Arrays.asList(
            "Puzzle, \"1000\" pieces",
            "true",
            "7",
            "10000000000",
            "1.5",
            "NaN",
            "1234.50",
            "2020-05-20",
            "2020-05-20 12:00:06.344",
            "2020-05-20 10:00:00.001Z"),
        RowCells.of(FULL, TYPES));
    List<String> empty = RowCells.of(EMPTY, TYPES);
    assertEquals("", empty.get(0));
    assertNull(empty.get(1));
  }

  @Test
  void jsonLinesAreTypedObjects() {
    assertNull(OutputFormat.JSONL.header(NAMES));
    assertEquals(
        "{\"s\":\"Puzzle, \\\"1000\\\" pieces\",\"b\":true,\"i\":7,\"l\":10000000000,\"f\":1.5,"
            + "\"d\":\"NaN\",\"dec\":1234.50,\"day\":\"2020-05-20\",\"ts\":\"2020-05-20 12:00:06.344\","
            + "\"ltz\":\"2020-05-20 10:00:00.001Z\"}",
        OutputFormat.JSONL.record(NAMES, TYPES, RowCells.of(FULL, TYPES)));
    assertEquals(
        "{\"s\":\"\",\"b\":null,\"i\":null,\"l\":null,\"f\":null,\"d\":null,\"dec\":null,\"day\":null,"
            + "\"ts\":null,\"ltz\":null}",
        OutputFormat.JSONL.record(NAMES, TYPES, RowCells.of(EMPTY, TYPES)));
    assertEquals("\n", OutputFormat.JSONL.lineSeparator());
  }

  @Test
  void csvFollowsRfc4180() {
    assertEquals("s,b,i,l,f,d,dec,day,ts,ltz", OutputFormat.CSV.header(NAMES));
    assertEquals(
        "\"Puzzle, \"\"1000\"\" pieces\",true,7,10000000000,1.5,NaN,1234.50,2020-05-20,"
            + "2020-05-20 12:00:06.344,2020-05-20 10:00:00.001Z",
        OutputFormat.CSV.record(NAMES, TYPES, RowCells.of(FULL, TYPES)));
    // NULL is an empty field, the empty string a quoted empty field
    assertEquals("\"\",,,,,,,,,", OutputFormat.CSV.record(NAMES, TYPES, RowCells.of(EMPTY, TYPES)));
    assertEquals(
        "\"two\r\nlines\",x",
        OutputFormat.CSV.record(
            List.of("a", "b"),
            List.of(ColumnType.STRING, ColumnType.STRING),
            List.of("two\r\nlines", "x")));
    assertEquals("\r\n", OutputFormat.CSV.lineSeparator());
  }

  @Test
  void formatNames() {
    assertEquals(OutputFormat.JSONL, OutputFormat.of("jsonl"));
    assertEquals(OutputFormat.CSV, OutputFormat.of("CSV"));
  }

  @Test
  void cellsLineRoundTripsAnyValue() {
    List<String> cells = Arrays.asList("a\nb", null, "", "\"quoted\"", "ünïcödé\t", "[1,2]");
    String line = CellsLine.encode(cells);
    assertTrue(!line.contains("\n"));
    assertEquals(cells, CellsLine.decode(line));
  }

  @Test
  void orderIsByColumnsNullsFirstNumbersByValue() {
    List<ColumnType> types = List.of(ColumnType.STRING, ColumnType.BIGINT, ColumnType.DOUBLE);
    List<List<String>> rows =
        new ArrayList<>(
            List.of(
                Arrays.asList("b", "1", "0.5"),
                Arrays.asList("a", "10", "2.0"),
                Arrays.asList("a", "9", "2.0"),
                Arrays.asList(null, "100", "1.0"),
                Arrays.asList("a", "9", "-1E3"),
                Arrays.asList("a", null, "1.0")));
    rows.sort(CellOrder.ascending(types));
    assertEquals(
        List.of(
            Arrays.asList(null, "100", "1.0"),
            Arrays.asList("a", null, "1.0"),
            Arrays.asList("a", "9", "-1E3"),
            Arrays.asList("a", "9", "2.0"),
            Arrays.asList("a", "10", "2.0"),
            Arrays.asList("b", "1", "0.5")),
        rows);
    rows.sort(CellOrder.ascending(types).reverse());
    assertEquals(Arrays.asList("b", "1", "0.5"), rows.get(0));
  }
}
