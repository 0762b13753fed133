package dev.filetables.io.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.RecordDecoder;
import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.io.table.TableDefinitionException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

class KafkaTablesTest {
  private static String ddl(String extraOptions) {
    return "CREATE TABLE orders_in (\n"
        + "  order_id BIGINT NOT NULL,\n"
        + "  amount DECIMAL(10, 2),\n"
        + "  order_ts TIMESTAMP(3),\n"
        + "  WATERMARK FOR order_ts AS order_ts - INTERVAL '5' SECOND\n"
        + ") WITH (\n"
        + "  'connector' = 'kafka',\n"
        + extraOptions
        + ")";
  }

  private static final String BASE =
      "  'topic' = 'orders',\n"
          + "  'properties.bootstrap.servers' = 'localhost:9092',\n"
          + "  'properties.group.id' = 'g1',\n"
          + "  'format' = 'json'\n";

  @Test
  void parsesTheFlinkKafkaKeys() {
    KafkaTableSpec spec =
        KafkaTables.parse(
            ddl(
                "  'topic' = 'orders;returns',\n"
                    + "  'properties.bootstrap.servers' = 'localhost:9092',\n"
                    + "  'properties.group.id' = 'g1',\n"
                    + "  'properties.max.poll.records' = '100',\n"
                    + "  'scan.startup.mode' = 'earliest-offset',\n"
                    + "  'scan.watermark.idle-timeout' = '30 s',\n"
                    + "  'format' = 'csv',\n"
                    + "  'csv.field-delimiter' = ';'\n"));
    assertEquals("orders_in", spec.name());
    assertEquals(List.of("orders", "returns"), spec.topics());
    assertEquals("localhost:9092", spec.bootstrapServers());
    assertEquals("g1", spec.groupId().orElseThrow());
    assertEquals(
        Map.of("bootstrap.servers", "localhost:9092", "group.id", "g1", "max.poll.records", "100"),
        spec.consumerProperties());
    assertEquals(StartupMode.EARLIEST_OFFSET, spec.startupMode());
    assertEquals("csv", spec.format().name());
    assertEquals(Duration.ofSeconds(30), spec.idleTimeout().orElseThrow());
    assertEquals("order_ts", spec.watermark().orElseThrow().column());
    assertEquals(Duration.ofSeconds(5), spec.watermark().orElseThrow().delay());
    assertEquals(List.of("order_id", "amount", "order_ts"), spec.schema().getFieldNames());
  }

  @Test
  void defaultsToGroupOffsetsWithoutIdleness() {
    KafkaTableSpec spec = KafkaTables.parse(ddl(BASE));
    assertEquals(StartupMode.GROUP_OFFSETS, spec.startupMode());
    assertTrue(spec.idleTimeout().isEmpty());
  }

