package dev.filetables.io.table;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Every option key a file table accepts, each declared once with its type, default and description,
 * in documentation order. The validator, the getters of {@link TableOptions} and the README's
 * options table ({@link OptionsTable}) all read these declarations; rules that involve several keys
 * are in the validator.
 *
 * <p>Format-specific keys ({@code <format>.*}, e.g. {@code csv.field-delimiter}) are not listed
 * here: they belong to the format of the table and are checked by it ({@link FormatCatalog}).
 */
public final class FileSystemOptions {
  private FileSystemOptions() {}

  // Filled by declare() in the textual order of the fields below (the JLS runs static initialisers
  // in that order), so the documentation order is the declaration order. Must stay first.
  private static final List<TableOption<?>> ALL = new ArrayList<>();

  public static final TableOption<String> CONNECTOR =
      declare(
          TableOption.key("connector")
              .type(FileSystemOptionTypes.CONNECTOR)
              .shownWhenUnset("—")
              .description("must be `filesystem` when given"));

  public static final TableOption<String> PATH =
      declare(
          TableOption.key("path")
              .type(FileSystemOptionTypes.TABLE_PATH)
              .required(() -> ": the table root directory, a plain path or a file:///... URI")
              .description(
                  "table root directory: a local path or `file:///…` URI, `hdfs://host:port/…` or `s3://bucket/…`; never a file"));

  public static final TableOption<String> FORMAT =
      declare(
          TableOption.key("format")
              .type(FileSystemOptionTypes.FORMAT)
              .required(
                  () -> "; supported: " + String.join(", ", FormatCatalog.installed().names()))
              .description(
                  "`csv`, `json`, `avro`, `parquet` or `orc`; format options start with `<format>.`"));

  public static final TableOption<String> PARTITION_DEFAULT_NAME =
      declare(
          TableOption.key("partition.default-name")
              .type(FileSystemOptionTypes.PARTITION_DIRECTORY_VALUE)
              .defaultValue("__DEFAULT_PARTITION__")
              .description(
                  "directory value for a null or empty partition value; read back as null"));

  public static final TableOption<Duration> SOURCE_MONITOR_INTERVAL =
      declare(
          TableOption.key("source.monitor-interval")
              .type(OptionTypes.DURATION)
              .description(
                  "unset or 0: scan once (bounded); > 0: keep watching and read each new file once"));

  public static final TableOption<String> SOURCE_PATH_REGEX_PATTERN =
      declare(
          TableOption.key("source.path.regex-pattern")
              .type(OptionTypes.REGEX)
              .description("only files whose full path matches this regular expression are read"));

  public static final TableOption<BadRecordPolicy> SOURCE_BAD_RECORDS =
      declare(
          TableOption.key("source.bad-records")
              .type(
                  OptionTypes.oneOf(
                      List.of(BadRecordPolicy.values()), BadRecordPolicy::optionValue))
              .defaultValue(BadRecordPolicy.FAIL)
              .fileTablesOnly()
              .description(
                  "a record or file that cannot be read: `fail` the job (naming file, position, reason), `skip` it (metric + log) or write it to the `dead-letter` table; `<format>.ignore-parse-errors` = `true` means `skip`"));

  public static final TableOption<Path> SOURCE_BAD_RECORDS_DEAD_LETTER_PATH =
      declare(
          TableOption.key("source.bad-records.dead-letter.path")
              .type(FileSystemOptionTypes.LOCAL_PATH)
              .fileTablesOnly()
              .description(
                  "root directory of the dead-letter table (JSON, partitioned by `dt`), required with `dead-letter`; outside the table path"));

  public static final TableOption<Long> ROLLING_FILE_SIZE =
      declare(
          TableOption.key("sink.rolling-policy.file-size")
              .type(OptionTypes.POSITIVE_SIZE)
              .defaultValue(128L << 20)
              .description("roll a part file once it exceeds this size"));

  public static final TableOption<Duration> ROLLING_ROLLOVER_INTERVAL =
      declare(
          TableOption.key("sink.rolling-policy.rollover-interval")
              .type(OptionTypes.POSITIVE_DURATION)
              .defaultValue(Duration.ofMinutes(30))
              .description("roll a part file that has been open this long"));

