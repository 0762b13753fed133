package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.testing.AllTypes;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20, point 4: ORC between FileTables and native Flink 1.19 SQL ({@code flink-orc}), every
 * column type of {@link AllTypes} with nulls, in a JVM time zone away from UTC (UTC+5): Flink reads
 * the ORC file FileTables wrote as the rows written. (The other way, files orc-core wrote read by
 * FileTables, is {@code OrcFormatTest} in io. Flink 1.19's own ORC writer cannot run here: its
 * {@code PhysicalWriterImpl} is built on orc-core 1.5's internals, not on the 1.9 FileTables uses.)
 *
 * <p>Flink 1.19's orc format rejects {@code TIMESTAMP_LTZ} columns ("Unsupported type"), so the
 * Flink table declares {@code ltz} as {@code TIMESTAMP(3)}: FileTables stores a TIMESTAMP_LTZ as
 * the instant's wall-clock time in UTC, which Flink reads as that wall-clock time.
 *
 * <p>Timestamps before 1583 are left out: Flink converts ORC timestamps through {@code
 * java.sql.Timestamp}, whose calendar is Julian before the Gregorian reform, FileTables through
 * {@code java.time} (docs/orc.md).
 */
class NativeFlinkOrcInterchangeTest {
  private static final long GREGORIAN =
      LocalDateTime.of(1583, 1, 1, 0, 0).toInstant(ZoneOffset.UTC).toEpochMilli();

  private static final String COLUMNS =
      "id BIGINT, s STRING, s_nn STRING, b BOOLEAN, i INT, l BIGINT, f FLOAT, d DOUBLE,"
          + " dec9 DECIMAL(9, 2), dec18 DECIMAL(18, 4), dec38 DECIMAL(38, 10), dec_nn DECIMAL(5, 0),"
          + " `day` DATE, ts TIMESTAMP(3), ts_nn TIMESTAMP(3), ltz TIMESTAMP(3), i_nn INT";

  @TempDir Path dir;

  @Test
  void flinkReadsEveryTypeFileTablesWrote() throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Row row : AllTypes.storableInOrc(AllTypes.specialRows())) {
      rows.add(gregorian(row));
    }
    for (Row row : AllTypes.randomRows(300, 20)) {
      rows.add(gregorian(row));
    }
    TableSpec written = table(dir.resolve("filetables"));
    Files.createDirectories(written.options().rootPath());
    try (OutputStream out =
            Files.newOutputStream(written.options().rootPath().resolve("part-0.orc"));
        RowWriter writer = FileFormats.of(written.options()).createWriter(out, AllTypes.SCHEMA)) {
      for (Row row : rows) {
        writer.write(row);
      }
    }

    TimeZone original = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Etc/GMT-5"));
    List<Row> flinkRead = new ArrayList<>();
    try {
      TableEnvironment flink = NativeFlinkReader.batchEnvironment();
      flink.executeSql(ddl("written", written));
      try (CloseableIterator<org.apache.flink.types.Row> it =
          flink.executeSql("SELECT * FROM written").collect()) {
        while (it.hasNext()) {
          flinkRead.add(fromFlink(it.next()));
        }
      }
    } finally {
      TimeZone.setDefault(original);
    }
    assertEquals(multiset(rows), multiset(flinkRead), "native Flink reading FileTables' ORC");
  }

  private static TableSpec table(Path root) {
    Map<String, String> options = new HashMap<>();
    options.put(TableOptions.CONNECTOR, "filesystem");
    options.put(TableOptions.PATH, root.toString());
    options.put(TableOptions.FORMAT, "orc");
    return TableSpec.builder()
        .setName(root.getFileName().toString())
        .setSchema(AllTypes.SCHEMA)
        .setOptions(TableOptions.of(options))
        .build();
  }

  private static String ddl(String name, TableSpec table) {
    return "CREATE TABLE "
        + name
        + " ("
        + COLUMNS
        + ") WITH ('connector' = 'filesystem', 'path' = '"
        + table.options().rootPath().toUri()
        + "', 'format' = 'orc')";
  }

  /** The row with its timestamps before 1583 set to null (see the class comment). */
  private static Row gregorian(Row row) {
    Row.FieldValueBuilder copy = Row.fromRow(row);
    for (String column : List.of("ts", "ltz")) {
      Object value = row.getValue(column);
      long millis =
          value instanceof LocalDateTime
              ? ((LocalDateTime) value).toInstant(ZoneOffset.UTC).toEpochMilli()
              : value == null ? Long.MAX_VALUE : ((Instant) value).getMillis();
      if (millis < GREGORIAN) {
        copy = copy.withFieldValue(column, null);
      }
    }
    return copy.build();
  }

  /**
   * A Flink row as a FileTables row: {@code ltz}, which Flink reads as the UTC wall-clock time, as
   * the instant, the rest as it is.
   */
  private static Row fromFlink(org.apache.flink.types.Row flinkRow) {
    Schema schema = AllTypes.SCHEMA;
    List<Object> values = new ArrayList<>(schema.getFieldCount());
    for (int c = 0; c < schema.getFieldCount(); c++) {
      Object value = flinkRow.getField(c);
      if (schema.getField(c).getName().equals("ltz") && value != null) {
        value = new Instant(((LocalDateTime) value).toInstant(ZoneOffset.UTC).toEpochMilli());
      }
      values.add(value);
    }
    return Row.withSchema(schema).attachValues(values);
  }

  private static Map<Row, Integer> multiset(List<Row> rows) {
    Map<Row, Integer> counts = new HashMap<>();
    for (Row row : rows) {
      counts.merge(row, 1, Integer::sum);
    }
    return counts;
  }
}
