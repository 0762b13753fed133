package dev.filetables.tests.streaming;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.values.Row;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * Orders tables as readers other than FileTables see them: the files are listed here the way
 * Hive-style readers list them (a path component starting with {@code .} or {@code _} is skipped),
 * then read by DuckDB (Parquet, JSON, CSV; Hive partitioning from the path), by Avro's own {@link
 * DataFileReader} or by orc-core's own reader. Nothing of FileTables' listing, readers or partition
 * code is used.
 *
 * <p>A row is a whole-row key {@code id|customer|product|quantity|price|order_time|dt|hour}, so
 * rows compare as a multiset: a missing, doubled or altered row shows.
 */
final class IndependentReader implements AutoCloseable {
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  private static final int EXAMPLES = 10;
  private static final String COLUMNS =
      "{'order_id': 'BIGINT', 'customer': 'VARCHAR', 'product': 'VARCHAR', 'quantity': 'INTEGER',"
          + " 'price': 'DECIMAL(10,2)', 'order_time': 'TIMESTAMP'}";

  /** How reports name this reader. */
  static final String NAME = "independent reader (DuckDB / Avro DataFileReader / orc-core)";

  private final Connection duckdb;

  private IndependentReader(Connection duckdb) {
    this.duckdb = duckdb;
  }

  static IndependentReader open() throws SQLException {
    return new IndependentReader(DriverManager.getConnection("jdbc:duckdb:"));
  }

  @Override
  public void close() throws SQLException {
    duckdb.close();
  }

  /** Every row of the table (visible files only), with how often it occurs. */
  static Map<String, Integer> rows(TableSpec table) throws Exception {
    try (IndependentReader reader = open()) {
      Map<String, Integer> rows = new TreeMap<>();
      Path root = CommitTables.root(table);
      for (Path file : visibleFiles(root, "." + table.options().format())) {
        for (String row : reader.rowsOf(root, file, table.options().format())) {
          rows.merge(row, 1, Integer::sum);
        }
      }
      return rows;
    }
  }

