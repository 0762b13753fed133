package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DdlParserTest {

  @TempDir Path tmp;
  private String root;

  @BeforeEach
  void setUp() {
    root = tmp.resolve("orders").toString();
  }

  private static String lines(String... lines) {
    return String.join("\n", lines);
  }

  private String with() {
    return "WITH ('connector' = 'filesystem', 'path' = '" + root + "', 'format' = 'csv')";
  }

  /** A table with the given column declarations (one per line, starting on line 2). */
  private String table(String... columns) {
    return "CREATE TABLE t (\n" + String.join(",\n", columns) + "\n) " + with();
  }

  private static String error(String ddl) {
    return assertThrows(TableDefinitionException.class, () -> DdlParser.parse(ddl)).getMessage();
  }

  private static void assertContains(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected <" + part + "> in: " + message);
    }
  }

  // ---------------------------------------------------------------- happy paths

  @Test
  void parsesAFullTable() {
    String ddl =
        lines(
            "-- orders, partitioned by day",
            "CREATE TABLE IF NOT EXISTS orders (",
            "  id BIGINT NOT NULL,",
            "  customer STRING,",
            "  amount DECIMAL(10, 2),",
            "  ts TIMESTAMP(3),",
            "  dt STRING,",
            "  `file.path` STRING NOT NULL METADATA FROM 'file.path' VIRTUAL,",
            "  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND",
            ") COMMENT 'all orders'",
            "PARTITIONED BY (dt)",
            "WITH (",
            "  'connector' = 'filesystem',",
            "  'path' = '" + root + "',",
            "  'format' = 'parquet',",
            "  'sink.rolling-policy.file-size' = '64MB'",
            ");");
    TableSpec spec = DdlParser.parse(ddl);
    assertEquals("orders", spec.name());
    Schema expected =
        Schema.builder()
            .addField("id", FieldType.INT64)
            .addField("customer", FieldType.STRING.withNullable(true))
            .addField("amount", ColumnType.decimal(10, 2).withNullable(true))
            .addField("ts", ColumnType.TIMESTAMP.fieldType().withNullable(true))
            .addField("dt", FieldType.STRING.withNullable(true))
            .addField("file.path", FieldType.STRING)
            .build();
    assertEquals(expected, spec.schema());
    assertEquals(List.of("dt"), spec.partitionKeys());
    assertEquals(
        List.of(MetadataColumn.of("file.path", MetadataKey.FILE_PATH)), spec.metadataColumns());
    assertEquals(Optional.of(WatermarkSpec.of("ts", Duration.ofSeconds(5))), spec.watermark());
    assertEquals("parquet", spec.options().format());
    assertEquals(64L << 20, spec.options().rollingFileSize());
    assertEquals(
        List.of("id", "customer", "amount", "ts", "dt"), spec.physicalSchema().getFieldNames());
    assertEquals(List.of("id", "customer", "amount", "ts"), spec.fileSchema().getFieldNames());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "STRING|STRING",
        "string|STRING",
        "VARCHAR(20)|STRING",
        "VARCHAR|STRING",
        "CHARACTER VARYING(5)|STRING",
        "BOOLEAN|BOOLEAN",
        "INT|INT",
        "INTEGER|INT",
        "Integer|INT",
        "BIGINT|BIGINT",
        "FLOAT|FLOAT",
        "DOUBLE|DOUBLE",
        "DOUBLE PRECISION|DOUBLE",
        "DECIMAL|DECIMAL",
        "DATE|DATE",
        "TIMESTAMP|TIMESTAMP",
        "TIMESTAMP(3)|TIMESTAMP",
        "TIMESTAMP(0)|TIMESTAMP",
        "timestamp(3) without time zone|TIMESTAMP",
        "TIMESTAMP_LTZ(3)|TIMESTAMP_LTZ",
        "TIMESTAMP_LTZ|TIMESTAMP_LTZ",
        "TIMESTAMP(3) WITH LOCAL TIME ZONE|TIMESTAMP_LTZ",
        "TIMESTAMP WITH LOCAL TIME ZONE|TIMESTAMP_LTZ",
      })
  void parsesEveryType(String type, ColumnType expected) {
    TableSpec spec = DdlParser.parse(table("c " + type, "n " + type + " NOT NULL", "x INT"));
    FieldType nullable = spec.schema().getField("c").getType();
    FieldType notNull = spec.schema().getField("n").getType();
    assertEquals(expected, ColumnType.of(nullable));
    assertEquals(expected, ColumnType.of(notNull));
    assertTrue(nullable.getNullable());
    assertFalse(notNull.getNullable());
    if (expected != ColumnType.DECIMAL) {
      assertEquals(expected.fieldType().withNullable(true), nullable);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "DECIMAL|10|0",
        "DECIMAL(7)|7|0",
        "DECIMAL(12, 3)|12|3",
        "NUMERIC(5,5)|5|5",
        "DEC(38, 0)|38|0"
      })
  void decimalPrecisionAndScale(String type, int precision, int scale) {
    FieldType t = DdlParser.parse(table("d " + type)).schema().getField("d").getType();
    assertEquals(ColumnType.decimal(precision, scale).withNullable(true), t);
    assertEquals(precision, ColumnType.decimalPrecision(t));
    assertEquals(scale, ColumnType.decimalScale(t));
  }

  @Test
  void explicitNullIsNullable() {
    TableSpec spec = DdlParser.parse(table("a INT NULL", "b INT NOT NULL COMMENT 'the b'"));
    assertTrue(spec.schema().getField("a").getType().getNullable());
    assertFalse(spec.schema().getField("b").getType().getNullable());
  }

  @Test
  void metadataColumns() {
    TableSpec spec =
        DdlParser.parse(
            table(
                "v STRING",
                "`file.path` STRING NOT NULL METADATA",
                "fname STRING NOT NULL METADATA FROM 'file.name' VIRTUAL",
                "size BIGINT METADATA FROM 'file.size'",
                "mtime TIMESTAMP_LTZ(3) NOT NULL METADATA FROM 'file.modification-time' COMMENT 'when'"));
    assertEquals(
        List.of(
            MetadataColumn.of("file.path", MetadataKey.FILE_PATH),
            MetadataColumn.of("fname", MetadataKey.FILE_NAME),
            MetadataColumn.of("size", MetadataKey.FILE_SIZE),
            MetadataColumn.of("mtime", MetadataKey.FILE_MODIFICATION_TIME)),
        spec.metadataColumns());
    assertEquals(List.of("v"), spec.physicalSchema().getFieldNames());
    assertEquals(5, spec.schema().getFieldCount());
  }

  @Test
  void watermarkForms() {
    assertEquals(Duration.ZERO, watermarkDelay("ts AS ts"));
    assertEquals(Duration.ofSeconds(5), watermarkDelay("ts AS ts - INTERVAL '5' SECOND"));
    assertEquals(Duration.ofSeconds(5), watermarkDelay("ts AS ts - INTERVAL '5' SECONDS"));
    assertEquals(Duration.ofMinutes(2), watermarkDelay("ts AS ts - INTERVAL '2' MINUTE"));
    assertEquals(Duration.ofMinutes(2), watermarkDelay("ts AS ts - INTERVAL '2' minutes"));
    assertEquals(Duration.ofHours(1), watermarkDelay("ts AS ts - INTERVAL '1' HOUR"));
    assertEquals(Duration.ofHours(3), watermarkDelay("ts AS ts - INTERVAL '3' HOURS"));
    assertEquals(Duration.ofDays(1), watermarkDelay("ts AS ts - INTERVAL '1' DAY"));
    assertEquals(Duration.ofDays(2), watermarkDelay("ts AS ts - INTERVAL '2' DAYS"));
    assertEquals(Duration.ofMillis(250), watermarkDelay("ts AS ts - INTERVAL '250' MILLISECOND"));
    assertEquals(Duration.ofMillis(250), watermarkDelay("ts AS ts - INTERVAL '250' MILLISECONDS"));
    assertEquals(Duration.ofMillis(500), watermarkDelay("ts AS ts - INTERVAL '0.5' SECOND"));
    assertEquals(Duration.ofSeconds(5), watermarkDelay("`ts` AS `ts` - INTERVAL '5' SECOND"));
    assertEquals(Duration.ofSeconds(5), watermarkDelay("ts as ts - interval '5' second"));
  }

  private Duration watermarkDelay(String clause) {
    TableSpec spec = DdlParser.parse(table("ts TIMESTAMP(3)", "v INT", "WATERMARK FOR " + clause));
    assertEquals("ts", spec.watermark().get().column());
    return spec.watermark().get().delay();
  }

  @Test
  void watermarkOnLocalZonedTimestamp() {
    TableSpec spec =
        DdlParser.parse(
            table("ts TIMESTAMP_LTZ(3)", "WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE"));
    assertEquals(WatermarkSpec.of("ts", Duration.ofMinutes(1)), spec.watermark().get());
  }

  @Test
  void backQuotedNames() {
    TableSpec spec =
        DdlParser.parse(
            "CREATE TABLE `my table` (`select` INT, `we``ird` STRING, `Mixed Case` BIGINT, `hour` STRING)"
                + " PARTITIONED BY (`hour`) "
                + with());
    assertEquals("my table", spec.name());
    assertEquals(List.of("select", "we`ird", "Mixed Case", "hour"), spec.schema().getFieldNames());
    assertEquals(List.of("hour"), spec.partitionKeys());
  }

  @Test
  void namesKeepTheirCase() {
    TableSpec spec = DdlParser.parse(table("UserId INT", "userid STRING"));
    assertEquals(List.of("UserId", "userid"), spec.schema().getFieldNames());
  }

  @Test
  void commentsAreSkipped() {
    String ddl =
        lines(
            "/* header",
            "   comment */ CREATE /*+ hint */ TABLE t ( -- trailing comment",
            "  a INT, -- a, with 'quote' and `back quote`",
            "  /* inline */ b STRING /* after */",
            ") -- before WITH",
            with() + " -- done");
    assertEquals(List.of("a", "b"), DdlParser.parse(ddl).schema().getFieldNames());
  }

  @Test
  void keywordsAreCaseInsensitive() {
    TableSpec spec =
        DdlParser.parse(
            "create temporary table if not exists cat.db.t (a int not null, ts timestamp(3),"
                + " dt string, watermark for ts as ts - interval '1' second) partitioned by (dt) with ("
                + "'connector' = 'filesystem', 'path' = '"
                + root
                + "', 'format' = 'json')");
    assertEquals("t", spec.name());
    assertEquals(List.of("dt"), spec.partitionKeys());
    assertFalse(spec.schema().getField("a").getType().getNullable());
  }

  @Test
  void stringEscapesAndOptionalSemicolon() {
    TableSpec spec =
        DdlParser.parse(
            "CREATE TABLE t (a INT) WITH ('path' = '"
                + root
                + "', 'format' = 'csv', 'partition.time-extractor.timestamp-pattern' = '$dt ''x''')");
    assertEquals(Optional.of("$dt 'x'"), spec.options().timestampPattern());
    DdlParser.parse(table("a INT") + " ;  \n-- end\n");
  }

  @Test
  void connectorIsOptional() {
    TableSpec spec =
        DdlParser.parse("CREATE TABLE t (a INT) WITH ('path' = '" + root + "', 'format' = 'avro')");
    assertEquals("avro", spec.options().format());
  }

  @Test
  void relativePathIsResolvedAgainstWorkingDirectory() {
    TableSpec spec =
        DdlParser.parse(
            "CREATE TABLE t (a INT) WITH ('path' = 'data/../out/orders', 'format' = 'csv')");
    assertEquals(
        Path.of("out/orders").toAbsolutePath().normalize().toString(), spec.options().path());
    String uri = tmp.resolve("x").toUri().toString();
    assertEquals(
        uri,
        DdlParser.parse("CREATE TABLE t (a INT) WITH ('path' = '" + uri + "', 'format' = 'csv')")
            .options()
            .path());
    assertEquals(root, DdlParser.parse(table("a INT")).options().path());
  }

  @Test
  void parseFileReadsUtf8AndPrefixesErrorsWithTheFileName() throws Exception {
    Path good = tmp.resolve("good.sql");
    Files.writeString(good, table("name STRING", "größe INT"), StandardCharsets.UTF_8);
    assertEquals(List.of("name", "größe"), DdlParser.parseFile(good).schema().getFieldNames());

    Path bad = tmp.resolve("orders.sql");
    Files.writeString(
        bad, lines("CREATE TABLE orders (", "  id BIGINT,", "  total AS id * 2", ") " + with()));
    String message =
        assertThrows(TableDefinitionException.class, () -> DdlParser.parseFile(bad)).getMessage();
    assertTrue(message.startsWith(bad + ":3:9: computed column `total`"), message);

    Path missing = tmp.resolve("missing.sql");
    assertContains(
        assertThrows(TableDefinitionException.class, () -> DdlParser.parseFile(missing))
            .getMessage(),
        "Cannot read DDL file '" + missing + "'");
  }

  @Test
  void parseStatementIsConnectorNeutral() {
    String ddl =
        lines(
            "CREATE TABLE events (",
            "  k STRING,",
            "  `offset` BIGINT METADATA VIRTUAL,",
            "  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',",
            "  WATERMARK FOR ts AS ts",
            ") COMMENT 'kafka events' WITH (",
            "  'connector' = 'kafka',",
            "  'topic' = 'events'",
            ")");
    DdlStatement statement = DdlParser.parseStatement(ddl);
    assertEquals("events", statement.name());
    assertEquals(Map.of("connector", "kafka", "topic", "events"), statement.options());
    assertEquals(Optional.of("kafka events"), statement.comment());
    assertEquals(3, statement.columns().size());
    DdlStatement.Column offset = statement.columns().get(1);
    assertEquals(Optional.of("offset"), offset.metadataKey());
    assertTrue(offset.virtual());
    assertEquals("BIGINT", offset.typeText());
    assertEquals(new DdlStatement.Location(3, 3), offset.location());
    assertEquals(Optional.of("timestamp"), statement.columns().get(2).metadataKey());
    assertEquals(Optional.of(WatermarkSpec.of("ts", Duration.ZERO)), statement.watermark());
    assertEquals(new DdlStatement.Location(5, 3), statement.watermarkLocation());
    assertEquals(new DdlStatement.Location(7, 3), statement.optionLocation("connector"));
    assertEquals(new DdlStatement.Location(6, 26), statement.optionLocation("missing"));
    assertEquals(
        "line 7, column 3: nope",
        statement.errorAt(statement.optionLocation("connector"), "nope").getMessage());

    // the same statement as a file table fails on its connector, at the connector's line
    String message = error(ddl);
    assertTrue(message.startsWith("line 7, column 3: Unsupported connector 'kafka'"), message);
    assertContains(message, "other connectors are not supported by FileTables");
  }

  // ---------------------------------------------------------------- errors

  @Test
  void computedColumnIsRejected() {
    String message = error(table("a INT", "b AS a + 1"));
    assertEquals(
        "line 3, column 3: computed column `b` (name AS expression) is not supported here;"
            + " FileTables supports physical columns (name TYPE) and METADATA columns, and"
            + " `bin/filetables sql` evaluates computed columns",
        message);
  }

  @Test
  void computedColumnsKeepTheirExpressionAsWritten() {
    String ddl =
        lines(
            "CREATE TABLE kafka_table (",
            "  user_id STRING, ts BIGINT,",
            "  ts_ltz AS TO_TIMESTAMP_LTZ(ts, 3),",
            "  label AS CONCAT(user_id, '|', CAST(ts AS STRING)) COMMENT 'shown',",
            "  pct AS ts % 100,",
            "  WATERMARK FOR ts_ltz AS ts_ltz - INTERVAL '5' SECOND",
            ") " + with());
    DdlStatement statement = DdlParser.parseStatement(ddl);
    List<DdlStatement.Column> computed = statement.computedColumns();
    assertEquals(List.of("ts_ltz", "label", "pct"), computed.stream().map(c -> c.name()).toList());
    assertEquals("TO_TIMESTAMP_LTZ(ts, 3)", computed.get(0).computed().get().expression());
    assertEquals(new DdlStatement.Location(3, 10), computed.get(0).computed().get().location());
    assertEquals(
        "CONCAT(user_id, '|', CAST(ts AS STRING))", computed.get(1).computed().get().expression());
    assertEquals(Optional.of("shown"), computed.get(1).comment());
    assertEquals("ts % 100", computed.get(2).computed().get().expression());
    assertEquals(
        Optional.of(WatermarkSpec.of("ts_ltz", Duration.ofSeconds(5))), statement.watermark());

    DdlStatement stored = statement.withoutComputedColumns();
    assertEquals(List.of("user_id", "ts"), stored.columns().stream().map(c -> c.name()).toList());
    assertEquals(Optional.empty(), stored.watermark());
    assertEquals(List.of("user_id", "ts"), DdlParser.toTableSpec(stored).schema().getFieldNames());
  }

  @Test
  void computedColumnWithoutExpressionIsAnError() {
    assertContains(
        error(table("a INT", "b AS")), "line 4, column 1: expected an expression after `b` AS");
  }

  @Test
  void primaryKeysAreRejected() {
    assertContains(
        error(table("a INT", "PRIMARY KEY (a) NOT ENFORCED")),
        "line 3, column 1: PRIMARY KEY constraints are not supported");
    assertContains(
        error(table("a INT", "CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED")),
        "line 3, column 1: constraints (CONSTRAINT ... PRIMARY KEY) are not supported");
    assertContains(
        error(table("a INT PRIMARY KEY NOT ENFORCED")),
        "line 2, column 7: PRIMARY KEY constraints are not supported");
  }

  @Test
  void partitionKeyMustBeAPhysicalColumn() {
    String message =
        error(lines("CREATE TABLE t (a INT, b STRING)", "PARTITIONED BY (b, c)", with()));
    assertEquals(
        "line 2, column 20: partition key `c` is not a column of table `t`; columns are [a, b]",
        message);
    assertContains(
        error(
            "CREATE TABLE t (a INT, `file.name` STRING NOT NULL METADATA)"
                + " PARTITIONED BY (`file.name`) "
                + with()),
        "line 1, column 78: partition key `file.name` is a METADATA column");
    assertContains(
        error("CREATE TABLE t (a INT, b INT) PARTITIONED BY (a, a) " + with()),
        "partition key `a` is listed twice");
  }

  @Test
  void tableMustStoreAColumn() {
    assertContains(
        error("CREATE TABLE t (a INT) PARTITIONED BY (a) " + with()),
        "line 1, column 1: Table `t` is invalid",
        "declare at least one non-partition column");
  }

  @Test
  void unknownTypeListsSupported() {
    String message = error(table("a INT", "b TINYINT"));
    assertContains(
        message,
        "line 3, column 3: unsupported type TINYINT; supported types: STRING, VARCHAR(n), BOOLEAN",
        "DECIMAL(p, s)",
        "TIMESTAMP_LTZ(3)");
    assertContains(error(table("m MAP<STRING, INT>")), "line 2, column 3: unsupported type MAP");
    assertContains(error(table("b BYTES")), "unsupported type BYTES");
    assertContains(error(table("b 42")), "line 2, column 3: expected a column type but found '42'");
  }

  @Test
  void charIsRejected() {
    assertContains(
        error(table("c CHAR(3)")),
        "line 2, column 3: type CHAR is not supported",
        "use STRING or VARCHAR(n)");
  }

  @Test
  void timestampPrecisionAboveMillisecondsIsRejected() {
    assertContains(
        error(table("ts TIMESTAMP(6)")),
        "line 2, column 14: TIMESTAMP(6) is not supported: FileTables supports millisecond precision");
    assertContains(error(table("ts TIMESTAMP_LTZ(9)")), "TIMESTAMP_LTZ(9) is not supported");
    assertContains(
        error(table("ts TIMESTAMP(3) WITH TIME ZONE")),
        "line 2, column 17: TIMESTAMP WITH TIME ZONE is not supported");
    assertContains(error(table("ts TIMESTAMP(12)")), "a whole number from 0 to 9");
  }

  @Test
  void decimalBoundsAreChecked() {
    assertContains(
        error(table("d DECIMAL(39, 2)")), "line 2, column 11: expected DECIMAL precision");
    assertContains(error(table("d DECIMAL(0)")), "DECIMAL precision (a whole number from 1 to 38)");
    assertContains(
        error(table("d DECIMAL(5, 6)")),
        "line 2, column 14: DECIMAL scale 6 is larger than its precision 5");
  }

  @Test
  void likeAndAsSelectAreRejected() {
    assertContains(
        error("CREATE TABLE t (a INT) " + with() + "\nLIKE base (EXCLUDING ALL)"),
        "line 2, column 1: LIKE clauses are not supported");
    assertContains(
        error("CREATE TABLE t LIKE base"), "line 1, column 16: LIKE clauses are not supported");
    assertContains(
        error("CREATE TABLE t AS SELECT * FROM x"),
        "line 1, column 16: CREATE TABLE ... AS SELECT is not supported");
  }

  @Test
  void formatOptionErrorsPointAtTheKey() {
    String ddl =
        lines(
            "CREATE TABLE t (a INT)",
            "WITH (",
            "  'path' = '" + root + "',",
            "  'format' = 'csv',",
            "  'csv.field-delimitr' = ';'",
            ")");
    assertContains(
        error(ddl),
        "line 5, column 3: Unknown option 'csv.field-delimitr'. Did you mean"
            + " 'csv.field-delimiter'?");
  }

  @Test
  void optionErrorsPointAtTheKey() {
    String ddl =
        lines(
            "CREATE TABLE t (a INT)",
            "WITH (",
            "  'path' = '" + root + "',",
            "  'format' = 'csv',",
            "  'sink.rolling-policy.file-sise' = '1mb'",
            ")");
    assertEquals(
        "line 5, column 3: Unknown option 'sink.rolling-policy.file-sise'. Did you mean"
            + " 'sink.rolling-policy.file-size'?",
        error(ddl));
    String missing = error(lines("CREATE TABLE t (a INT)", "  WITH ('format' = 'csv')"));
    assertEquals(
        "line 2, column 3: Missing required option 'path': the table root directory, a plain path"
            + " or a file:///... URI",
        missing);
    String noWith = error("CREATE TABLE t (a INT)");
    assertContains(
        noWith, "line 1, column 1: Invalid table options (2 problems):", "format", "path");
    String several =
        error(
            lines(
                "CREATE TABLE t (a INT) WITH (",
                "  'path' = '" + root + "',",
                "  'format' = 'csv',",
                "  'sink.parallelism' = '0',",
                "  'auto-compaction' = 'yes')"));
    assertContains(
        several,
        "line 4, column 3: Invalid table options (2 problems):",
        "\n  line 4, column 3: Invalid value '0' for option 'sink.parallelism'",
        "\n  line 5, column 3: Invalid value 'yes' for option 'auto-compaction'");
  }

  @Test
  void optionSyntaxErrors() {
    assertContains(
        error("CREATE TABLE t (a INT) WITH ('path' = '/x', 'path' = '/y')"),
        "line 1, column 45: option 'path' is given twice (first at line 1)");
    assertContains(
        error("CREATE TABLE t (a INT) WITH ('sink.parallelism' = 4)"),
        "line 1, column 51: expected the value of option 'sink.parallelism' in single quotes but found '4'");
    assertContains(
        error("CREATE TABLE t (a INT) WITH (path = '/x')"),
        "line 1, column 30: expected an option key in single quotes");
    assertContains(
        error("CREATE TABLE t (a INT) WITH ('path' '/x')"),
        "line 1, column 37: expected '=' (in 'path' =) but found string '/x'");
  }

  @Test
  void metadataErrors() {
    assertContains(
        error(table("a INT", "`file.size` STRING METADATA")),
        "line 3, column 1: METADATA column `file.size` is declared STRING, but metadata key"
            + " 'file.size' is BIGINT NOT NULL; declare it as BIGINT");
    assertContains(
        error(table("a INT", "m TIMESTAMP(3) METADATA FROM 'file.modification-time'")),
        "line 3, column 1: METADATA column `m` is declared TIMESTAMP(3)",
        "declare it as TIMESTAMP_LTZ(3)");
    assertContains(
        error(table("a INT", "owner STRING METADATA FROM 'file.owner'")),
        "line 3, column 1: METADATA column `owner`: Unknown metadata key 'file.owner'; supported:"
            + " file.path, file.name, file.size, file.modification-time");
    assertContains(
        error(table("a INT", "path STRING METADATA FROM")),
        "line 4, column 1: expected the metadata key, e.g. 'file.path' in single quotes but found ')'");
  }

  @Test
  void watermarkErrors() {
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS other - INTERVAL '5' SECOND")),
        "line 3, column 21: unsupported watermark expression starting with 'other'",
        "WATERMARK FOR ts AS ts - INTERVAL 'n' UNIT");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts + INTERVAL '5' SECOND")),
        "line 3, column 24: unsupported watermark expression");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL 5 SECOND")),
        "line 3, column 35: expected the interval amount in quotes");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL '5' WEEK")),
        "line 3, column 39: unsupported interval unit 'WEEK'");
    assertContains(
        error(
            table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL '1:30' MINUTE TO SECOND")),
        "line 3, column 49: compound or precision intervals are not supported");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL 'soon' SECOND")),
        "line 3, column 35: interval amount string 'soon' is not a number");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE TO SECOND")),
        "line 3, column 46: compound or precision intervals are not supported");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL '0.0001' SECOND")),
        "not a whole number of milliseconds");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts - INTERVAL '-1' SECOND")),
        "is negative");
    assertContains(
        error(table("ts BIGINT", "WATERMARK FOR ts AS ts")),
        "line 3, column 1: watermark column `ts` is BIGINT; it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)");
    assertContains(
        error(table("a INT", "WATERMARK FOR ts AS ts")),
        "line 3, column 1: watermark column `ts` is not a column of the table");
    assertContains(
        error(table("ts TIMESTAMP(3)", "WATERMARK FOR ts AS ts", "WATERMARK FOR ts AS ts")),
        "line 4, column 1: a table has at most one WATERMARK");
  }

  @Test
  void lexicalErrors() {
    assertContains(
        error(lines("CREATE TABLE t (a INT) WITH (", "  'path' = '/x)")),
        "line 2, column 12: unterminated string: missing closing '");
    assertContains(
        error(lines("CREATE TABLE t (", "  `a INT)")),
        "line 2, column 3: unterminated back-quoted identifier");
    assertContains(
        error(lines("CREATE TABLE t (a INT)", "/* never closed")),
        "line 2, column 1: unterminated comment");
    assertContains(error("CREATE TABLE t (`` INT)"), "line 1, column 17: empty identifier");
    assertContains(
        error("CREATE TABLE t (\"a\" INT)"),
        "line 1, column 17: double quotes are not used in Flink SQL");
    assertContains(
        error("CREATE TABLE t (a INT) # x"), "line 1, column 24: unexpected character '#'");
  }

  @Test
  void structureErrors() {
    assertContains(
        error("CREATE VIEW v AS SELECT 1"),
        "line 1, column 8: expected TABLE after CREATE but found 'VIEW'; only CREATE TABLE is supported");
    assertContains(error("INSERT INTO t VALUES (1)"), "line 1, column 1: expected CREATE TABLE");
    assertContains(
        error(""), "line 1, column 1: expected CREATE TABLE but found the end of the statement");
    assertContains(
        error("CREATE TABLE t () " + with()), "line 1, column 17: the column list is empty");
    assertContains(
        error(table("a INT", "a STRING")),
        "line 3, column 1: column `a` is declared twice (first at line 2)");
    assertContains(
        error(table("a INT") + ";\nCREATE TABLE u (b INT)"),
        "line 4, column 1: unexpected 'CREATE'",
        "one CREATE TABLE statement per DDL");
    assertContains(
        error("CREATE TABLE t (a INT b INT) " + with()),
        "line 1, column 23: unexpected 'b' in the declaration of column `a`");
    assertContains(
        error("CREATE TABLE t (a INT) PARTITIONED (a) " + with()),
        "line 1, column 36: expected BY (in PARTITIONED BY) but found '('");
    assertContains(
        error("CREATE TABLE t (a INT) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS " + with()),
        "line 1, column 24: DISTRIBUTED BY is not supported");
    assertContains(
        error("CREATE TABLE t (a INT) FOO"),
        "line 1, column 24: unexpected 'FOO'; expected COMMENT, PARTITIONED BY, WITH, ';', the end");
    assertContains(
        error("CREATE TABLE IF EXISTS t (a INT)"),
        "line 1, column 17: expected NOT (in IF NOT EXISTS)");
    assertContains(error("CREATE TABLE t"), "line 1, column 15: expected '(' and the column list");
  }

  @Test
  void windowsLineEndingsCountOnce() {
    String message = error("CREATE TABLE t (\r\n  a INT,\r\n  b AS a)");
    assertTrue(message.startsWith("line 3, column 5: computed column"), message);
  }
}