  public static final TableOption<Duration> ROLLING_INACTIVITY_INTERVAL =
      declare(
          TableOption.key("sink.rolling-policy.inactivity-interval")
              .type(OptionTypes.POSITIVE_DURATION)
              .defaultValue(Duration.ofMinutes(30))
              .description("roll a part file that has received no row for this long"));

  public static final TableOption<Duration> ROLLING_CHECK_INTERVAL =
      declare(
          TableOption.key("sink.rolling-policy.check-interval")
              .type(OptionTypes.POSITIVE_DURATION)
              .defaultValue(Duration.ofMinutes(1))
              .description("how often the time-based rolling conditions are checked"));

  public static final TableOption<Boolean> SHUFFLE_BY_PARTITION =
      declare(
          TableOption.key("sink.shuffle-by-partition.enable")
              .type(OptionTypes.BOOLEAN)
              .defaultValue(false)
              .description(
                  "route the rows of a partition to few writers (fewer files; risk of skew)"));

  public static final TableOption<Integer> SINK_PARALLELISM =
      declare(
          TableOption.key("sink.parallelism")
              .type(OptionTypes.intAtLeast(1))
              .description("number of writers (>= 1)"));

  public static final TableOption<Boolean> AUTO_COMPACTION =
      declare(
          TableOption.key("auto-compaction")
              .type(OptionTypes.BOOLEAN)
              .defaultValue(false)
              .description("merge small files before they become visible"));

  public static final TableOption<Long> COMPACTION_FILE_SIZE =
      declare(
          TableOption.key("compaction.file-size")
              .type(OptionTypes.POSITIVE_SIZE)
              .fallbackTo(ROLLING_FILE_SIZE)
              .description("target size of compacted files"));

  public static final TableOption<String> TIME_EXTRACTOR_KIND =
      declare(
          TableOption.key("partition.time-extractor.kind")
              .type(OptionTypes.oneOf("default", "custom"))
              .defaultValue("default")
              .description("how a partition's time is extracted: `default` or `custom`"));

  public static final TableOption<String> TIME_EXTRACTOR_CLASS =
      declare(
          TableOption.key("partition.time-extractor.class")
              .type(OptionTypes.notBlank("a class name"))
              .description("extractor class, required when the kind is `custom`"));

  public static final TableOption<String> TIME_EXTRACTOR_PATTERN =
      declare(
          TableOption.key("partition.time-extractor.timestamp-pattern")
              .type(OptionTypes.notBlank("a pattern such as '$dt $hour:00:00'"))
              .description(
                  "partition time built from partition values, e.g. `$dt $hour:00:00`; unset: the first partition value"));

  public static final TableOption<String> TIME_EXTRACTOR_FORMATTER =
      declare(
          TableOption.key("partition.time-extractor.timestamp-formatter")
              .type(OptionTypes.JAVA_TIME_PATTERN)
              .description(
                  "`java.time` pattern of the partition time, e.g. `yyyyMMdd`; unset: lenient `yyyy-M-d[ H:m:s[.fraction]]`"));

  public static final TableOption<String> COMMIT_TRIGGER =
      declare(
          TableOption.key("sink.partition-commit.trigger")
              .type(OptionTypes.oneOf("process-time", "partition-time"))
              .defaultValue("process-time")
              .description("when a partition is committed: `process-time` or `partition-time`"));

  public static final TableOption<Duration> COMMIT_DELAY =
      declare(
          TableOption.key("sink.partition-commit.delay")
              .type(OptionTypes.DURATION)
              .defaultValue(Duration.ZERO)
              .description("how long after its time (or first write) a partition is committed"));

  public static final TableOption<ZoneId> COMMIT_WATERMARK_TIME_ZONE =
      declare(
          TableOption.key("sink.partition-commit.watermark-time-zone")
              .type(OptionTypes.TIME_ZONE)
              .defaultValue(ZoneId.of("UTC"))
              .description(
                  "zone of partition times for `partition-time` commits, e.g. `Asia/Shanghai`, `GMT+08:00`"));

  public static final TableOption<List<String>> COMMIT_POLICY_KIND =
      declare(
          TableOption.key("sink.partition-commit.policy.kind")
              .type(FileSystemOptionTypes.COMMIT_POLICY_LIST)
              .description("comma list of commit actions: `success-file`, `custom`"));

