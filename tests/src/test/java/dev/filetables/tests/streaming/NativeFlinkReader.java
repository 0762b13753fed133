package dev.filetables.tests.streaming;

import dev.filetables.io.table.TableSpec;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Orders tables as native Flink 1.19 SQL reads them: Flink's own filesystem connector and formats
 * (json, csv, avro, parquet, orc), in batch mode on a local mini-cluster, with a {@code CREATE
 * TABLE} written here from Flink's documentation, not from FileTables' DDL code. Partition columns
 * come from the {@code dt=/hour=} directories, and Flink skips files and directories starting with
 * {@code .} or {@code _} as it always does: it sees what a Flink user of the table would see.
 *
 * <p>Rows come back as the whole-row keys of {@link IndependentReader#key}, so they compare as a
 * multiset with the expected rows.
 */
final class NativeFlinkReader {
  static final String NAME = "native Flink 1.19 SQL (filesystem connector)";
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private NativeFlinkReader() {}

  /** Native Flink SQL in batch mode on a local mini-cluster of parallelism 1. */
  static TableEnvironment batchEnvironment() {
    Configuration config = new Configuration();
    config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
    config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("64m"));
    return TableEnvironment.create(
        EnvironmentSettings.newInstance().inBatchMode().withConfiguration(config).build());
  }

  /** Every row of the orders table, with how often native Flink reads it. */
  static Map<String, Integer> rows(TableSpec table) throws Exception {
    TableEnvironment flink = batchEnvironment();
    String format = table.options().format();
    flink.executeSql(
        "CREATE TABLE orders (\n"
            + "  order_id BIGINT,\n"
            + "  customer STRING,\n"
            + "  product STRING,\n"
            + "  quantity INT,\n"
            + "  price DECIMAL(10, 2),\n"
            + "  order_time TIMESTAMP(3),\n"
            + "  dt STRING,\n"
            + "  `hour` STRING\n"
            + ") PARTITIONED BY (dt, `hour`) WITH (\n"
            + "  'connector' = 'filesystem',\n"
            + "  'path' = '"
            + CommitTables.root(table).toUri()
            + "',\n"
            + "  'format' = '"
            + format
            + "'\n"
            + ")");
    Map<String, Integer> rows = new TreeMap<>();
    TableResult result =
        flink.executeSql(
            "SELECT order_id, customer, product, quantity, price, order_time, dt, `hour` FROM orders");
    try (CloseableIterator<Row> it = result.collect()) {
      while (it.hasNext()) {
        rows.merge(key(it.next()), 1, Integer::sum);
      }
    }
    return rows;
  }

  private static String key(Row row) {
    return String.join(
        "|",
        String.valueOf(row.getField(0)),
        String.valueOf(row.getField(1)),
        String.valueOf(row.getField(2)),
        String.valueOf(row.getField(3)),
        row.getField(4) == null
            ? "null"
            : ((BigDecimal) row.getField(4)).setScale(2).toPlainString(),
        row.getField(5) == null ? "null" : MILLIS.format((LocalDateTime) row.getField(5)),
        String.valueOf(row.getField(6)),
        String.valueOf(row.getField(7)));
  }
}
