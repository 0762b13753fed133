package dev.filetables.io.table;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The {@code WITH (...)} options of a file table: Flink filesystem connector keys, Flink defaults,
 * typed getters ({@link #get(TableOption)} with the options of {@link FileSystemOptions}). {@link
 * #of(Map)} validates everything up front (unknown keys, bad values, missing required keys) and
 * throws a {@link TableDefinitionException} naming key, value and what is allowed.
 *
 * <p>Rules worth knowing: keys are case-sensitive (as in Flink); enumerated, numeric, boolean,
 * duration, size and time-zone values are trimmed and case-insensitive, getters return them
 * normalised (lower case); free-form strings (path, names, classes, patterns) are taken exactly as
 * given. Options for later features (compaction, commit, time extraction, monitoring) are accepted
 * and checked here. Keys {@code <format>.*} are accepted for the table's own format only and
 * checked here by that format (through {@link FormatCatalog}), so a bad {@code csv.field-delimiter}
 * fails when the table is defined. {@link FileSystemOptions} declares every known key with its
 * type, default and description.
 */
public final class TableOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  // The keys of FileSystemOptions as strings, for code that builds option maps (declared there).
  public static final String CONNECTOR = FileSystemOptions.CONNECTOR.key();
  public static final String PATH = FileSystemOptions.PATH.key();
  public static final String FORMAT = FileSystemOptions.FORMAT.key();
  public static final String PARTITION_DEFAULT_NAME =
      FileSystemOptions.PARTITION_DEFAULT_NAME.key();
  public static final String SOURCE_MONITOR_INTERVAL =
      FileSystemOptions.SOURCE_MONITOR_INTERVAL.key();
  public static final String SOURCE_PATH_REGEX_PATTERN =
      FileSystemOptions.SOURCE_PATH_REGEX_PATTERN.key();
  public static final String SOURCE_BAD_RECORDS = FileSystemOptions.SOURCE_BAD_RECORDS.key();
  public static final String SOURCE_BAD_RECORDS_DEAD_LETTER_PATH =
      FileSystemOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH.key();
  public static final String SOURCE_MONITOR_LATENESS =
      FileSystemOptions.SOURCE_MONITOR_LATENESS.key();
  public static final String SOURCE_IDLE_TIMEOUT = FileSystemOptions.SOURCE_IDLE_TIMEOUT.key();
  public static final String SOURCE_MONITOR_SKIP_COMMITTED =
      FileSystemOptions.SOURCE_MONITOR_SKIP_COMMITTED.key();
  public static final String ROLLING_FILE_SIZE = FileSystemOptions.ROLLING_FILE_SIZE.key();
  public static final String ROLLING_ROLLOVER_INTERVAL =
      FileSystemOptions.ROLLING_ROLLOVER_INTERVAL.key();
  public static final String ROLLING_INACTIVITY_INTERVAL =
      FileSystemOptions.ROLLING_INACTIVITY_INTERVAL.key();
  public static final String ROLLING_CHECK_INTERVAL =
      FileSystemOptions.ROLLING_CHECK_INTERVAL.key();
  public static final String SHUFFLE_BY_PARTITION = FileSystemOptions.SHUFFLE_BY_PARTITION.key();
  public static final String SINK_PARQUET_MERGE = FileSystemOptions.SINK_PARQUET_MERGE.key();
  public static final String SINK_PARALLELISM = FileSystemOptions.SINK_PARALLELISM.key();
  public static final String AUTO_COMPACTION = FileSystemOptions.AUTO_COMPACTION.key();
  public static final String COMPACTION_FILE_SIZE = FileSystemOptions.COMPACTION_FILE_SIZE.key();
  public static final String COMPACTION_MAX_DELAY = FileSystemOptions.COMPACTION_MAX_DELAY.key();
  public static final String TIME_EXTRACTOR_KIND = FileSystemOptions.TIME_EXTRACTOR_KIND.key();
  public static final String TIME_EXTRACTOR_CLASS = FileSystemOptions.TIME_EXTRACTOR_CLASS.key();
  public static final String TIME_EXTRACTOR_PATTERN =
      FileSystemOptions.TIME_EXTRACTOR_PATTERN.key();
  public static final String TIME_EXTRACTOR_FORMATTER =
      FileSystemOptions.TIME_EXTRACTOR_FORMATTER.key();
  public static final String PARTITION_DERIVE_TIME_COLUMN =
      FileSystemOptions.PARTITION_DERIVE_TIME_COLUMN.key();
  public static final String COMMIT_TRIGGER = FileSystemOptions.COMMIT_TRIGGER.key();
  public static final String COMMIT_DELAY = FileSystemOptions.COMMIT_DELAY.key();
  public static final String COMMIT_WATERMARK_TIME_ZONE =
      FileSystemOptions.COMMIT_WATERMARK_TIME_ZONE.key();
  public static final String COMMIT_POLICY_KIND = FileSystemOptions.COMMIT_POLICY_KIND.key();
  public static final String COMMIT_POLICY_CLASS = FileSystemOptions.COMMIT_POLICY_CLASS.key();
  public static final String COMMIT_SUCCESS_FILE_NAME =
      FileSystemOptions.COMMIT_SUCCESS_FILE_NAME.key();
  public static final String COMMIT_SUCCESS_FILE_MANIFEST =
      FileSystemOptions.COMMIT_SUCCESS_FILE_MANIFEST.key();

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

  /** The known options in documentation order, with type, default and description. */
  public static List<TableOption<?>> knownOptions() {
    return FileSystemOptions.all();
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

  /**
   * The value of {@code option}: as given, else its default, else its fallback option's value;
   * throws {@link NoSuchElementException} for an absent option without either ({@link
   * #getOptional}).
   */
  public <T> T get(TableOption<T> option) {
    return getOptional(option)
        .orElseThrow(
            () ->
                new NoSuchElementException("Option '" + option + "' is unset and has no default"));
  }

  /** The value of {@code option}: as given, else its default or its fallback option's value. */
  public <T> Optional<T> getOptional(TableOption<T> option) {
    String value = raw.get(option.key());
    if (value != null) {
      // validated by of(), so this parses
      return Optional.of(option.parse(value));
    }
    return option.fallback().map(this::getOptional).orElseGet(option::defaultValue);
  }

  /** True if {@code option} is given (not taken from a default). */
  public boolean contains(TableOption<?> option) {
    return raw.containsKey(option.key());
  }

  /** The {@code path} option exactly as given. */
  public String path() {
    return get(FileSystemOptions.PATH);
  }

  /**
   * The table root as a local path ({@code file:///x} URIs and plain paths; a relative plain path
   * is relative to the working directory of the process that uses it).
   */
  public Path rootPath() {
    return TableLocations.of(PATH, path());
  }

  public String format() {
    return get(FileSystemOptions.FORMAT);
  }

  public String partitionDefaultName() {
    return get(FileSystemOptions.PARTITION_DEFAULT_NAME);
  }

  /** The monitor interval; empty when unset or 0 (scan once). */
  public Optional<Duration> sourceMonitorInterval() {
    return getOptional(FileSystemOptions.SOURCE_MONITOR_INTERVAL).filter(d -> !d.isZero());
  }

  public Optional<String> sourcePathRegexPattern() {
    return getOptional(FileSystemOptions.SOURCE_PATH_REGEX_PATTERN);
  }

  /**
   * What a read does with a bad record: {@code source.bad-records}; when unset, {@code skip} if the
   * format's {@code ignore-parse-errors} is true (Flink's way to say it), else {@code fail}.
   */
  public BadRecordPolicy badRecordPolicy() {
    if (!contains(FileSystemOptions.SOURCE_BAD_RECORDS)
        && formatIgnoresParseErrors(raw, format())) {
      return BadRecordPolicy.SKIP;
    }
    return get(FileSystemOptions.SOURCE_BAD_RECORDS);
  }

  /** The dead-letter table root ({@code source.bad-records.dead-letter.path}), when set. */
  public Optional<Path> deadLetterPath() {
    return getOptional(FileSystemOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH);
  }

  static boolean formatIgnoresParseErrors(Map<String, String> options, String format) {
    String v = options.get(format + "." + BadRecordPolicy.IGNORE_PARSE_ERRORS);
    return v != null && v.trim().equalsIgnoreCase("true");
  }

  /** {@code source.monitor.lateness}: the watched source's window of files kept in its state. */
  public Duration sourceMonitorLateness() {
    return get(FileSystemOptions.SOURCE_MONITOR_LATENESS);
  }

  /** {@code source.idle-timeout}; zero: never idle. */
  public Duration sourceIdleTimeout() {
    return get(FileSystemOptions.SOURCE_IDLE_TIMEOUT);
  }

  public boolean sourceMonitorSkipCommitted() {
    return get(FileSystemOptions.SOURCE_MONITOR_SKIP_COMMITTED);
  }

  /** {@code sink.rolling-policy.file-size} in bytes. */
  public long rollingFileSize() {
    return get(FileSystemOptions.ROLLING_FILE_SIZE);
  }

  public Duration rolloverInterval() {
    return get(FileSystemOptions.ROLLING_ROLLOVER_INTERVAL);
  }

  public Duration inactivityInterval() {
    return get(FileSystemOptions.ROLLING_INACTIVITY_INTERVAL);
  }

  public Duration checkInterval() {
    return get(FileSystemOptions.ROLLING_CHECK_INTERVAL);
  }

  public boolean shuffleByPartition() {
    return get(FileSystemOptions.SHUFFLE_BY_PARTITION);
  }

  public OptionalInt sinkParallelism() {
    return getOptional(FileSystemOptions.SINK_PARALLELISM)
        .map(OptionalInt::of)
        .orElse(OptionalInt.empty());
  }

  public boolean autoCompaction() {
    return get(FileSystemOptions.AUTO_COMPACTION);
  }

  /** {@code compaction.file-size} in bytes; the rolling file size when unset. */
  public long compactionFileSize() {
    return get(FileSystemOptions.COMPACTION_FILE_SIZE);
  }

  /**
   * {@code compaction.max-delay}: how long closed files of a partition may wait for more files
   * before they are compacted and published; the rollover interval when unset.
   */
  public Duration compactionMaxDelay() {
    return get(FileSystemOptions.COMPACTION_MAX_DELAY);
  }

  /** {@code default} or {@code custom} (lower case). */
  public String timeExtractorKind() {
    return get(FileSystemOptions.TIME_EXTRACTOR_KIND);
  }

  public Optional<String> timeExtractorClass() {
    return getOptional(FileSystemOptions.TIME_EXTRACTOR_CLASS);
  }

  public Optional<String> timestampPattern() {
    return getOptional(FileSystemOptions.TIME_EXTRACTOR_PATTERN);
  }

  public Optional<String> timestampFormatter() {
    return getOptional(FileSystemOptions.TIME_EXTRACTOR_FORMATTER);
  }

  /**
   * The event-time column partition values are derived from ({@code
   * sink.partition-derive.time-column}, exactly as given); empty when partition values come from
   * the rows' partition columns.
   */
  public Optional<String> partitionDeriveTimeColumn() {
    return getOptional(FileSystemOptions.PARTITION_DERIVE_TIME_COLUMN);
  }

  /** {@code rewrite} or {@code row-group-copy} (lower case): see {@link #SINK_PARQUET_MERGE}. */
  public String parquetMerge() {
    return get(FileSystemOptions.SINK_PARQUET_MERGE);
  }

  /** {@code process-time} or {@code partition-time} (lower case). */
  public String commitTrigger() {
    return get(FileSystemOptions.COMMIT_TRIGGER);
  }

  public Duration commitDelay() {
    return get(FileSystemOptions.COMMIT_DELAY);
  }

  public ZoneId watermarkTimeZone() {
    return get(FileSystemOptions.COMMIT_WATERMARK_TIME_ZONE);
  }

  /** Commit policies in the listed order, trimmed and lower case; empty when unset. */
  public List<String> commitPolicyKinds() {
    return getOptional(FileSystemOptions.COMMIT_POLICY_KIND).orElse(List.of());
  }

  public Optional<String> commitPolicyClass() {
    return getOptional(FileSystemOptions.COMMIT_POLICY_CLASS);
  }

  public String successFileName() {
    return get(FileSystemOptions.COMMIT_SUCCESS_FILE_NAME);
  }

  /**
   * True if the success file carries a JSON manifest of the partition (default false: empty file).
   */
  public boolean successFileManifest() {
    return get(FileSystemOptions.COMMIT_SUCCESS_FILE_MANIFEST);
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