  public static final TableOption<String> COMMIT_POLICY_CLASS =
      declare(
          TableOption.key("sink.partition-commit.policy.class")
              .type(OptionTypes.notBlank("a class name"))
              .description("commit policy class, required when the policy list has `custom`"));

  public static final TableOption<String> COMMIT_SUCCESS_FILE_NAME =
      declare(
          TableOption.key("sink.partition-commit.success-file.name")
              .type(FileSystemOptionTypes.SUCCESS_FILE_NAME)
              .defaultValue("_SUCCESS")
              .description(
                  "name of the success file written into a committed partition (starts with `_` or `.`)"));

  public static final TableOption<Boolean> COMMIT_SUCCESS_FILE_MANIFEST =
      declare(
          TableOption.key("sink.partition-commit.success-file.manifest")
              .type(OptionTypes.BOOLEAN)
              .defaultValue(false)
              .fileTablesOnly()
              .description(
                  "write a JSON manifest of the partition's data files (sizes, row counts), watermark and commit time into the success file"));

  public static final TableOption<String> PARTITION_DERIVE_TIME_COLUMN =
      declare(
          TableOption.key("sink.partition-derive.time-column")
              .type(OptionTypes.notBlank("the name of a TIMESTAMP or TIMESTAMP_LTZ column"))
              .fileTablesOnly()
              .description(
                  "TIMESTAMP or TIMESTAMP_LTZ column the sink derives the pattern's partition values from, with the extractor's pattern and formatter"));

  public static final TableOption<Duration> COMPACTION_MAX_DELAY =
      declare(
          TableOption.key("compaction.max-delay")
              .type(OptionTypes.DURATION)
              .fallbackTo(ROLLING_ROLLOVER_INTERVAL)
              .fileTablesOnly()
              .description(
                  "with `auto-compaction`: longest time a closed file waits for more files of its partition before the pending files are merged and published"));

  public static final TableOption<Duration> SOURCE_MONITOR_LATENESS =
      declare(
          TableOption.key("source.monitor.lateness")
              .type(OptionTypes.DURATION)
              .defaultValue(Duration.ofMinutes(10))
              .fileTablesOnly()
              .description(
                  "watched source: how far a new file's modification time may lie before the last listing and still be read; must cover the time from a file's last write to its atomic rename plus the monitor interval"));

  public static final TableOption<Duration> SOURCE_IDLE_TIMEOUT =
      declare(
          TableOption.key("source.idle-timeout")
              .type(OptionTypes.DURATION)
              .defaultValue(Duration.ofMinutes(1))
              .fileTablesOnly()
              .description(
                  "watched source: after this long without a new file the watermark follows the clock (now minus this timeout) instead of stalling; 0: never"));

  public static final TableOption<Boolean> SOURCE_MONITOR_SKIP_COMMITTED =
      declare(
          TableOption.key("source.monitor.skip-committed-partitions")
              .type(OptionTypes.BOOLEAN)
              .defaultValue(false)
              .fileTablesOnly()
              .description(
                  "watched source: do not list partitions whose success file is older than the lateness window (files added to them later are not read)"));

  public static final TableOption<String> SINK_PARQUET_MERGE =
      declare(
          TableOption.key("sink.parquet.merge")
              .type(OptionTypes.oneOf("rewrite", "row-group-copy"))
              .defaultValue("rewrite")
              .fileTablesOnly()
              .description(
                  "streaming Parquet part files from their per-bundle segments: `rewrite` (rows spilled in a compact row encoding, encoded once at roll: full row groups) or `row-group-copy` (Parquet segments joined by copying: less work at roll, a row group per bundle)"));

  private static <T> TableOption<T> declare(TableOption<T> option) {
    if (forKey(option.key()).isPresent()) {
      throw new IllegalStateException("Option '" + option.key() + "' is declared twice");
    }
    ALL.add(option);
    return option;
  }

  /** Every option in documentation order. */
  public static List<TableOption<?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  /** The option with this exact key (keys are case-sensitive, as in Flink), if any. */
  public static Optional<TableOption<?>> forKey(String key) {
    for (TableOption<?> option : ALL) {
      if (option.key().equals(key)) {
        return Optional.of(option);
      }
    }
    return Optional.empty();
  }
}
