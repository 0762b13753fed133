package dev.filetables.tests.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink's time functions and the session time zone, as {@code filetables sql} computes them and as
 * native Flink 1.19 SQL does, on the same JSON table and the same query text, in three zones (one
 * with daylight saving time). The expected values come from native Flink in this test.
 */
class SqlFunctionsAgainstFlinkTest {
  private static final List<String> ZONES = List.of("UTC", "Asia/Shanghai", "America/New_York");

  /**
   * Each result column is a STRING or a number, so both sides print it the same way. EXTRACT from a
   * TIMESTAMP_LTZ is compared from the second day of 1970 on: native Flink 1.19 extracts wrong
   * fields from a local time before 1970 (HOUR -5, DAY 1, YEAR 1970 for 1969-12-31 19:00 in New
   * York, where its own DATE_FORMAT says 19, 31, 1969); FileTables gives the calendar's fields.
   */
  private static final List<String> EXPRESSIONS =
      List.of(
          "DATE_FORMAT(ts_ltz, 'yyyy-MM-dd HH:mm:ss')",
          "DATE_FORMAT(ts_ltz, 'yyyy-MM-dd')",
          "DATE_FORMAT(ts_ltz, 'HH')",
          "DATE_FORMAT(ts_ltz, 'yyyyMMddHHmmssSSS')",
          "DATE_FORMAT(ts_ltz, 'EEE MMM d yyyy hh:mm a')",
          "DATE_FORMAT(s, 'yyyy/MM/dd HH')",
          "FROM_UNIXTIME(ts / 1000)",
          "FROM_UNIXTIME(ts / 1000, 'yyyy/MM/dd HH:mm')",
          "UNIX_TIMESTAMP(s)",
          "UNIX_TIMESTAMP(d, 'dd/MM/yyyy HH:mm')",
          "DATE_FORMAT(TO_TIMESTAMP(s), 'yyyy-MM-dd HH:mm:ss')",
          "DATE_FORMAT(TO_TIMESTAMP(d, 'dd/MM/yyyy HH:mm'), 'yyyy-MM-dd HH:mm')",
          "CASE WHEN ts >= 86400000 THEN EXTRACT(HOUR FROM ts_ltz) END",
          "CASE WHEN ts >= 86400000 THEN EXTRACT(DAY FROM ts_ltz) END",
          "CASE WHEN ts >= 86400000 THEN EXTRACT(YEAR FROM ts_ltz) END",
          "EXTRACT(MINUTE FROM TO_TIMESTAMP(s))",
          "CASE WHEN ts >= 86400000 THEN CAST(EXTRACT(MONTH FROM ts_ltz) AS STRING) END",
          "DATE_FORMAT(TO_TIMESTAMP_LTZ(ts / 1000, 0), 'yyyy-MM-dd HH:mm:ss')");

  private static final String[] DATA = {
    "{\"id\":1,\"ts\":1589972400000,\"s\":\"2020-05-20 12:00:00\",\"d\":\"20/05/2020 12:34\"}",
    "{\"id\":2,\"ts\":1615703400123,\"s\":\"2021-03-14 02:30:00\",\"d\":\"14/03/2021 02:30\"}",
    "{\"id\":3,\"ts\":1615707000000,\"s\":\"2021-11-07 01:30:00\",\"d\":\"07/11/2021 01:30\"}",
    "{\"id\":4,\"ts\":1609459199999,\"s\":\"2020-12-31 23:59:59\",\"d\":\"31/12/2020 23:59\"}",
    "{\"id\":5,\"ts\":0,\"s\":\"1970-01-01 00:00:00\",\"d\":\"01/01/1970 00:00\"}",
    "{\"id\":6,\"ts\":null,\"s\":null,\"d\":null}"
  };

  @TempDir Path dir;

  @Test
  void functionsAndTimeZonesGiveFlinksAnswers() throws Exception {
    Path table = Files.createDirectories(dir.resolve("events"));
    Files.write(table.resolve("part-0.json"), List.of(DATA), StandardCharsets.UTF_8);
    String create =
        "CREATE TABLE events (id INT, ts BIGINT, s STRING, d STRING,"
            + " ts_ltz AS TO_TIMESTAMP_LTZ(ts, 3))"
            + " WITH ('connector' = 'filesystem', 'path' = '"
            + table
            + "', 'format' = 'json')";
    StringBuilder script = new StringBuilder(create).append(";\n");
    for (String zone : ZONES) {
      script.append("SET 'table.local-time-zone' = '").append(zone).append("';\n");
      script.append(query(zone)).append(";\n");
    }
    Path file = dir.resolve("functions.sql");
    Files.writeString(file, script, StandardCharsets.UTF_8);

    Map<String, Integer> ours = fromJsonLines(SqlCli.run(file.toString(), "--runner=DirectRunner"));
    Map<String, Integer> flink = nativeFlink(create);
    assertEquals(flink, ours, difference(flink, ours));
  }

  /** The rows only one side has, one per line, for a readable failure. */
  private static String difference(Map<String, Integer> flink, Map<String, Integer> ours) {
    StringBuilder text = new StringBuilder("rows that differ:");
    flink.keySet().stream()
        .filter(k -> !ours.containsKey(k))
        .forEach(k -> text.append("\n  native Flink: ").append(k));
    ours.keySet().stream()
        .filter(k -> !flink.containsKey(k))
        .forEach(k -> text.append("\n  FileTables:   ").append(k));
    return text.append("\n").toString();
  }

  private static String query(String zone) {
    StringBuilder select = new StringBuilder("SELECT '" + zone + "' AS zone, id");
    for (int i = 0; i < EXPRESSIONS.size(); i++) {
      select.append(", ").append(EXPRESSIONS.get(i)).append(" AS e").append(i);
    }
    return select.append(" FROM events WHERE id > 0").toString();
  }

  private static String key(List<String> values) {
    return String.join(" | ", values);
  }

  private static Map<String, Integer> fromJsonLines(String printed) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<String, Integer> rows = new TreeMap<>();
    for (String line : printed.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode row = json.readTree(line);
      List<String> values = new ArrayList<>();
      Iterator<JsonNode> fields = row.elements();
      while (fields.hasNext()) {
        JsonNode value = fields.next();
        values.add(value.isNull() ? "null" : value.asText());
      }
      rows.merge(key(values), 1, Integer::sum);
    }
    return rows;
  }

  private static Map<String, Integer> nativeFlink(String create) throws Exception {
    Configuration config = new Configuration();
    config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
    config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("64m"));
    TableEnvironment flink =
        TableEnvironment.create(
            EnvironmentSettings.newInstance().inBatchMode().withConfiguration(config).build());
    flink.executeSql(create);
    Map<String, Integer> rows = new TreeMap<>();
    for (String zone : ZONES) {
      flink.getConfig().set("table.local-time-zone", zone);
      try (CloseableIterator<Row> it = flink.executeSql(query(zone)).collect()) {
        while (it.hasNext()) {
          Row row = it.next();
          List<String> values = new ArrayList<>();
          for (int i = 0; i < row.getArity(); i++) {
            values.add(String.valueOf(row.getField(i)));
          }
          rows.merge(key(values), 1, Integer::sum);
        }
      }
    }
    return rows;
  }
}