  /**
   * The rows of one visible data file of a table under {@code root}; throws if it does not read.
   */
  List<String> rowsOf(Path root, Path file, String format) throws Exception {
    if (format.equals("avro")) {
      return avroRows(root, file);
    }
    if (format.equals("orc")) {
      return orcRows(root, file);
    }
    String path = "'" + file.toString().replace("'", "''") + "'";
    String scan;
    switch (format) {
      case "parquet":
        scan = "read_parquet(" + path + ", hive_partitioning = true, hive_types_autocast = false)";
        break;
      case "json":
        scan =
            "read_json("
                + path
                + ", format = 'newline_delimited', hive_partitioning = true,"
                + " hive_types_autocast = false, columns = "
                + COLUMNS
                + ")";
        break;
      case "csv":
        scan =
            "read_csv("
                + path
                + ", header = false, hive_partitioning = true,"
                + " hive_types_autocast = false, columns = "
                + COLUMNS
                + ")";
        break;
      default:
        throw new IllegalArgumentException("no independent reader for format " + format);
    }
    String sql =
        "SELECT order_id, customer, product, quantity, CAST(price AS DECIMAL(10,2)),"
            + " strftime(CAST(order_time AS TIMESTAMP), '%Y-%m-%d %H:%M:%S.%g'), dt, hour FROM "
            + scan;
    List<String> rows = new ArrayList<>();
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        rows.add(
            String.join(
                "|",
                String.valueOf(result.getLong(1)),
                result.getString(2),
                result.getString(3),
                String.valueOf(result.getInt(4)),
                result.getBigDecimal(5).setScale(2).toPlainString(),
                result.getString(6),
                result.getString(7),
                result.getString(8)));
      }
    }
    return rows;
  }

  /** Rows of a DuckDB query as whole-row keys: every column as text, joined by {@code |}. */
  List<String> query(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<String> values = new ArrayList<>(columns);
        for (int c = 1; c <= columns; c++) {
          values.add(result.getString(c));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows;
  }

  /** A path as a DuckDB string literal. */
  static String literal(Path file) {
    return "'" + file.toString().replace("'", "''") + "'";
  }

  private static List<String> avroRows(Path root, Path file) throws IOException {
    Map<String, String> partition = hivePartition(root.relativize(file.getParent()));
    List<String> rows = new ArrayList<>();
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
      for (GenericRecord record : reader) {
        rows.add(
            String.join(
                "|",
                String.valueOf(record.get("order_id")),
                String.valueOf(record.get("customer")),
                String.valueOf(record.get("product")),
                String.valueOf(record.get("quantity")),
                avroDecimal(record, "price").setScale(2).toPlainString(),
                avroTimestamp(record, "order_time"),
                partition.get("dt"),
                partition.get("hour")));
      }
    }
    return rows;
  }

  /**
   * The rows of an ORC file as orc-core's own reader gives them (through Hadoop's local file
   * system, in the JVM's time zone, as Flink and Hive read ORC): timestamps by their wall-clock
   * time.
   */
  private static List<String> orcRows(Path root, Path file) throws IOException {
    Map<String, String> partition = hivePartition(root.relativize(file.getParent()));
    List<String> rows = new ArrayList<>();
    try (Reader reader =
            OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.readerOptions(new org.apache.hadoop.conf.Configuration()));
        RecordReader records = reader.rows()) {
      TypeDescription schema = reader.getSchema();
      VectorizedRowBatch batch = schema.createRowBatch();
      List<String> names = schema.getFieldNames();
      while (records.nextBatch(batch)) {
        ColumnVector[] c = new ColumnVector[6];
        int k = 0;
        for (String name :
            List.of("order_id", "customer", "product", "quantity", "price", "order_time")) {
          c[k++] = batch.cols[names.indexOf(name)];
        }
        for (int r = 0; r < batch.size; r++) {
          rows.add(
              String.join(
                  "|",
                  orcValue(c[0], r),
                  orcValue(c[1], r),
                  orcValue(c[2], r),
                  orcValue(c[3], r),
                  orcValue(c[4], r),
                  orcValue(c[5], r),
                  partition.get("dt"),
                  partition.get("hour")));
        }
      }
    }
    return rows;
  }

  private static String orcValue(ColumnVector vector, int row) {
    int r = vector.isRepeating ? 0 : row;
    if (!vector.noNulls && vector.isNull[r]) {
      return "null";
    }
    if (vector instanceof LongColumnVector) {
      return String.valueOf(((LongColumnVector) vector).vector[r]);
    }
    if (vector instanceof DecimalColumnVector) {
      return ((DecimalColumnVector) vector)
          .vector[r]
          .getHiveDecimal()
          .bigDecimalValue()
          .setScale(2)
          .toPlainString();
    }
    if (vector instanceof TimestampColumnVector) {
      return MILLIS.format(
          ((TimestampColumnVector) vector).asScratchTimestamp(r).toLocalDateTime());
    }
    BytesColumnVector bytes = (BytesColumnVector) vector;
    return new String(
        bytes.vector[r], bytes.start[r], bytes.length[r], java.nio.charset.StandardCharsets.UTF_8);
  }

  private static BigDecimal avroDecimal(GenericRecord record, String field) {
    Schema schema = nonNull(record.getSchema().getField(field).schema());
    LogicalTypes.Decimal decimal = (LogicalTypes.Decimal) schema.getLogicalType();
    ByteBuffer bytes = ((ByteBuffer) record.get(field)).duplicate();
    byte[] unscaled = new byte[bytes.remaining()];
    bytes.get(unscaled);
    return new BigDecimal(new BigInteger(unscaled), decimal.getScale());
  }

  private static String avroTimestamp(GenericRecord record, String field) {
    LogicalType type = nonNull(record.getSchema().getField(field).schema()).getLogicalType();
    long value = (Long) record.get(field);
    String name = type == null ? "" : type.getName();
    long micros = name.endsWith("-micros") ? value : value * 1000;
    Instant instant =
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    return MILLIS.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
  }

  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    return schema.getTypes().stream()
        .filter(s -> s.getType() != Schema.Type.NULL)
        .findFirst()
        .orElseThrow();
  }

  /** {@code dt=a/hour=b} → {dt=a, hour=b}. */
  static Map<String, String> hivePartition(Path relativeDir) {
    Map<String, String> values = new TreeMap<>();
    for (Path part : relativeDir) {
      String text = part.toString();
      int eq = text.indexOf('=');
      if (eq > 0) {
        values.put(text.substring(0, eq), text.substring(eq + 1));
      }
    }
    return values;
  }

  /** The whole-row key of an expected row. */
  static String key(Row row) {
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

  /** The order id of a row key. */
  static long idOf(String key) {
    return Long.parseLong(key.substring(0, key.indexOf('|')));
  }

  /** Rows {@code 0 .. rows-1} of {@code orders} as whole-row keys. */
  static Map<String, Integer> expected(Orders orders, long rows) {
    Map<String, Integer> expected = new TreeMap<>();
    for (long id = 0; id < rows; id++) {
      expected.merge(key(orders.row(id)), 1, Integer::sum);
    }
    return expected;
  }

  /** How a multiset of rows read differs from the expected one. */
  static final class Verdict {
    long missing;
    final List<String> missingExamples = new ArrayList<>();
    long extra;
    final List<String> extraExamples = new ArrayList<>();

    /** Rows read more often than expected: doubled, altered or never written. */
    List<String> extraProblems(String reader) {
      return extra == 0
          ? List.of()
          : List.of(
              reader
                  + ": "
                  + extra
                  + " row(s) too many (doubled, altered or never written), e.g. "
                  + extraExamples);
    }

    List<String> missingProblems(String reader) {
      return missing == 0
          ? List.of()
          : List.of(reader + ": " + missing + " row(s) missing, e.g. " + missingExamples);
    }
  }

  static Verdict compare(Map<String, Integer> expected, Map<String, Integer> actual) {
    Verdict verdict = new Verdict();
    for (Map.Entry<String, Integer> e : expected.entrySet()) {
      int got = actual.getOrDefault(e.getKey(), 0);
      if (got < e.getValue()) {
        verdict.missing += e.getValue() - got;
        if (verdict.missingExamples.size() < EXAMPLES) {
          verdict.missingExamples.add(e.getKey());
        }
      }
    }
    for (Map.Entry<String, Integer> a : actual.entrySet()) {
      int want = expected.getOrDefault(a.getKey(), 0);
      if (a.getValue() > want) {
        verdict.extra += a.getValue() - want;
        if (verdict.extraExamples.size() < EXAMPLES) {
          verdict.extraExamples.add(
              a.getKey() + (a.getValue() > 1 ? " (" + a.getValue() + " times)" : ""));
        }
      }
    }
    return verdict;
  }

  /** Data files a Hive-style reader lists: no path component starts with '.' or '_'. */
  static List<Path> visibleFiles(Path root, String extension) throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.forEach(
          p -> {
            if (p.getFileName().toString().endsWith(extension)
                && !hidden(root.relativize(p))
                && Files.isRegularFile(p)) {
              files.add(p);
            }
          });
    } catch (java.io.UncheckedIOException e) {
      if (!(e.getCause() instanceof java.nio.file.NoSuchFileException)) {
        throw e;
      }
      return visibleFiles(
          root, extension); // a directory vanished while walking (a running job): again
    }
    return files.stream().sorted().collect(Collectors.toList());
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
