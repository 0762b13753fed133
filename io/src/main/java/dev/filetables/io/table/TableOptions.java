package dev.filetables.io.table;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code WITH (...)} options of a file table: Flink filesystem connector keys, Flink defaults,
 * typed getters. {@link #of(Map)} validates everything up front (unknown keys, bad values, missing
 * required keys) and throws a {@link TableDefinitionException} naming key, value and what is allowed.
 *
 * <p>SKELETON: getters and {@link #of} are the contract; validation is filled in by the options work.
 */
public final class TableOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String CONNECTOR = "connector";
  public static final String PATH = "path";
  public static final String FORMAT = "format";
  public static final String PARTITION_DEFAULT_NAME = "partition.default-name";
  public static final String SOURCE_MONITOR_INTERVAL = "source.monitor-interval";
  public static final String SOURCE_PATH_REGEX_PATTERN = "source.path.regex-pattern";
  public static final String ROLLING_FILE_SIZE = "sink.rolling-policy.file-size";
  public static final String ROLLING_ROLLOVER_INTERVAL = "sink.rolling-policy.rollover-interval";
  public static final String ROLLING_INACTIVITY_INTERVAL = "sink.rolling-policy.inactivity-interval";
  public static final String ROLLING_CHECK_INTERVAL = "sink.rolling-policy.check-interval";
  public static final String SHUFFLE_BY_PARTITION = "sink.shuffle-by-partition.enable";
  public static final String SINK_PARALLELISM = "sink.parallelism";
  public static final String AUTO_COMPACTION = "auto-compaction";
  public static final String COMPACTION_FILE_SIZE = "compaction.file-size";
  public static final String TIME_EXTRACTOR_KIND = "partition.time-extractor.kind";
  public static final String TIME_EXTRACTOR_CLASS = "partition.time-extractor.class";
  public static final String TIME_EXTRACTOR_PATTERN = "partition.time-extractor.timestamp-pattern";
  public static final String TIME_EXTRACTOR_FORMATTER =
      "partition.time-extractor.timestamp-formatter";
  public static final String COMMIT_TRIGGER = "sink.partition-commit.trigger";
  public static final String COMMIT_DELAY = "sink.partition-commit.delay";
  public static final String COMMIT_WATERMARK_TIME_ZONE =
      "sink.partition-commit.watermark-time-zone";
  public static final String COMMIT_POLICY_KIND = "sink.partition-commit.policy.kind";
  public static final String COMMIT_POLICY_CLASS = "sink.partition-commit.policy.class";
  public static final String COMMIT_SUCCESS_FILE_NAME = "sink.partition-commit.success-file.name";

  private final LinkedHashMap<String, String> raw;

  private TableOptions(Map<String, String> raw) {
    this.raw = new LinkedHashMap<>(raw);
  }

  /** Validates and wraps the options; throws {@link TableDefinitionException} on any problem. */
  public static TableOptions of(Map<String, String> options) {
    return new TableOptions(options);
  }

  /** The options exactly as given. */
  public Map<String, String> asMap() {
    return Collections.unmodifiableMap(raw);
  }

  /** Options of the table's format with the {@code <format>.} prefix removed. */
  public Map<String, String> formatOptions() {
    String prefix = format() + ".";
    Map<String, String> result = new LinkedHashMap<>();
    raw.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            result.put(k.substring(prefix.length()), v);
          }
        });
    return result;
  }

  public String path() {
    return raw.get(PATH);
  }

  /** The table root as a local path ({@code file:///x} URIs and plain paths). */
  public Path rootPath() {
    String p = path();
    return p.startsWith("file:") ? Path.of(java.net.URI.create(p)) : Path.of(p);
  }

  public String format() {
    return raw.get(FORMAT);
  }

  public String partitionDefaultName() {
    return raw.getOrDefault(PARTITION_DEFAULT_NAME, "__DEFAULT_PARTITION__");
  }

  public Optional<Duration> sourceMonitorInterval() {
    return Optional.ofNullable(raw.get(SOURCE_MONITOR_INTERVAL))
        .map(Durations::parse)
        .filter(d -> !d.isZero());
  }

  public Optional<String> sourcePathRegexPattern() {
    return Optional.ofNullable(raw.get(SOURCE_PATH_REGEX_PATTERN));
  }

  public long rollingFileSize() {
    return MemorySizes.parse(raw.getOrDefault(ROLLING_FILE_SIZE, "128MB"));
  }

  public Duration rolloverInterval() {
    return Durations.parse(raw.getOrDefault(ROLLING_ROLLOVER_INTERVAL, "30 min"));
  }

  public Duration inactivityInterval() {
    return Durations.parse(raw.getOrDefault(ROLLING_INACTIVITY_INTERVAL, "30 min"));
  }

  public Duration checkInterval() {
    return Durations.parse(raw.getOrDefault(ROLLING_CHECK_INTERVAL, "1 min"));
  }

  public boolean shuffleByPartition() {
    return Boolean.parseBoolean(raw.getOrDefault(SHUFFLE_BY_PARTITION, "false"));
  }

  public OptionalInt sinkParallelism() {
    String v = raw.get(SINK_PARALLELISM);
    return v == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v.trim()));
  }

  public boolean autoCompaction() {
    return Boolean.parseBoolean(raw.getOrDefault(AUTO_COMPACTION, "false"));
  }

  public long compactionFileSize() {
    String v = raw.get(COMPACTION_FILE_SIZE);
    return v == null ? rollingFileSize() : MemorySizes.parse(v);
  }

  public String timeExtractorKind() {
    return raw.getOrDefault(TIME_EXTRACTOR_KIND, "default");
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

  public String commitTrigger() {
    return raw.getOrDefault(COMMIT_TRIGGER, "process-time");
  }

  public Duration commitDelay() {
    return Durations.parse(raw.getOrDefault(COMMIT_DELAY, "0 s"));
  }

  public ZoneId watermarkTimeZone() {
    return ZoneId.of(raw.getOrDefault(COMMIT_WATERMARK_TIME_ZONE, "UTC"));
  }

  /** Commit policies in the listed order, trimmed; empty when unset. */
  public List<String> commitPolicyKinds() {
    String v = raw.get(COMMIT_POLICY_KIND);
    if (v == null || v.isBlank()) {
      return List.of();
    }
    return java.util.Arrays.stream(v.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .collect(java.util.stream.Collectors.toList());
  }

  public Optional<String> commitPolicyClass() {
    return Optional.ofNullable(raw.get(COMMIT_POLICY_CLASS));
  }

  public String successFileName() {
    return raw.getOrDefault(COMMIT_SUCCESS_FILE_NAME, "_SUCCESS");
  }

  /** A copy with one option changed (validated again). */
  public TableOptions with(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(raw);
    copy.put(key, value);
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
}
