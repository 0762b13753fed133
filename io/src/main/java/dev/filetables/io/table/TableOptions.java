package dev.filetables.io.table;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The {@code WITH (...)} options of a file table: Flink filesystem connector keys, Flink defaults,
 * typed getters. {@link #of(Map)} validates everything up front (unknown keys, bad values, missing
 * required keys) and throws a {@link TableDefinitionException} naming key, value and what is
 * allowed.
 *
 * <p>Rules worth knowing: keys are case-sensitive (as in Flink); enumerated, numeric, boolean,
 * duration, size and time-zone values are trimmed and case-insensitive, getters return them
 * normalised (lower case); free-form strings (path, names, classes, patterns) are taken exactly as
 * given. Options for later features (compaction, commit, time extraction, monitoring) are accepted
 * and checked here. Keys {@code <format>.*} are accepted for the table's own format only and
 * checked here by that format (through {@link FormatCatalog}), so a bad {@code csv.field-delimiter}
 * fails when the table is defined. {@link OptionKey} lists every known key with its type, default
 * and description.
 */
public final class TableOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String CONNECTOR = "connector";
  public static final String PATH = "path";
  public static final String FORMAT = "format";
  public static final String PARTITION_DEFAULT_NAME = "partition.default-name";
  public static final String SOURCE_MONITOR_INTERVAL = "source.monitor-interval";
  public static final String SOURCE_PATH_REGEX_PATTERN = "source.path.regex-pattern";
  public static final String SOURCE_BAD_RECORDS = "source.bad-records";
  public static final String SOURCE_BAD_RECORDS_DEAD_LETTER_PATH =
      "source.bad-records.dead-letter.path";
  public static final String SOURCE_MONITOR_LATENESS = "source.monitor.lateness";
  public static final String SOURCE_IDLE_TIMEOUT = "source.idle-timeout";
  public static final String SOURCE_MONITOR_SKIP_COMMITTED =
      "source.monitor.skip-committed-partitions";
  public static final String ROLLING_FILE_SIZE = "sink.rolling-policy.file-size";
  public static final String ROLLING_ROLLOVER_INTERVAL = "sink.rolling-policy.rollover-interval";
  public static final String ROLLING_INACTIVITY_INTERVAL =
      "sink.rolling-policy.inactivity-interval";
  public static final String ROLLING_CHECK_INTERVAL = "sink.rolling-policy.check-interval";
  public static final String SHUFFLE_BY_PARTITION = "sink.shuffle-by-partition.enable";
  public static final String SINK_PARQUET_MERGE = "sink.parquet.merge";
  public static final String SINK_PARALLELISM = "sink.parallelism";
  public static final String AUTO_COMPACTION = "auto-compaction";
  public static final String COMPACTION_FILE_SIZE = "compaction.file-size";
  public static final String COMPACTION_MAX_DELAY = "compaction.max-delay";
  public static final String TIME_EXTRACTOR_KIND = "partition.time-extractor.kind";
  public static final String TIME_EXTRACTOR_CLASS = "partition.time-extractor.class";
  public static final String TIME_EXTRACTOR_PATTERN = "partition.time-extractor.timestamp-pattern";
  public static final String TIME_EXTRACTOR_FORMATTER =
      "partition.time-extractor.timestamp-formatter";
  public static final String PARTITION_DERIVE_TIME_COLUMN = "sink.partition-derive.time-column";
  public static final String COMMIT_TRIGGER = "sink.partition-commit.trigger";
  public static final String COMMIT_DELAY = "sink.partition-commit.delay";
  public static final String COMMIT_WATERMARK_TIME_ZONE =
      "sink.partition-commit.watermark-time-zone";
  public static final String COMMIT_POLICY_KIND = "sink.partition-commit.policy.kind";
  public static final String COMMIT_POLICY_CLASS = "sink.partition-commit.policy.class";
  public static final String COMMIT_SUCCESS_FILE_NAME = "sink.partition-commit.success-file.name";
  public static final String COMMIT_SUCCESS_FILE_MANIFEST =
      "sink.partition-commit.success-file.manifest";

  private final LinkedHashMap<String, String> raw;

  private TableOptions(Map<String, String> raw) {
    this.raw = new LinkedHashMap<>(raw);
  }

  /** Validates and wraps the options; throws {@link TableDefinitionException} on any problem. */
  public static TableOptions of(Map<String, String> options) {
    if (options == null) {
      throw new TableDefinitionException(
          "Table options are null; 'path' and 'format' are required");
    }
    List<OptionProblem> problems = problems(options);
    if (!problems.isEmpty()) {
      throw exception(problems);
    }
    return new TableOptions(options);
  }

  /**
   * Convenience for Java callers: {@code TableOptions.of("path", "/data/t", "format", "parquet")}.
   * Arguments alternate key and value, in order; validated like {@link #of(Map)}.
   */
  public static TableOptions of(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new TableDefinitionException(
          "TableOptions.of(String...) needs key/value pairs; got an odd number of arguments: "
              + Arrays.toString(keysAndValues));
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (map.put(keysAndValues[i], keysAndValues[i + 1]) != null) {
        throw new TableDefinitionException(
            "Option '" + keysAndValues[i] + "' is given twice in TableOptions.of(String...)");
      }
    }
    return of(map);
  }

  /** A builder for Java callers; {@link Builder#build()} validates like {@link #of(Map)}. */
  public static Builder builder() {
    return new Builder();
  }

  /** The known option keys in documentation order, with type, default and description. */
  public static List<OptionKey> knownOptions() {
    return List.of(OptionKey.values());
  }

  /** Every problem with these options (empty when valid); used to point at DDL positions. */
  static List<OptionProblem> problems(Map<String, String> options) {
    return TableOptionsValidator.validate(options);
  }

  /** One exception for one or more problems: a single message, or one problem per line. */
  static TableDefinitionException exception(List<OptionProblem> problems) {
    if (problems.size() == 1) {
      return new TableDefinitionException(problems.get(0).message());
    }
    return new TableDefinitionException(
        "Invalid table options ("
            + problems.size()
            + " problems):"
            + problems.stream().map(p -> "\n  - " + p.message()).collect(Collectors.joining()));
  }

  /** The options exactly as given. */
  public Map<String, String> asMap() {
    return Collections.unmodifiableMap(raw);
  }

  /** Options of the table's format with the {@code <format>.} prefix removed. */
  public Map<String, String> formatOptions() {
    return formatOptions(raw, format());
  }

  /** The {@code <format>.*} entries of {@code options}, prefix removed, in their order. */
  static Map<String, String> formatOptions(Map<String, String> options, String format) {
    String prefix = format + ".";
    Map<String, String> result = new LinkedHashMap<>();
    options.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            result.put(k.substring(prefix.length()), v);
          }
        });
    return result;
  }

  /** The {@code path} option exactly as given. */
  public String path() {
    return raw.get(PATH);
  }

  /**
   * The table root as a local path ({@code file:///x} URIs and plain paths; a relative plain path
   * is relative to the working directory of the process that uses it).
   */
  public Path rootPath() {
    return TableOptionsValidator.localPath(path());
  }

  public String format() {
    return raw.get(FORMAT);
  }

  public String partitionDefaultName() {
    return value(OptionKey.PARTITION_DEFAULT_NAME);
  }

  /** The monitor interval; empty when unset or 0 (scan once). */
  public Optional<Duration> sourceMonitorInterval() {
    return Optional.ofNullable(raw.get(SOURCE_MONITOR_INTERVAL))
        .map(Durations::parse)
        .filter(d -> !d.isZero());
  }

  public Optional<String> sourcePathRegexPattern() {
    return Optional.ofNullable(raw.get(SOURCE_PATH_REGEX_PATTERN));
  }

  /**
   * What a read does with a bad record: {@code source.bad-records}; when unset, {@code skip} if the
   * format's {@code ignore-parse-errors} is true (Flink's way to say it), else {@code fail}.
   */
  public BadRecordPolicy badRecordPolicy() {
    String v = raw.get(SOURCE_BAD_RECORDS);
    if (v != null) {
      return BadRecordPolicy.parse(v).orElseThrow();
    }
    return formatIgnoresParseErrors(raw, format()) ? BadRecordPolicy.SKIP : BadRecordPolicy.FAIL;
  }

  /** The dead-letter table root ({@code source.bad-records.dead-letter.path}), when set. */
  public Optional<Path> deadLetterPath() {
    return Optional.ofNullable(raw.get(SOURCE_BAD_RECORDS_DEAD_LETTER_PATH))
        .map(TableOptionsValidator::localPath);
  }

  static boolean formatIgnoresParseErrors(Map<String, String> options, String format) {
    String v = options.get(format + "." + BadRecordPolicy.IGNORE_PARSE_ERRORS);
    return v != null && v.trim().equalsIgnoreCase("true");
  }

  /** {@code source.monitor.lateness}: the watched source's window of files kept in its state. */
  public Duration sourceMonitorLateness() {
    return Durations.parse(value(OptionKey.SOURCE_MONITOR_LATENESS));
  }

  /** {@code source.idle-timeout}; zero: never idle. */
  public Duration sourceIdleTimeout() {
    return Durations.parse(value(OptionKey.SOURCE_IDLE_TIMEOUT));
  }

  public boolean sourceMonitorSkipCommitted() {
    return Boolean.parseBoolean(value(OptionKey.SOURCE_MONITOR_SKIP_COMMITTED));
  }

  /** {@code sink.rolling-policy.file-size} in bytes. */
  public long rollingFileSize() {
    return MemorySizes.parse(value(OptionKey.ROLLING_FILE_SIZE));
  }

  public Duration rolloverInterval() {
    return Durations.parse(value(OptionKey.ROLLING_ROLLOVER_INTERVAL));
  }

  public Duration inactivityInterval() {
    return Durations.parse(value(OptionKey.ROLLING_INACTIVITY_INTERVAL));
  }

  public Duration checkInterval() {
    return Durations.parse(value(OptionKey.ROLLING_CHECK_INTERVAL));
  }

  public boolean shuffleByPartition() {
    return Boolean.parseBoolean(value(OptionKey.SHUFFLE_BY_PARTITION).trim());
  }

  public OptionalInt sinkParallelism() {
    String v = raw.get(SINK_PARALLELISM);
    return v == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v.trim()));
  }

  public boolean autoCompaction() {
    return Boolean.parseBoolean(value(OptionKey.AUTO_COMPACTION).trim());
  }

  /** {@code compaction.file-size} in bytes; the rolling file size when unset. */
  public long compactionFileSize() {
    String v = raw.get(COMPACTION_FILE_SIZE);
    return v == null ? rollingFileSize() : MemorySizes.parse(v);
  }

  /**
   * {@code compaction.max-delay}: how long closed files of a partition may wait for more files
   * before they are compacted and published; the rollover interval when unset.
   */
  public Duration compactionMaxDelay() {
    String v = raw.get(COMPACTION_MAX_DELAY);
    return v == null ? rolloverInterval() : Durations.parse(v);
  }

  /** {@code default} or {@code custom} (lower case). */
  public String timeExtractorKind() {
    return value(OptionKey.TIME_EXTRACTOR_KIND).trim().toLowerCase(Locale.ROOT);
  }

  public Optional<String> timeExtractorClass() {
    return Optional.ofNullable(raw.get(TIME_EXTRACTOR_CLASS));
  }

  public Optional<String> timestampPattern() {
    return Optional.ofNullable(raw.get(TIME_EXTRACTOR_PATTERN));
  }

  public Optional<String> timestampFormatter() {
    return Optional.ofNullable(raw.get(TIME_EXTRACTOR_FORMATTER));
  }

  /**
   * The event-time column partition values are derived from ({@code
   * sink.partition-derive.time-column}, exactly as given); empty when partition values come from
   * the rows' partition columns.
   */
  public Optional<String> partitionDeriveTimeColumn() {
    return Optional.ofNullable(raw.get(PARTITION_DERIVE_TIME_COLUMN));
  }

  /** {@code rewrite} or {@code row-group-copy} (lower case): see {@link #SINK_PARQUET_MERGE}. */
  public String parquetMerge() {
    return value(OptionKey.SINK_PARQUET_MERGE).trim().toLowerCase(Locale.ROOT);
  }

  /** {@code process-time} or {@code partition-time} (lower case). */
  public String commitTrigger() {
    return value(OptionKey.COMMIT_TRIGGER).trim().toLowerCase(Locale.ROOT);
  }

  public Duration commitDelay() {
    return Durations.parse(value(OptionKey.COMMIT_DELAY));
  }

  public ZoneId watermarkTimeZone() {
    return ZoneId.of(value(OptionKey.COMMIT_WATERMARK_TIME_ZONE).trim());
  }

  /** Commit policies in the listed order, trimmed and lower case; empty when unset. */
  public List<String> commitPolicyKinds() {
    String v = raw.get(COMMIT_POLICY_KIND);
    return v == null ? List.of() : splitList(v);
  }

  public Optional<String> commitPolicyClass() {
    return Optional.ofNullable(raw.get(COMMIT_POLICY_CLASS));
  }

  public String successFileName() {
    return value(OptionKey.COMMIT_SUCCESS_FILE_NAME);
  }

  /**
   * True if the success file carries a JSON manifest of the partition (default false: empty file).
   */
  public boolean successFileManifest() {
    return Boolean.parseBoolean(value(OptionKey.COMMIT_SUCCESS_FILE_MANIFEST).trim());
  }

  private String value(OptionKey option) {
    String v = raw.get(option.key());
    return v != null ? v : option.defaultValue().orElse(null);
  }

  /** A comma list, entries trimmed and lower-cased, empty entries dropped. */
  static List<String> splitList(String value) {
    return Arrays.stream(value.split(","))
        .map(s -> s.trim().toLowerCase(Locale.ROOT))
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toList());
  }

  /** A copy with one option changed (validated again). */
  public TableOptions with(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(raw);
    copy.put(key, value);
    return of(copy);
  }

  /** A copy without one option (validated again). */
  public TableOptions without(String key) {
    Map<String, String> copy = new LinkedHashMap<>(raw);
    copy.remove(key);
    return of(copy);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableOptions && ((TableOptions) o).raw.equals(raw);
  }

  @Override
  public int hashCode() {
    return raw.hashCode();
  }

  @Override
  public String toString() {
    return raw.toString();
  }

  /** Builds options in Java: {@code TableOptions.builder().path(dir).format("parquet").build()}. */
  public static final class Builder {
    private final LinkedHashMap<String, String> options = new LinkedHashMap<>();

    private Builder() {}

    /** {@code connector} = {@code filesystem}, for a definition that mirrors a Flink DDL. */
    public Builder connector(String connector) {
      return set(CONNECTOR, connector);
    }

    public Builder path(String path) {
      return set(PATH, path);
    }

    /** The table root as an absolute local path. */
    public Builder path(Path path) {
      return set(PATH, path.toAbsolutePath().normalize().toString());
    }

    public Builder format(String format) {
      return set(FORMAT, format);
    }

    /**
     * Any option, e.g. {@code set("sink.rolling-policy.file-size", "64MB")}; replaces a previous
     * value.
     */
    public Builder set(String key, String value) {
      options.put(key, value);
      return this;
    }

    /** Every entry of {@code more}, replacing previous values. */
    public Builder setAll(Map<String, String> more) {
      options.putAll(more);
      return this;
    }

    public TableOptions build() {
      return of(options);
    }
  }
}
