package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableOptionsTest {

  @TempDir Path tmp;
  private String root;

  @BeforeEach
  void setUp() {
    root = tmp.resolve("orders").toString();
  }

  private Map<String, String> base() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("connector", "filesystem");
    m.put("path", root);
    m.put("format", "csv");
    return m;
  }

  private TableOptions with(String key, String value) {
    Map<String, String> m = base();
    m.put(key, value);
    return TableOptions.of(m);
  }

  private String error(String key, String value) {
    return assertThrows(TableDefinitionException.class, () -> with(key, value)).getMessage();
  }

  private String error(Map<String, String> options) {
    return assertThrows(TableDefinitionException.class, () -> TableOptions.of(options))
        .getMessage();
  }

  private static void assertContains(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected <" + part + "> in: " + message);
    }
  }

  // ---- defaults and registry ----

  @Test
  void defaultsEqualTheSpecTable() {
    TableOptions o = TableOptions.of(base());
    assertEquals("__DEFAULT_PARTITION__", o.partitionDefaultName());
    assertEquals(Optional.empty(), o.sourceMonitorInterval());
    assertEquals(Optional.empty(), o.sourcePathRegexPattern());
    assertEquals(128L * 1024 * 1024, o.rollingFileSize());
    assertEquals(Duration.ofMinutes(30), o.rolloverInterval());
    assertEquals(Duration.ofMinutes(30), o.inactivityInterval());
    assertEquals(Duration.ofMinutes(1), o.checkInterval());
    assertFalse(o.shuffleByPartition());
    assertEquals(OptionalInt.empty(), o.sinkParallelism());
    assertFalse(o.autoCompaction());
    assertEquals(o.rollingFileSize(), o.compactionFileSize());
    assertEquals("default", o.timeExtractorKind());
    assertEquals(Optional.empty(), o.timeExtractorClass());
    assertEquals(Optional.empty(), o.timestampPattern());
    assertEquals(Optional.empty(), o.timestampFormatter());
    assertEquals("process-time", o.commitTrigger());
    assertEquals(Duration.ZERO, o.commitDelay());
    assertEquals(ZoneId.of("UTC"), o.watermarkTimeZone());
    assertEquals(List.of(), o.commitPolicyKinds());
    assertEquals(Optional.empty(), o.commitPolicyClass());
    assertEquals("_SUCCESS", o.successFileName());
    assertEquals("csv", o.format());
    assertEquals(root, o.path());
    assertEquals(Path.of(root), o.rootPath());
  }

  @Test
  void registryMatchesTheSpecTableInOrder() {
    List<String> expected =
        List.of(
            "connector|string|—",
            "path|string|required",
            "format|string|required",
            "partition.default-name|string|__DEFAULT_PARTITION__",
            "source.monitor-interval|duration|unset",
            "source.path.regex-pattern|string|unset",
            "source.bad-records|string|fail",
            "source.bad-records.dead-letter.path|string|unset",
            "sink.rolling-policy.file-size|size|128MB",
            "sink.rolling-policy.rollover-interval|duration|30 min",
            "sink.rolling-policy.inactivity-interval|duration|30 min",
            "sink.rolling-policy.check-interval|duration|1 min",
            "sink.shuffle-by-partition.enable|boolean|false",
            "sink.parallelism|int|unset",
            "auto-compaction|boolean|false",
            "compaction.file-size|size|= `sink.rolling-policy.file-size`",
            "partition.time-extractor.kind|string|default",
            "partition.time-extractor.class|string|unset",
            "partition.time-extractor.timestamp-pattern|string|unset",
            "partition.time-extractor.timestamp-formatter|string|unset",
            "sink.partition-commit.trigger|string|process-time",
            "sink.partition-commit.delay|duration|0 s",
            "sink.partition-commit.watermark-time-zone|string|UTC",
            "sink.partition-commit.policy.kind|string|unset",
            "sink.partition-commit.policy.class|string|unset",
            "sink.partition-commit.success-file.name|string|_SUCCESS",
            // FileTables-only keys follow Flink's
            "sink.partition-commit.success-file.manifest|boolean|false",
            "sink.partition-derive.time-column|string|unset",
            "compaction.max-delay|duration|= `sink.rolling-policy.rollover-interval`",
            "source.monitor.lateness|duration|10 min",
            "source.idle-timeout|duration|1 min",
            "source.monitor.skip-committed-partitions|boolean|false",
            "sink.parquet.merge|string|rewrite");
    List<String> actual =
        TableOptions.knownOptions().stream()
            .map(k -> k.key() + "|" + k.type().displayName() + "|" + k.defaultText())
            .collect(Collectors.toList());
    assertEquals(expected, actual);
    for (TableOption<?> key : FileSystemOptions.all()) {
      assertFalse(key.description().isBlank(), key.key());
      assertFalse(key.description().contains("\n"), key.key());
      assertEquals(Optional.of(key), FileSystemOptions.forKey(key.key()));
    }
    assertTrue(FileSystemOptions.PATH.required());
    assertTrue(FileSystemOptions.FORMAT.required());
    assertFalse(FileSystemOptions.CONNECTOR.required());
    assertEquals(Optional.empty(), FileSystemOptions.forKey("nope"));
  }

  @Test
  void markdownTableListsEveryOption() {
    String table = OptionsTable.markdown();
    String[] rows = table.split("\n");
    assertEquals("| key | type | default | meaning |", rows[0]);
    assertEquals(FileSystemOptions.all().size() + 2, rows.length);
    assertEquals(
        "| `sink.rolling-policy.file-size` | size | `128MB` | roll a part file once it exceeds this size |",
        rows[2 + FileSystemOptions.all().indexOf(FileSystemOptions.ROLLING_FILE_SIZE)]);
    assertEquals(
        "| `path` | string | required | table root directory: a local path or `file:///…` URI,"
            + " `hdfs://host:port/…` or `s3://bucket/…`; never a file |",
        rows[2 + FileSystemOptions.all().indexOf(FileSystemOptions.PATH)]);
  }

  @Test
  void controlCharactersAreShownEscaped() {
    assertContains(
        error("partition.default-name", "a\u0001b"), "'a\\u0001b'", "contains '\\u0001'");
    assertContains(
        error("csv.field-delimiter", "\u0001\u0002"),
        "Invalid value '\\u0001\\u0002' for option 'csv.field-delimiter'");
  }

  @Test
  void everyKeyConstantIsRegisteredAndDefaultsParse() throws Exception {
    List<String> constants = new ArrayList<>();
    for (Field f : TableOptions.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        constants.add((String) f.get(null));
      }
    }
    List<String> registered =
        TableOptions.knownOptions().stream().map(TableOption::key).collect(Collectors.toList());
    assertEquals(registered.size(), constants.size());
    assertTrue(registered.containsAll(constants));
    // every default is itself a valid value
    for (TableOption<?> key : FileSystemOptions.all()) {
      key.defaultValueText().ifPresent(v -> with(key.key(), v));
    }
  }

  // ---- keys ----

  @Test
  void unknownKeySuggestsClosest() {
    assertEquals(
        "Unknown option 'sink.rolling-policy.file-sise'. Did you mean 'sink.rolling-policy.file-size'?",
        error("sink.rolling-policy.file-sise", "1mb"));
    assertContains(error("PATH", "x"), "Unknown option 'PATH'", "Did you mean 'path'?");
    assertContains(
        error("sink.partition-commit.policy.kinds", "success-file"),
        "Did you mean 'sink.partition-commit.policy.kind'?");
  }

  @Test
  void unknownKeyWithoutCloseMatchListsSupported() {
    String message = error("totally.unrelated", "1");
    assertContains(
        message,
        "Unknown option 'totally.unrelated'",
        "Supported options: connector, path, format",
        "sink.partition-commit.success-file.name",
        "'csv.*' options of the table's format");
    assertFalse(message.contains("Did you mean"));
  }

  @Test
  void formatKeysAcceptedForOwnFormatOnly() {
    TableOptions o = with("csv.field-delimiter", ";");
    assertEquals(Map.of("field-delimiter", ";"), o.formatOptions());
    Map<String, String> m = base();
    m.put("format", "json");
    m.put("csv.field-delimiter", ";");
    assertContains(
        error(m),
        "Option 'csv.field-delimiter' belongs to format 'csv'",
        "the table's format is 'json'");
    Map<String, String> misspelt = base();
    misspelt.put("cvs.field-delimiter", ";");
    assertContains(error(misspelt), "Did you mean 'csv.field-delimiter'?");
  }

  @Test
  void formatOptionsAreCheckedWhenTheTableIsDefined() {
    assertEquals(
        "Unknown option 'csv.field-delimitr'. Did you mean 'csv.field-delimiter'? Supported csv"
            + " options: csv.allow-comments, csv.array-element-delimiter, csv.charset,"
            + " csv.disable-quote-character, csv.escape-character, csv.field-delimiter,"
            + " csv.ignore-parse-errors, csv.null-literal, csv.quote-character,"
            + " csv.write-bigdecimal-in-scientific-notation",
        error("csv.field-delimitr", ","));
    assertContains(
        error("csv.field-delimiter", ";;"), "'csv.field-delimiter'", "a single character");
    Map<String, String> parquet = base();
    parquet.put("format", "parquet");
    parquet.put("parquet.compression", "LZO");
    assertContains(error(parquet), "'parquet.compression'", "SNAPPY");
    parquet.put("parquet.compression", "gzip");
    assertEquals("gzip", TableOptions.of(parquet).formatOptions().get("compression"));
    Map<String, String> orc = base();
    orc.put("format", "orc");
    orc.put("orc.compress", "BROTLI");
    assertContains(
        error(orc), "'orc.compress'", "BROTLI", "one of NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD");
    orc.put("orc.compress", "zstd");
    assertEquals("zstd", TableOptions.of(orc).formatOptions().get("compress"));
  }

  @Test
  void formatOptionProblemsPointAtTheKeyTheyAreAbout() {
    Map<String, String> m = base();
    m.put("csv.field-delimiter", ";");
    m.put("csv.field-delimitr", ","); // the message also names csv.field-delimiter, as a suggestion
    m.put("sink.parallelism", "0");
    List<OptionProblem> problems = TableOptions.problems(m);
    assertEquals(
        List.of("csv.field-delimitr", "sink.parallelism"),
        problems.stream().map(OptionProblem::key).sorted().collect(Collectors.toList()));
    assertContains(
        error(m), "Invalid table options (2 problems)", "Did you mean 'csv.field-delimiter'?");
    Map<String, String> conflict = base();
    conflict.put("csv.disable-quote-character", "true");
    conflict.put("csv.quote-character", "'");
    assertEquals(
        List.of("csv.quote-character"),
        TableOptions.problems(conflict).stream()
            .map(OptionProblem::key)
            .collect(Collectors.toList()));
  }

  @Test
  void laterFeatureKeysAreKnown() {
    Map<String, String> m = base();
    m.put("auto-compaction", "true");
    m.put("compaction.file-size", "64mb");
    m.put("sink.partition-commit.trigger", "partition-time");
    m.put("sink.partition-commit.delay", "1 h");
    m.put("sink.partition-commit.policy.kind", "success-file");
    m.put("partition.time-extractor.timestamp-pattern", "$dt $hour:00:00");
    m.put("partition.time-extractor.timestamp-formatter", "yyyyMMdd HH:mm:ss");
    m.put("source.monitor-interval", "10 s");
    m.put("source.path.regex-pattern", ".*\\.csv");
    TableOptions o = TableOptions.of(m);
    assertTrue(o.autoCompaction());
    assertEquals(64L << 20, o.compactionFileSize());
    assertEquals("partition-time", o.commitTrigger());
    assertEquals(Duration.ofHours(1), o.commitDelay());
    assertEquals(List.of("success-file"), o.commitPolicyKinds());
    assertEquals(Optional.of("$dt $hour:00:00"), o.timestampPattern());
    assertEquals(Optional.of("yyyyMMdd HH:mm:ss"), o.timestampFormatter());
    assertEquals(Optional.of(Duration.ofSeconds(10)), o.sourceMonitorInterval());
    assertEquals(Optional.of(".*\\.csv"), o.sourcePathRegexPattern());
  }

  // ---- connector, format, path ----

  @Test
  void connectorMustBeFilesystem() {
    assertContains(
        error("connector", "kafka"),
        "'kafka'",
        "'connector'",
        "other connectors are not supported by FileTables");
    Map<String, String> kafka = new LinkedHashMap<>();
    kafka.put("connector", "kafka");
    kafka.put("topic", "orders");
    // only the connector is reported: the other keys are meant for another connector
    assertEquals(
        "Unsupported connector 'kafka' (option 'connector'): FileTables implements only"
            + " 'connector' = 'filesystem'; other connectors are not supported by FileTables",
        error(kafka));
    Map<String, String> noConnector = base();
    noConnector.remove("connector");
    TableOptions.of(noConnector);
  }

  @Test
  void formatRequiredAndSupported() {
    Map<String, String> m = base();
    m.remove("format");
    assertContains(error(m), "Missing required option 'format'", "csv, json, avro, parquet, orc");
    assertContains(
        error("format", "sequencefile"),
        "Unsupported format 'sequencefile'",
        "csv, json, avro, parquet, orc");
    assertContains(error("format", "Parquet"), "write it as 'parquet'");
    for (String format : List.of("csv", "json", "avro", "parquet", "orc")) {
      assertEquals(format, with("format", format).format());
    }
  }

  @Test
  void pathRequiredAndNotBlank() {
    Map<String, String> m = base();
    m.remove("path");
    assertContains(error(m), "Missing required option 'path'");
    assertContains(error("path", "  "), "Option 'path' is blank");
    assertContains(error("path", " " + root), "leading or trailing whitespace");
  }

  @Test
  void pathMustNotBeAFile() throws Exception {
    Path file = Files.createFile(tmp.resolve("data.csv"));
    assertEquals(
        "path '" + file + "' is a file; a table path is a directory",
        error("path", file.toString()));
    assertContains(
        error("path", file.toUri().toString()), "is a file; a table path is a directory");
  }

  @Test
  void pathAcceptsPlainPathsAndFileUris() throws Exception {
    Files.createDirectories(tmp.resolve("existing dir"));
    assertEquals(
        tmp.resolve("existing dir"),
        with("path", tmp.resolve("existing dir").toString()).rootPath());
    assertEquals(
        tmp.resolve("existing dir"),
        with("path", tmp.resolve("existing dir").toUri().toString()).rootPath());
    assertEquals(Path.of(root), with("path", "file://" + root).rootPath());
    assertEquals(Path.of(root), with("path", "file:" + root).rootPath());
    assertEquals(Path.of("rel/orders"), with("path", "rel/orders").rootPath());
  }

  @Test
  void pathTakesS3AndHdfsLocations() {
    assertEquals("s3://bucket/orders", with("path", "s3://bucket/orders").rootPath().toString());
    assertEquals("s3://bucket/orders", with("path", "s3://bucket//orders/").rootPath().toString());
    assertEquals(
        "hdfs://nn:8020/warehouse/orders",
        with("path", "hdfs://nn:8020/warehouse/orders").rootPath().toString());
  }

  @Test
  void pathRejectsOtherFileSystemsAndBadUris() {
    assertContains(error("path", "gs://bucket/orders"), "'gs' file system", "s3://", "hdfs://");
    assertContains(error("path", "s3a://bucket/orders"), "write s3:// for S3");
    assertContains(error("path", "s3:///orders"), "names no bucket");
    assertContains(error("path", "hdfs:///orders"), "names no NameNode");
    assertContains(error("path", "file:relative/orders"), "must be absolute");
    assertContains(error("path", "file://otherhost/data"), "host 'otherhost'", "file:///");
    assertContains(error("path", "file:///data/my orders"), "not a valid file: URI", "%20");
  }

  @Test
  void pathRejectsPartitionLikeSegments() {
    String message = error("path", tmp.resolve("dt=2024-01-01").resolve("orders").toString());
    assertContains(message, "'dt=2024-01-01'", "partition directory", "DuckDB", "Spark");
    assertContains(error("path", tmp.resolve("a=b").toUri().toString()), "'a=b'");
    assertContains(error("path", "rel/k=v"), "'k=v'");
  }

  // ---- values ----

  @Test
  void durationsParseAndRollingIntervalsArePositive() {
    assertEquals(
        Duration.ofSeconds(10),
        with("sink.rolling-policy.rollover-interval", "10s").rolloverInterval());
    assertEquals(
        Duration.ofMinutes(2),
        with("sink.rolling-policy.inactivity-interval", "2 min").inactivityInterval());
    assertEquals(
        Duration.ofMillis(500), with("sink.rolling-policy.check-interval", "500").checkInterval());
    for (String key :
        List.of(
            "sink.rolling-policy.rollover-interval",
            "sink.rolling-policy.inactivity-interval",
            "sink.rolling-policy.check-interval")) {
      assertContains(error(key, "0 s"), "'0 s'", key, "greater than 0");
      assertContains(error(key, "soon"), "'soon'", key, "'10 s'");
    }
    assertContains(
        error("sink.partition-commit.delay", "-1 s"), "'-1 s'", "sink.partition-commit.delay");
    assertEquals(Duration.ZERO, with("sink.partition-commit.delay", "0").commitDelay());
    assertContains(error("source.monitor-interval", "often"), "source.monitor-interval");
  }

  @Test
  void monitorIntervalZeroMeansScanOnce() {
    assertEquals(Optional.empty(), with("source.monitor-interval", "0").sourceMonitorInterval());
    assertEquals(Optional.empty(), with("source.monitor-interval", "0 s").sourceMonitorInterval());
  }

  @Test
  void sizesParseAndArePositive() {
    assertEquals(1024, with("sink.rolling-policy.file-size", "1 kb").rollingFileSize());
    assertEquals(64L << 20, with("sink.rolling-policy.file-size", "64m").compactionFileSize());
    assertEquals(
        java.time.Duration.ofSeconds(20),
        with("sink.rolling-policy.rollover-interval", "20 s").compactionMaxDelay());
    assertEquals(
        java.time.Duration.ofMinutes(5),
        with("compaction.max-delay", "5 min").compactionMaxDelay());
    assertContains(error("compaction.max-delay", "soon"), "'soon'", "compaction.max-delay");
    for (String key : List.of("sink.rolling-policy.file-size", "compaction.file-size")) {
      assertContains(error(key, "0"), "'0'", key, "greater than 0");
      assertContains(error(key, "big"), "'big'", key, "'128MB'");
      assertContains(error(key, "-5mb"), "'-5mb'", key);
    }
  }

  @Test
  void booleansAreTrueOrFalse() {
    assertTrue(with("sink.shuffle-by-partition.enable", "TRUE").shuffleByPartition());
    assertTrue(with("sink.shuffle-by-partition.enable", "True").shuffleByPartition());
    assertFalse(with("auto-compaction", "False").autoCompaction());
    assertContains(error("auto-compaction", "yes"), "'yes'", "auto-compaction", "true or false");
    assertContains(error("sink.shuffle-by-partition.enable", "1"), "true or false");
  }

  @Test
  void parallelismIsAtLeastOne() {
    assertEquals(OptionalInt.of(4), with("sink.parallelism", "4").sinkParallelism());
    assertContains(error("sink.parallelism", "0"), "'0'", "sink.parallelism", ">= 1");
    assertContains(error("sink.parallelism", "-2"), ">= 1");
    assertContains(error("sink.parallelism", "four"), "'four'", "whole number");
    assertContains(error("sink.parallelism", "99999999999"), "whole number");
  }

  @Test
  void regexMustCompile() {
    assertContains(
        error("source.path.regex-pattern", "[a-"),
        "'[a-'",
        "source.path.regex-pattern",
        "regular expression");
  }

  @Test
  void timeExtractorKind() {
    assertContains(
        error("partition.time-extractor.kind", "magic"),
        "'magic'",
        "expected one of default, custom");
    assertContains(
        error("partition.time-extractor.kind", "custom"),
        "requires option 'partition.time-extractor.class'");
    Map<String, String> m = base();
    m.put("partition.time-extractor.kind", "CUSTOM");
    m.put("partition.time-extractor.class", "com.example.MyExtractor");
    TableOptions o = TableOptions.of(m);
    assertEquals("custom", o.timeExtractorKind());
    assertEquals(Optional.of("com.example.MyExtractor"), o.timeExtractorClass());
    assertContains(
        error("partition.time-extractor.timestamp-formatter", "yyyy-MM-dd {"), "java.time pattern");
  }

  @Test
  void commitTrigger() {
    assertEquals(
        "partition-time", with("sink.partition-commit.trigger", "Partition-Time").commitTrigger());
    assertContains(
        error("sink.partition-commit.trigger", "event-time"),
        "'event-time'",
        "process-time, partition-time");
  }

  @Test
  void parquetMerge() {
    assertEquals("rewrite", with("format", "parquet").parquetMerge());
    assertEquals("row-group-copy", with("sink.parquet.merge", "Row-Group-Copy").parquetMerge());
    assertContains(
        error("sink.parquet.merge", "concat"),
        "'concat'",
        "expected one of rewrite, row-group-copy");
  }

  @Test
  void watermarkTimeZoneIsARealZone() {
    assertEquals(
        ZoneId.of("UTC"),
        with("sink.partition-commit.watermark-time-zone", "UTC").watermarkTimeZone());
    assertEquals(
        ZoneId.of("Asia/Shanghai"),
        with("sink.partition-commit.watermark-time-zone", "Asia/Shanghai").watermarkTimeZone());
    assertEquals(
        ZoneId.of("GMT+08:00"),
        with("sink.partition-commit.watermark-time-zone", "GMT+08:00").watermarkTimeZone());
    assertContains(
        error("sink.partition-commit.watermark-time-zone", "Mars/Olympus"),
        "'Mars/Olympus'",
        "Asia/Shanghai",
        "GMT+08:00");
    assertContains(error("sink.partition-commit.watermark-time-zone", "PST"), "'PST'");
  }

  @Test
  void commitPolicies() {
    Map<String, String> m = base();
    m.put("sink.partition-commit.policy.kind", " success-file , Custom ");
    m.put("sink.partition-commit.policy.class", "com.example.Policy");
    TableOptions o = TableOptions.of(m);
    assertEquals(List.of("success-file", "custom"), o.commitPolicyKinds());
    assertEquals(Optional.of("com.example.Policy"), o.commitPolicyClass());

    assertContains(
        error("sink.partition-commit.policy.kind", "metastore,success-file"),
        "metastore is for Hive tables; FileTables supports success-file and custom");
    assertContains(
        error("sink.partition-commit.policy.kind", "success-file,custom"),
        "requires option 'sink.partition-commit.policy.class'");
    assertContains(
        error("sink.partition-commit.policy.kind", "success-file, email"),
        "unknown policy 'email'");
    assertContains(error("sink.partition-commit.policy.kind", " , "), "comma list");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "a/b", "x=y", "50%", "a:b", "what?", "#1", "{x}", "tab\tname", "a\\b", "q'"})
  void partitionDefaultNameMustSurviveEscapingUnchanged(String name) {
    assertContains(error("partition.default-name", name), "partition.default-name");
  }

  @Test
  void partitionDefaultNameAcceptsPlainNames() {
    assertEquals("NONE", with("partition.default-name", "NONE").partitionDefaultName());
    assertEquals("no value", with("partition.default-name", "no value").partitionDefaultName());
    assertEquals("ünknown", with("partition.default-name", "ünknown").partitionDefaultName());
    assertContains(error("partition.default-name", ""), "must not be empty");
    assertContains(error("partition.default-name", "a/b"), "contains '/'");
  }

  @Test
  void successFileName() {
    assertEquals(
        ".done", with("sink.partition-commit.success-file.name", ".done").successFileName());
    assertContains(
        error("sink.partition-commit.success-file.name", "DONE"), "start with '_' or '.'");
    assertContains(error("sink.partition-commit.success-file.name", "_a/b"), "without '/'");
    assertContains(error("sink.partition-commit.success-file.name", ""), "non-empty");
  }

  @Test
  void nullKeysAndValuesAreRejected() {
    Map<String, String> m = base();
    m.put("sink.parallelism", null);
    assertContains(error(m), "'sink.parallelism' has no value");
    assertThrows(TableDefinitionException.class, () -> TableOptions.of((Map<String, String>) null));
  }

  @Test
  void allProblemsAreReportedTogether() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("format", "sequencefile");
    m.put("sink.parallelism", "0");
    m.put("auto-compaction", "maybe");
    String message = error(m);
    assertContains(
        message,
        "Invalid table options (4 problems):\n  - ",
        "auto-compaction",
        "Unsupported format 'sequencefile'",
        "Missing required option 'path'",
        "sink.parallelism");
  }

  // ---- convenience API ----

  @Test
  void varargsBuilderWithAndWithout() {
    TableOptions a = TableOptions.of("path", root, "format", "parquet");
    TableOptions b = TableOptions.builder().path(root).format("parquet").build();
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(Map.of("path", root, "format", "parquet"), a.asMap());
    assertThrows(UnsupportedOperationException.class, () -> a.asMap().put("x", "y"));
    TableOptions c = a.with("sink.parallelism", "2");
    assertEquals(OptionalInt.of(2), c.sinkParallelism());
    assertEquals(a, c.without("sink.parallelism"));
    assertThrows(TableDefinitionException.class, () -> a.with("sink.parallelism", "x"));
    assertThrows(TableDefinitionException.class, () -> a.without("path"));
    assertContains(
        assertThrows(TableDefinitionException.class, () -> TableOptions.of("path", root, "format"))
            .getMessage(),
        "odd number");
    assertContains(
        assertThrows(
                TableDefinitionException.class,
                () -> TableOptions.of("path", root, "path", root, "format", "csv"))
            .getMessage(),
        "given twice");
    TableOptions d =
        TableOptions.builder()
            .connector("filesystem")
            .path(tmp.resolve("x/../orders"))
            .format("json")
            .set("sink.rolling-policy.file-size", "1mb")
            .setAll(Map.of("sink.parallelism", "3"))
            .build();
    assertEquals(root, d.path());
    assertEquals(1 << 20, d.rollingFileSize());
    assertEquals(OptionalInt.of(3), d.sinkParallelism());
  }

  @Test
  void serializableRoundTrip() throws Exception {
    TableOptions o = with("sink.rolling-policy.file-size", "1mb");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(o, in.readObject());
    }
  }
}