  @Test
  void unknownKeyGetsTheClosestKnownKey() {
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () -> KafkaTables.parse(ddl(BASE + ", 'scan.startup.mod' = 'earliest-offset'\n")));
    assertTrue(e.getMessage().contains("Unknown option 'scan.startup.mod'"), e.getMessage());
    assertTrue(e.getMessage().contains("Did you mean 'scan.startup.mode'?"), e.getMessage());
    assertTrue(e.getMessage().startsWith("line 12, column 3"), e.getMessage());
  }

  @Test
  void missingTopicSaysWhatToSet() {
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () ->
                KafkaTables.parse(
                    ddl(
                        "  'properties.bootstrap.servers' = 'localhost:9092',\n"
                            + "  'properties.group.id' = 'g1', 'format' = 'json'\n")));
    assertTrue(e.getMessage().contains("missing required option 'topic'"), e.getMessage());
  }

  @Test
  void rejectsWhatItCannotHonour() {
    assertMessage(
        BASE + ", 'scan.startup.mode' = 'timestamp'\n",
        "supported: earliest-offset, latest-offset, group-offsets");
    assertMessage(
        "'topic' = 'orders', 'properties.bootstrap.servers' = 'h:1', 'format' = 'json'\n",
        "needs 'properties.group.id'");
    assertMessage(
        "'topic' = 'orders', 'properties.bootstrap.servers' = 'h:1', 'properties.group.id' = 'g', 'format' = 'parquet'\n",
        "supported formats are json, csv");
    assertMessage(BASE + ", 'csv.field-delimiter' = ';'\n", "belongs to format 'csv'");
    assertMessage(BASE + ", 'json.no-such' = 'x'\n", "no-such");
    assertMessage(
        BASE + ", 'properties.enable.auto.commit' = 'true'\n", "commits offsets with checkpoints");
    assertMessage(
        BASE + ", 'scan.watermark.idle-timeout' = 'soon'\n", "scan.watermark.idle-timeout");
    assertMessage(
        "'topic' = 'a b', 'properties.bootstrap.servers' = 'h:1', 'properties.group.id' = 'g', 'format' = 'json'\n",
        "a topic name is letters");
  }

  @Test
  void valuesDecodeLikeFileLines() throws Exception {
    KafkaTableSpec spec = KafkaTables.parse(ddl(BASE));
    RecordDecoder decoder = RecordDecoder.of(spec.format(), spec.schema());
    Row row =
        decoder.decode(
            "{\"order_id\": 7, \"amount\": 12.50, \"order_ts\": \"2020-05-20 12:00:01.250\"}"
                .getBytes(StandardCharsets.UTF_8));
    assertEquals(7L, row.getInt64("order_id"));
    assertEquals(new BigDecimal("12.50"), row.getDecimal("amount"));
    assertEquals(LocalDateTime.of(2020, 5, 20, 12, 0, 1, 250_000_000), row.getValue("order_ts"));

    BadRecordException bad =
        assertThrows(
            BadRecordException.class,
            () -> decoder.decode("{\"order_id\": \"x\"}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(bad.getMessage().contains("order_id"), bad.getMessage());

    KafkaTableSpec lenient =
        KafkaTables.parse(ddl(BASE + ", 'json.ignore-parse-errors' = 'true'\n"));
    assertNull(
        RecordDecoder.of(lenient.format(), lenient.schema())
            .decode("not json".getBytes(StandardCharsets.UTF_8)));

    KafkaTableSpec csv =
        KafkaTables.parse(
            ddl(
                "'topic' = 'o', 'properties.bootstrap.servers' = 'h:1', 'properties.group.id' = 'g', 'format' = 'csv'\n"));
    Row fromCsv =
        RecordDecoder.of(csv.format(), csv.schema())
            .decode("8,1.25,2020-05-20 13:00:00".getBytes(StandardCharsets.UTF_8));
    assertEquals(8L, fromCsv.getInt64("order_id"));
  }

  private static void assertMessage(String options, String expected) {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> KafkaTables.parse(ddl(options)));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void badRecordsFollowTheFileSourcesOption() {
    assertEquals(BadRecordPolicy.FAIL, KafkaTables.parse(ddl(BASE)).badRecordPolicy());
    String withSkip =
        BASE.replace(
            "'format' = 'json'\n", "'format' = 'json',\n  'source.bad-records' = 'skip'\n");
    assertEquals(BadRecordPolicy.SKIP, KafkaTables.parse(ddl(withSkip)).badRecordPolicy());
    String ignore =
        BASE.replace(
            "'format' = 'json'\n", "'format' = 'json',\n  'json.ignore-parse-errors' = 'true'\n");
    assertEquals(BadRecordPolicy.SKIP, KafkaTables.parse(ddl(ignore)).badRecordPolicy());
    KafkaTableSpec dead =
        KafkaTables.parse(
            ddl(
                BASE.replace(
                    "'format' = 'json'\n",
                    "'format' = 'json',\n  'source.bad-records' = 'dead-letter',\n  'source.bad-records.dead-letter.path' = '/data/dead'\n")));
    assertEquals(BadRecordPolicy.DEAD_LETTER, dead.badRecordPolicy());
    assertEquals(java.nio.file.Path.of("/data/dead"), dead.deadLetterPath().orElseThrow());

    assertTrue(
        error(
                BASE.replace(
                    "'format' = 'json'\n", "'format' = 'json',\n  'source.bad-records' = 'drop'\n"))
            .contains("fail, skip, dead-letter"));
    assertTrue(
        error(
                BASE.replace(
                    "'format' = 'json'\n",
                    "'format' = 'json',\n  'source.bad-records' = 'dead-letter'\n"))
            .contains("requires option 'source.bad-records.dead-letter.path'"));
    assertTrue(
        error(
                BASE.replace(
                    "'format' = 'json'\n",
                    "'format' = 'json',\n  'source.bad-records.dead-letter.path' = '/d'\n"))
            .contains("'source.bad-records' is 'fail'"));
    assertTrue(
        error(
                BASE.replace(
                    "'format' = 'json'\n",
                    "'format' = 'json',\n  'json.ignore-parse-errors' = 'true',\n  'source.bad-records' = 'fail'\n"))
            .contains("contradicts 'json.ignore-parse-errors'"));
  }

  private static String error(String options) {
    return assertThrows(TableDefinitionException.class, () -> KafkaTables.parse(ddl(options)))
        .getMessage();
  }
}
