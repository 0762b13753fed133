package dev.filetables.io.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionFilterTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addStringField("name")
          .addNullableField("dt", FieldType.STRING)
          .addNullableField("hour", FieldType.INT32)
          .addNullableField("day", ColumnType.DATE.fieldType())
          .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
          .addNullableField("price", ColumnType.decimal(10, 2))
          .addNullableField("ratio", FieldType.DOUBLE)
          .addNullableField("flag", FieldType.BOOLEAN)
          .addNullableField("big", FieldType.INT64)
          .addNullableField("odd name", FieldType.STRING)
          .addNullableField("a IN (b", FieldType.STRING)
          .build();
  private static final List<String> KEYS =
      List.of(
          "dt", "hour", "day", "ts", "ltz", "price", "ratio", "flag", "big", "odd name", "a IN (b");

  private static PartitionFilter filter(String expression) {
    return PartitionFilter.parse(expression, SCHEMA, KEYS);
  }

  /** A partition from alternating key, value; a value "NULL" means the default partition (null). */
  private static Map<String, String> partition(String... keyValues) {
    Map<String, String> partition = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      partition.put(keyValues[i], "NULL".equals(keyValues[i + 1]) ? null : keyValues[i + 1]);
    }
    return partition;
  }

  private static boolean test(String expression, String... keyValues) {
    return filter(expression).test(partition(keyValues));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "hour = 9|9|true",
        "hour = 9|10|false",
        "hour <> 9|10|true",
        "hour != 9|9|false",
        "hour < 10|9|true",
        "hour < 10|10|false",
        "hour <= 10|10|true",
        "hour > 9|10|true",
        "hour > 9|9|false",
        "hour >= 9|9|true",
        "hour >= 10|9|false",
        "hour IN (1, 9, 12)|9|true",
        "hour IN (1, 12)|9|false",
        "hour NOT IN (1, 12)|9|true",
        "hour NOT IN (1, 9)|9|false",
        "hour IS NULL|9|false",
        "hour IS NOT NULL|9|true",
        "NOT hour = 9|9|false",
        "hour = 9 AND hour < 5|9|false",
        "hour = 9 OR hour < 5|9|true",
        "(hour = 1 OR hour = 9) AND NOT (hour = 1)|9|true",
        "5 < hour|9|true",
        "9 >= hour|10|false",
        "hour = -3|-3|true",
        "hour = +3|3|true",
      })
  void operatorsOnIntColumn(String expression, String hour, boolean expected) {
    assertEquals(expected, test(expression, "hour", hour), expression + " with hour=" + hour);
  }

  @Test
  void comparisonIsTypedByTheColumn() {
    // INT: '9' < '10' numerically even though "9" > "10" as strings; leading zeros are numbers.
    assertTrue(test("hour < '10'", "hour", "9"));
    assertTrue(test("hour = '9'", "hour", "09"));
    assertTrue(test("hour = 9", "hour", "09"));
    // STRING: compared as text.
    assertFalse(test("dt < '10'", "dt", "9"));
    assertTrue(test("dt = 9", "dt", "9"));
    assertFalse(test("dt = 9", "dt", "09"));
    // DATE, TIMESTAMP, LTZ, DECIMAL, DOUBLE, BOOLEAN, BIGINT.
    assertTrue(test("day = DATE '2020-05-20'", "day", "2020-05-20"));
    assertTrue(test("day >= '2020-05-01' AND day < '2020-06-01'", "day", "2020-05-20"));
    assertTrue(test("ts >= DATE '2020-05-20'", "ts", "2020-05-20 00:00:00"));
    assertFalse(test("ts > DATE '2020-05-20'", "ts", "2020-05-20 00:00:00"));
    assertTrue(test("ts = TIMESTAMP '2020-05-20 09:00:00'", "ts", "2020-05-20T09:00:00.000"));
    assertTrue(test("ltz < TIMESTAMP '2020-05-20 09:00:00.001'", "ltz", "2020-05-20 09:00:00"));
    assertTrue(test("price = 1.5", "price", "1.50"));
    assertTrue(test("price > 1.49", "price", "1.50"));
    assertTrue(test("price < 1.501", "price", "1.50"));
    assertFalse(test("price = 1.501", "price", "1.50"));
    assertTrue(test("ratio = 0", "ratio", "-0.0"));
    assertTrue(test("ratio > 1e2", "ratio", "100.5"));
    assertTrue(test("ratio = 'NaN'", "ratio", "NaN"));
    assertTrue(test("flag = TRUE", "flag", "true"));
    assertTrue(test("flag", "flag", "true"));
    assertFalse(test("NOT flag", "flag", "true"));
    assertTrue(test("flag = 'false'", "flag", "false"));
    assertTrue(test("big > 3000000000", "big", "3000000001"));
    assertTrue(test("`odd name` = 'x'", "odd name", "x"));
  }

  @Test
  void sqlNullSemantics() {
    // A default (null) partition value: comparisons are unknown, and unknown is not kept.
    assertFalse(test("hour = 9", "hour", "NULL"));
    assertFalse(test("hour <> 9", "hour", "NULL"));
    assertFalse(test("NOT hour = 9", "hour", "NULL"));
    assertFalse(test("hour IN (9)", "hour", "NULL"));
    assertFalse(test("hour NOT IN (9)", "hour", "NULL"));
    assertTrue(test("hour IS NULL", "hour", "NULL"));
    assertFalse(test("hour IS NOT NULL", "hour", "NULL"));
    assertTrue(test("hour = 9 OR hour IS NULL", "hour", "NULL"));
    // NULL inside an IN list: x NOT IN (1, NULL) is never true.
    assertTrue(test("hour IN (9, NULL)", "hour", "9"));
    assertFalse(test("hour IN (1, NULL)", "hour", "9"));
    assertFalse(test("hour NOT IN (1, NULL)", "hour", "9"));
    // Constants.
    assertTrue(test("TRUE", "hour", "9"));
    assertFalse(test("FALSE OR hour = 1", "hour", "9"));
  }

  @Test
  void partialPartitionsNeverPruneWhatCouldMatch() {
    PartitionFilter f = filter("dt = '2020-05-20' AND hour = 9");
    assertTrue(f.test(partition()));
    assertTrue(f.test(partition("dt", "2020-05-20")));
    assertFalse(f.test(partition("dt", "2020-05-21")));
    assertTrue(f.test(partition("dt", "2020-05-20", "hour", "9")));
    assertFalse(f.test(partition("dt", "2020-05-20", "hour", "8")));

    // Unknown inner keys stay unknown through NOT and OR.
    assertTrue(filter("NOT (hour = 9)").test(partition("dt", "x")));
    assertTrue(filter("dt = 'a' OR hour = 9").test(partition("dt", "b")));
    assertFalse(filter("dt = 'a' AND NOT (hour = 9 OR TRUE)").test(partition("dt", "a")));
    assertTrue(filter("hour IS NULL").test(partition("dt", "a")));
    assertTrue(filter("hour IS NOT NULL").test(partition("dt", "a")));
    assertFalse(filter("dt IS NOT NULL AND hour = 1").test(partition("dt", "NULL")));
    assertTrue(filter("NOT (dt = 'a' AND hour = 1)").test(partition("dt", "a")));
  }

  @Test
  void directoryValuesOfTheWrongTypeAreKeptForTheReaderToReport() {
    assertTrue(test("hour = 9", "hour", "abc"));
  }

  @Test
  void keywordsIgnoreCaseAndNamesAreMatched() {
    assertTrue(test("HOUR in (9) and Dt = 'a' or NOT hour is null", "hour", "9", "dt", "a"));
    assertTrue(test("`hour` = 9", "hour", "9"));
    assertEquals(
        Set.of("dt", "hour"), filter("hour = 1 AND (dt = 'x' OR dt = 'y')").referencedKeys());
    assertEquals(
        List.of("dt", "hour"), List.copyOf(filter("hour = 1 AND dt = 'x'").referencedKeys()));
    assertEquals(Set.of(), filter("TRUE").referencedKeys());
  }

  @Test
  void stringLiterals() {
    assertTrue(test("dt = 'it''s'", "dt", "it's"));
    assertTrue(test("dt = ''", "dt", ""));
    assertTrue(test("dt = 'a = b AND c'", "dt", "a = b AND c"));
  }

  @Test
  void errorsNameTheProblem() {
    TableDefinitionException notPartition =
        assertThrows(TableDefinitionException.class, () -> filter("name = 'x'"));
    assertTrue(
        notPartition
            .getMessage()
            .startsWith("`name` is not a partition column; partition columns: dt, hour,"),
        notPartition.getMessage());
    assertTrue(
        notPartition.getMessage().contains("filters prune directories only"),
        notPartition.getMessage());
    TableDefinitionException unknown =
        assertThrows(
            TableDefinitionException.class,
            () -> PartitionFilter.parse("x = 1", SCHEMA, List.of("dt", "hour")));
    assertTrue(
        unknown
            .getMessage()
            .startsWith(
                "`x` is not a partition column; partition columns: dt, hour — filters prune directories only"),
        unknown.getMessage());

    assertSyntaxError("hour = ", 8, "expected a partition column or a literal");
    assertSyntaxError("hour = 1 AND", 13, "expected a partition column or a literal");
    assertSyntaxError("hour = 1 hour", 10, "expected AND, OR or the end");
    assertSyntaxError("(hour = 1", 10, "expected ')'");
    assertSyntaxError("hour = 'abc", 8, "unterminated string");
    assertSyntaxError("hour ~ 1", 6, "unexpected character '~'");
    assertSyntaxError("hour = 1x", 8, "malformed number");
    assertSyntaxError("hour", 5, "expected a comparison");
    assertSyntaxError("hour = dt", 8, "partition column on one side and a literal on the other");
    assertSyntaxError("1 = 1", 1, "partition column on one side and a literal on the other");
    assertSyntaxError("hour = NULL", 8, "use hour IS NULL");
    assertSyntaxError("hour = 'x'", 8, "does not fit partition column hour");
    assertSyntaxError("hour = 9.5", 8, "INT");
    assertSyntaxError("day = DATE '2020-5-1'", 12, "bad DATE literal");
    assertSyntaxError(
        "hour = DATE '2020-05-01'", 8, "DATE literal cannot be compared with hour of type INT");
    assertSyntaxError("hour IN (dt)", 10, "IN lists hold literals only");
    assertSyntaxError("hour IN 1", 9, "'(' after IN");
    assertSyntaxError("hour IS 1", 9, "expected NULL");
    assertThrows(TableDefinitionException.class, () -> filter("  "));
    TableDefinitionException badKey =
        assertThrows(
            TableDefinitionException.class,
            () -> PartitionFilter.parse("x = 1", SCHEMA, List.of("x")));
    assertTrue(
        badKey.getMessage().contains("'x' is not a column of the schema"), badKey.getMessage());
  }

  private static void assertSyntaxError(String expression, int position, String fragment) {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> filter(expression));
    assertTrue(e.getMessage().contains("at position " + position + ":"), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }

  @Test
  void toStringIsCanonicalSqlThatParsesBack() {
    String[] expressions = {
      "dt='2020-05-20' and hour in ('9', 10)",
      "NOT (hour = 1 OR hour = 2) AND dt <> 'it''s'",
      "hour not in (1, null)",
      "day >= date '2020-05-01' or ts < '2020-05-20T09:00:00.5' or ltz is not null",
      "price <= 1.5 AND ratio > -1e3 AND ratio <> 'NaN' AND flag AND big > 5",
      "`odd name` is null",
      "`a IN (b` NOT IN ('x')",
      "3 < hour",
    };
    String[] canonical = {
      "dt = '2020-05-20' AND hour IN (9, 10)",
      "NOT (hour = 1 OR hour = 2) AND dt <> 'it''s'",
      "hour NOT IN (1, NULL)",
      "day >= DATE '2020-05-01' OR ts < TIMESTAMP '2020-05-20 09:00:00.500' OR ltz IS NOT NULL",
      "price <= 1.5 AND ratio > -1000.0 AND ratio <> 'NaN' AND flag = TRUE AND big > 5",
      "`odd name` IS NULL",
      "`a IN (b` NOT IN ('x')",
      "hour > 3",
    };
    for (int i = 0; i < expressions.length; i++) {
      PartitionFilter parsed = filter(expressions[i]);
      assertEquals(canonical[i], parsed.toString());
      assertEquals(parsed, filter(parsed.toString()));
    }
    assertEquals(
        "(hour = 1 OR hour = 2) AND dt = 'x'", filter("(hour=1 or hour=2) and dt='x'").toString());
    assertEquals(
        "hour = 1 OR hour = 2 AND dt = 'x'", filter("hour=1 or (hour=2 and dt='x')").toString());
  }

  @Test
  void serializable() throws Exception {
    PartitionFilter f =
        filter(
            "day = DATE '2020-05-20' AND ltz IS NOT NULL AND price IN (1.5, NULL) OR NOT hour < 3");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(f);
    }
    PartitionFilter copy;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (PartitionFilter) in.readObject();
    }
    assertEquals(f.toString(), copy.toString());
    Map<String, String> p =
        new HashMap<>(
            partition("day", "2020-05-20", "ltz", "2020-01-01 00:00:00", "price", "1.50"));
    assertTrue(copy.test(p));
    assertTrue(f.test(p));
    assertTrue(copy.test(partition("hour", "5")));
    assertFalse(copy.test(partition("hour", "1", "day", "2020-05-21")));
  }
}
