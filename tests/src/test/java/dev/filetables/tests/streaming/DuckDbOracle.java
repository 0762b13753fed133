package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.bench.Orders;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.values.Row;

/**
 * An orders table as DuckDB reads it, judged without FileTables' own reader: the files are listed
 * here the way Hive-style readers do (names starting with {@code .} or {@code _} are skipped, in any
 * directory), DuckDB reads them with Hive partitioning, and the rows are compared with the rows
 * {@code 0 .. n-1} of {@link Orders} as a multiset of whole rows (every column, partition values
 * from the path), so a missing, doubled or altered row fails.
 */
final class DuckDbOracle {
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  private static final int EXAMPLES = 10;

  private DuckDbOracle() {}

  /** Fails unless DuckDB reads exactly rows {@code 0 .. rows-1} of {@code orders}, each once. */
  static void assertSameRows(TableSpec table, Orders orders, long rows) throws Exception {
    Map<String, Integer> expected = new TreeMap<>();
    for (long id = 0; id < rows; id++) {
      expected.merge(key(orders.row(id)), 1, Integer::sum);
    }
    Map<String, Integer> actual = read(table);
    assertEquals(List.of(), differences(expected, actual), "DuckDB's view of " + table.name());
  }

  /** Whole rows as DuckDB reads them, with how often each occurs. */
  static Map<String, Integer> read(TableSpec table) throws Exception {
    String format = table.options().format();
    List<Path> files = visibleFiles(CommitTables.root(table), "." + format);
    Map<String, Integer> rows = new TreeMap<>();
    if (files.isEmpty()) {
      return rows;
    }
    String list =
        files.stream().map(p -> "'" + p.toString().replace("'", "''") + "'").collect(Collectors.joining(", ", "[", "]"));
    String scan;
    switch (format) {
      case "parquet":
        scan = "read_parquet(" + list + ", hive_partitioning = true, hive_types_autocast = false)";
        break;
      case "json":
        scan = "read_json(" + list + ", format = 'newline_delimited', hive_partitioning = true,"
            + " hive_types_autocast = false, columns = " + COLUMNS + ")";
        break;
      case "csv":
        scan = "read_csv(" + list + ", header = false, hive_partitioning = true,"
            + " hive_types_autocast = false, columns = " + COLUMNS + ")";
        break;
      default:
        throw new IllegalArgumentException("no DuckDB reader for format " + format);
    }
    String sql =
        "SELECT order_id, customer, product, quantity, CAST(price AS DECIMAL(10,2)) AS price,"
            + " strftime(CAST(order_time AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.%g') AS order_time, dt, hour FROM "
            + scan;
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        String key =
            String.join(
                "|",
                String.valueOf(result.getLong(1)),
                result.getString(2),
                result.getString(3),
                String.valueOf(result.getInt(4)),
                result.getBigDecimal(5).setScale(2).toPlainString(),
                result.getString(6),
                result.getString(7),
                result.getString(8));
        rows.merge(key, 1, Integer::sum);
      }
    }
    return rows;
  }

  private static final String COLUMNS =
      "{'order_id': 'BIGINT', 'customer': 'VARCHAR', 'product': 'VARCHAR', 'quantity': 'INTEGER',"
          + " 'price': 'DECIMAL(10,2)', 'order_time': 'TIMESTAMP'}";

  private static String key(Row row) {
    return String.join(
        "|",
        String.valueOf(row.getInt64("order_id")),
        row.getString("customer"),
        row.getString("product"),
        String.valueOf(row.getInt32("quantity")),
        ((BigDecimal) row.getDecimal("price")).setScale(2).toPlainString(),
        MILLIS.format((LocalDateTime) row.getValue("order_time")),
        row.getString("dt"),
        row.getString("hour"));
  }

  /** Multiset differences, a few examples of each kind. */
  static List<String> differences(Map<String, Integer> expected, Map<String, Integer> actual) {
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    long missingCount = 0;
    long extraCount = 0;
    for (Map.Entry<String, Integer> e : expected.entrySet()) {
      int got = actual.getOrDefault(e.getKey(), 0);
      if (got < e.getValue()) {
        missingCount += e.getValue() - got;
        if (missing.size() < EXAMPLES) {
          missing.add(e.getKey());
        }
      }
    }
    for (Map.Entry<String, Integer> a : actual.entrySet()) {
      int want = expected.getOrDefault(a.getKey(), 0);
      if (a.getValue() > want) {
        extraCount += a.getValue() - want;
        if (extra.size() < EXAMPLES) {
          extra.add(a.getKey() + (want > 0 ? " (" + a.getValue() + " times)" : ""));
        }
      }
    }
    List<String> problems = new ArrayList<>();
    if (missingCount > 0) {
      problems.add(missingCount + " row(s) missing, e.g. " + missing);
    }
    if (extraCount > 0) {
      problems.add(extraCount + " row(s) too many (doubled or never written), e.g. " + extra);
    }
    return problems;
  }

  /** Data files a Hive-style reader lists: no path component starts with '.' or '_'. */
  static List<Path> visibleFiles(Path root, String extension) throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().endsWith(extension))
          .filter(p -> !hidden(root.relativize(p)))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }
}
