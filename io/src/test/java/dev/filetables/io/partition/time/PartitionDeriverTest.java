package dev.filetables.io.partition.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionDeriverTest {
  private static final List<String> DT_HOUR = List.of("dt", "hour");

  @TempDir Path dir;

  @Test
  void hourlyPatternCutsDateAndHour() {
    PartitionDeriver deriver = PartitionDeriver.of(DT_HOUR, "$dt $hour:00:00", null);
    assertEquals(
        Map.of("dt", "2020-05-20", "hour", "12"),
        deriver.derive(LocalDateTime.of(2020, 5, 20, 12, 34, 56)));
    assertEquals(
        Map.of("dt", "2021-03-04", "hour", "05"),
        deriver.derive(LocalDateTime.of(2021, 3, 4, 5, 6, 7)));
    assertEquals(DT_HOUR, deriver.derivedKeys());
  }

  @Test
  void noPatternDerivesTheFirstKeyAsADate() {
    PartitionDeriver deriver = PartitionDeriver.of(List.of("dt", "country"), null, null);
    assertEquals(
        Map.of("dt", "2020-05-20"), deriver.derive(LocalDateTime.of(2020, 5, 20, 23, 59, 59)));
    assertEquals(List.of("dt"), deriver.derivedKeys());
  }

  @Test
  void formatters() {
    assertEquals(
        Map.of("dt", "20200520"),
        PartitionDeriver.of(List.of("dt"), null, "yyyyMMdd")
            .derive(LocalDateTime.of(2020, 5, 20, 8, 0)));
    assertEquals(
        Map.of("date", "05-20-2020", "hour", "08"),
        PartitionDeriver.of(List.of("date", "hour"), "$date $hour:00:00", "MM-dd-yyyy HH:mm:ss")
            .derive(LocalDateTime.of(2020, 5, 20, 8, 15, 1)));
    assertEquals(
        Map.of("year", "2020", "month", "05", "day", "20"),
        PartitionDeriver.of(List.of("year", "month", "day"), "$year-$month-$day", null)
            .derive(LocalDateTime.of(2020, 5, 20, 8, 15, 1)));
  }

  @Test
  void derivedPartitionReadsBackAsTheTruncatedEventTime() {
    DefaultPartitionTimeExtractor extractor =
        new DefaultPartitionTimeExtractor("$dt $hour:00:00", null);
    PartitionDeriver deriver = PartitionDeriver.of(DT_HOUR, "$dt $hour:00:00", null);
    LocalDateTime t = LocalDateTime.of(2019, 12, 31, 0, 0);
    for (int i = 0; i < 2000; i++, t = t.plusMinutes(37).plusSeconds(11)) {
      Map<String, String> values = deriver.derive(t);
      assertEquals(
          t.truncatedTo(ChronoUnit.HOURS),
          extractor.extract(DT_HOUR, List.of(values.get("dt"), values.get("hour"))),
          t.toString());
    }
    DefaultPartitionTimeExtractor daily = new DefaultPartitionTimeExtractor(null, "yyyyMMdd");
    PartitionDeriver dailyDeriver = PartitionDeriver.of(List.of("dt"), null, "yyyyMMdd");
    t = LocalDateTime.of(2020, 2, 27, 13, 0);
    for (int i = 0; i < 10; i++, t = t.plusDays(1)) {
      assertEquals(
          t.truncatedTo(ChronoUnit.DAYS),
          daily.extract(List.of("dt"), List.of(dailyDeriver.derive(t).get("dt"))));
    }
  }

  @Test
  void nullTimeMeansTheDefaultPartition() {
    Map<String, String> values = PartitionDeriver.of(DT_HOUR, "$dt $hour:00:00", null).derive(null);
    assertEquals(2, values.size());
    assertNull(values.get("dt"));
    assertNull(values.get("hour"));
  }

  @Test
  void settingsThatCannotRoundTripAreRejected() {
    TableDefinitionException adjacent =
        assertThrows(
            TableDefinitionException.class,
            () -> PartitionDeriver.of(DT_HOUR, "$dt$hour", "yyyyMMddHH"));
    assertTrue(adjacent.getMessage().contains("separator"), adjacent.getMessage());

    TableDefinitionException notTruncating =
        assertThrows(
            TableDefinitionException.class,
            () -> PartitionDeriver.of(DT_HOUR, "$dt $hour:30:00", null));
    assertTrue(notTruncating.getMessage().contains("reads back as"), notTruncating.getMessage());

    TableDefinitionException noFit =
        assertThrows(
            TableDefinitionException.class, () -> PartitionDeriver.of(DT_HOUR, "$dt T$hour", null));
    assertTrue(noFit.getMessage().contains("does not fit"), noFit.getMessage());
  }

  @Test
  void tableDeriverFillsTypedPartitionColumnsFromTimestampLtz() {
    Schema schema =
        Schema.builder()
            .addInt64Field("id")
            .addNullableField("log_ts", FieldType.DATETIME)
            .addNullableField("dt", FieldType.logicalType(SqlTypes.DATE))
            .addNullableField("hour", FieldType.INT32)
            .build();
    TableSpec table =
        table(
            schema,
            "$dt $hour:00:00",
            null,
            TableOptions.COMMIT_WATERMARK_TIME_ZONE,
            "Asia/Shanghai");
    PartitionDeriver deriver = PartitionDeriver.forTable(table).orElseThrow();
    Row row =
        Row.withSchema(schema)
            .addValues(1L, org.joda.time.Instant.parse("2020-05-19T21:30:00Z"), null, null)
            .build();
    Row derived = deriver.apply(row);
    // 21:30 UTC is 05:30 the next day in Shanghai
    assertEquals(LocalDate.of(2020, 5, 20), derived.getLogicalTypeValue("dt", LocalDate.class));
    assertEquals(5, derived.getInt32("hour"));
    assertEquals(1L, derived.getInt64("id"));
    Row nullTime =
        deriver.apply(
            Row.withSchema(schema).addValues(2L, null, LocalDate.of(2000, 1, 1), 3).build());
    assertNull(nullTime.getValue("dt"));
    assertNull(nullTime.getValue("hour"));
  }

  @Test
  void intHourWithStrictFormatterIsRejectedWithAHint() {
    Schema schema =
        Schema.builder()
            .addNullableField("ts", FieldType.logicalType(SqlTypes.DATETIME))
            .addNullableField("dt", FieldType.STRING)
            .addNullableField("hour", FieldType.INT32)
            .build();
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () ->
                PartitionDeriver.forTable(table(schema, "$dt $hour:00:00", "yyyy-MM-dd HH:mm:ss")));
    assertTrue(e.getMessage().contains("declare 'hour' as STRING"), e.getMessage());

    Schema strings =
        Schema.builder()
            .addNullableField("ts", FieldType.logicalType(SqlTypes.DATETIME))
            .addNullableField("dt", FieldType.STRING)
            .addNullableField("hour", FieldType.STRING)
            .build();
    PartitionDeriver deriver =
        PartitionDeriver.forTable(table(strings, "$dt $hour:00:00", "yyyy-MM-dd HH:mm:ss"))
            .orElseThrow();
    Row row =
        Row.withSchema(strings).addValues(LocalDateTime.of(2020, 5, 20, 5, 59), null, null).build();
    assertEquals("05", deriver.apply(row).getString("hour"));
  }

  @Test
  void columnMustBeATimestamp() {
    Schema schema =
        Schema.builder()
            .addNullableField("ts", FieldType.STRING)
            .addNullableField("dt", FieldType.STRING)
            .build();
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () -> PartitionDeriver.forTable(table(schema, null, null)));
    assertTrue(e.getMessage().contains("TIMESTAMP or TIMESTAMP_LTZ"), e.getMessage());
  }

  @Test
  void customExtractorCannotBeInverted() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("path", dir.toString());
    options.put("format", "csv");
    options.put(TableOptions.PARTITION_DERIVE_TIME_COLUMN, "ts");
    options.put(TableOptions.TIME_EXTRACTOR_KIND, "custom");
    options.put(TableOptions.TIME_EXTRACTOR_CLASS, "x.Y");
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> TableOptions.of(options));
    assertTrue(e.getMessage().contains("cannot be inverted"), e.getMessage());
  }

  private TableSpec table(Schema schema, String pattern, String formatter, String... more) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("path", dir.toString());
    options.put("format", "csv");
    options.put(
        TableOptions.PARTITION_DERIVE_TIME_COLUMN,
        schema.getField(0).getName().equals("id") ? "log_ts" : "ts");
    if (pattern != null) {
      options.put(TableOptions.TIME_EXTRACTOR_PATTERN, pattern);
    }
    if (formatter != null) {
      options.put(TableOptions.TIME_EXTRACTOR_FORMATTER, formatter);
    }
    for (int i = 0; i < more.length; i += 2) {
      options.put(more[i], more[i + 1]);
    }
    List<String> keys = new ArrayList<>();
    for (String key : List.of("dt", "hour")) {
      if (schema.hasField(key)) {
        keys.add(key);
      }
    }
    return TableSpec.builder()
        .setName("t")
        .setSchema(schema)
        .setPartitionKeys(keys)
        .setOptions(TableOptions.of(options))
        .build();
  }
}
