package dev.filetables.io.table;

import java.util.Optional;

/**
 * Every option key a file table accepts, in documentation order, with its type, default and a
 * one-line description. The README's options table is generated from (and checked against) this
 * registry.
 *
 * <p>Format-specific keys ({@code <format>.*}, e.g. {@code csv.field-delimiter}) are not listed
 * here: they belong to the format of the table and are validated by it.
 */
public enum OptionKey {
  CONNECTOR(TableOptions.CONNECTOR, Type.STRING, null, "—", "must be `filesystem` when given"),
  PATH(
      TableOptions.PATH,
      Type.STRING,
      null,
      "required",
      "table root directory on the local file system: a plain path or a `file:///…` URI; never a file"),
  FORMAT(
      TableOptions.FORMAT,
      Type.STRING,
      null,
      "required",
      "`csv`, `json`, `avro` or `parquet`; format options start with `<format>.`"),
  PARTITION_DEFAULT_NAME(
      TableOptions.PARTITION_DEFAULT_NAME,
      Type.STRING,
      "__DEFAULT_PARTITION__",
      null,
      "directory value for a null or empty partition value; read back as null"),
  SOURCE_MONITOR_INTERVAL(
      TableOptions.SOURCE_MONITOR_INTERVAL,
      Type.DURATION,
      null,
      "unset",
      "unset or 0: scan once (bounded); > 0: keep watching and read each new file once"),
  SOURCE_PATH_REGEX_PATTERN(
      TableOptions.SOURCE_PATH_REGEX_PATTERN,
      Type.STRING,
      null,
      "unset",
      "only files whose full path matches this regular expression are read"),
  SOURCE_BAD_RECORDS(
      TableOptions.SOURCE_BAD_RECORDS,
      Type.STRING,
      "fail",
      null,
      "a record or file that cannot be read: `fail` the job (naming file, position, reason), `skip` it (metric + log) or write it to the `dead-letter` table; `<format>.ignore-parse-errors` = `true` means `skip` (FileTables only)"),
  SOURCE_BAD_RECORDS_DEAD_LETTER_PATH(
      TableOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
      Type.STRING,
      null,
      "unset",
      "root directory of the dead-letter table (JSON, partitioned by `dt`), required with `dead-letter`; outside the table path (FileTables only)"),
  ROLLING_FILE_SIZE(
      TableOptions.ROLLING_FILE_SIZE,
      Type.SIZE,
      "128MB",
      null,
      "roll a part file once it exceeds this size"),
  ROLLING_ROLLOVER_INTERVAL(
      TableOptions.ROLLING_ROLLOVER_INTERVAL,
      Type.DURATION,
      "30 min",
      null,
      "roll a part file that has been open this long"),
  ROLLING_INACTIVITY_INTERVAL(
      TableOptions.ROLLING_INACTIVITY_INTERVAL,
      Type.DURATION,
      "30 min",
      null,
      "roll a part file that has received no row for this long"),
  ROLLING_CHECK_INTERVAL(
      TableOptions.ROLLING_CHECK_INTERVAL,
      Type.DURATION,
      "1 min",
      null,
      "how often the time-based rolling conditions are checked"),
  SHUFFLE_BY_PARTITION(
      TableOptions.SHUFFLE_BY_PARTITION,
      Type.BOOLEAN,
      "false",
      null,
      "route the rows of a partition to few writers (fewer files; risk of skew)"),
  SINK_PARALLELISM(
      TableOptions.SINK_PARALLELISM, Type.INT, null, "unset", "number of writers (>= 1)"),
  AUTO_COMPACTION(
      TableOptions.AUTO_COMPACTION,
      Type.BOOLEAN,
      "false",
      null,
      "merge small files before they become visible"),
  COMPACTION_FILE_SIZE(
      TableOptions.COMPACTION_FILE_SIZE,
      Type.SIZE,
      null,
      "= `sink.rolling-policy.file-size`",
      "target size of compacted files"),
  TIME_EXTRACTOR_KIND(
      TableOptions.TIME_EXTRACTOR_KIND,
      Type.STRING,
      "default",
      null,
      "how a partition's time is extracted: `default` or `custom`"),
  TIME_EXTRACTOR_CLASS(
      TableOptions.TIME_EXTRACTOR_CLASS,
      Type.STRING,
      null,
      "unset",
      "extractor class, required when the kind is `custom`"),
  TIME_EXTRACTOR_PATTERN(
      TableOptions.TIME_EXTRACTOR_PATTERN,
      Type.STRING,
      null,
      "unset",
      "partition time built from partition values, e.g. `$dt $hour:00:00`; unset: the first partition value"),
  TIME_EXTRACTOR_FORMATTER(
      TableOptions.TIME_EXTRACTOR_FORMATTER,
      Type.STRING,
      null,
      "unset",
      "`java.time` pattern of the partition time, e.g. `yyyyMMdd`; unset: lenient `yyyy-M-d[ H:m:s[.fraction]]`"),
  COMMIT_TRIGGER(
      TableOptions.COMMIT_TRIGGER,
      Type.STRING,
      "process-time",
      null,
      "when a partition is committed: `process-time` or `partition-time`"),
  COMMIT_DELAY(
      TableOptions.COMMIT_DELAY,
      Type.DURATION,
      "0 s",
      null,
      "how long after its time (or first write) a partition is committed"),
  COMMIT_WATERMARK_TIME_ZONE(
      TableOptions.COMMIT_WATERMARK_TIME_ZONE,
      Type.STRING,
      "UTC",
      null,
      "zone of partition times for `partition-time` commits, e.g. `Asia/Shanghai`, `GMT+08:00`"),
  COMMIT_POLICY_KIND(
      TableOptions.COMMIT_POLICY_KIND,
      Type.STRING,
      null,
      "unset",
      "comma list of commit actions: `success-file`, `custom`"),
  COMMIT_POLICY_CLASS(
      TableOptions.COMMIT_POLICY_CLASS,
      Type.STRING,
      null,
      "unset",
      "commit policy class, required when the policy list has `custom`"),
  COMMIT_SUCCESS_FILE_NAME(
      TableOptions.COMMIT_SUCCESS_FILE_NAME,
      Type.STRING,
      "_SUCCESS",
      null,
      "name of the success file written into a committed partition (starts with `_` or `.`)"),
  COMMIT_SUCCESS_FILE_MANIFEST(
      TableOptions.COMMIT_SUCCESS_FILE_MANIFEST,
      Type.BOOLEAN,
      "false",
      null,
      "write a JSON manifest of the partition's data files (sizes, row counts), watermark and commit time into the success file (FileTables only)"),
  PARTITION_DERIVE_TIME_COLUMN(
      TableOptions.PARTITION_DERIVE_TIME_COLUMN,
      Type.STRING,
      null,
      "unset",
      "TIMESTAMP or TIMESTAMP_LTZ column the sink derives the pattern's partition values from, with the extractor's pattern and formatter (FileTables only)"),
  COMPACTION_MAX_DELAY(
      TableOptions.COMPACTION_MAX_DELAY,
      Type.DURATION,
      null,
      "= `sink.rolling-policy.rollover-interval`",
      "with `auto-compaction`: longest time a closed file waits for more files of its partition before the pending files are merged and published (FileTables only)"),
  SOURCE_MONITOR_LATENESS(
      TableOptions.SOURCE_MONITOR_LATENESS,
      Type.DURATION,
      "10 min",
      null,
      "watched source: how far a new file's modification time may lie before the last listing and still be read; must cover the time from a file's last write to its atomic rename plus the monitor interval (FileTables only)"),
  SOURCE_IDLE_TIMEOUT(
      TableOptions.SOURCE_IDLE_TIMEOUT,
      Type.DURATION,
      "1 min",
      null,
      "watched source: after this long without a new file the watermark follows the clock (now minus this timeout) instead of stalling; 0: never (FileTables only)"),
  SOURCE_MONITOR_SKIP_COMMITTED(
      TableOptions.SOURCE_MONITOR_SKIP_COMMITTED,
      Type.BOOLEAN,
      "false",
      null,
      "watched source: do not list partitions whose success file is older than the lateness window (files added to them later are not read) (FileTables only)"),
  SINK_PARQUET_MERGE(
      TableOptions.SINK_PARQUET_MERGE,
      Type.STRING,
      "rewrite",
      null,
      "streaming Parquet part files from their per-bundle segments: `rewrite` (rows spilled in a compact row encoding, encoded once at roll: full row groups) or `row-group-copy` (Parquet segments joined by copying: less work at roll, a row group per bundle) (FileTables only)");

  /** Value type of an option, as shown in documentation. */
  public enum Type {
    STRING("string"),
    DURATION("duration"),
    SIZE("size"),
    BOOLEAN("boolean"),
    INT("int");

    private final String displayName;

    Type(String displayName) {
      this.displayName = displayName;
    }

    /** Lower-case name used in documentation, e.g. {@code duration}. */
    public String displayName() {
      return displayName;
    }
  }

  private final String key;
  private final Type type;
  private final String defaultValue;
  private final String defaultNote;
  private final String description;

  OptionKey(String key, Type type, String defaultValue, String defaultNote, String description) {
    this.key = key;
    this.type = type;
    this.defaultValue = defaultValue;
    this.defaultNote = defaultNote;
    this.description = description;
  }

  /** The key as written in {@code WITH (...)}, e.g. {@code sink.rolling-policy.file-size}. */
  public String key() {
    return key;
  }

  public Type type() {
    return type;
  }

  /** The value used when the option is absent, exactly as Flink documents it; empty when none. */
  public Optional<String> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  /**
   * The default as shown in documentation: the default value, or {@code required}, {@code unset},
   * {@code —} or a note such as {@code = `sink.rolling-policy.file-size`}.
   */
  public String defaultText() {
    return defaultValue != null ? defaultValue : defaultNote;
  }

  public boolean required() {
    return "required".equals(defaultNote);
  }

  /** One line saying what the option does (Markdown). */
  public String description() {
    return description;
  }

  /**
   * The Markdown table of all options ({@code | key | type | default | meaning |}), in registry
   * order: the README's options table is this text.
   */
  public static String markdownTable() {
    StringBuilder table =
        new StringBuilder("| key | type | default | meaning |\n|---|---|---|---|\n");
    for (OptionKey option : values()) {
      String defaultText =
          option.defaultValue != null ? "`" + option.defaultValue + "`" : option.defaultNote;
      table
          .append("| `")
          .append(option.key)
          .append("` | ")
          .append(option.type.displayName())
          .append(" | ")
          .append(defaultText)
          .append(" | ")
          .append(option.description.replace("|", "\\|"))
          .append(" |\n");
    }
    return table.toString();
  }

  /** The registered option with this exact key, if any. */
  public static Optional<OptionKey> forKey(String key) {
    for (OptionKey option : values()) {
      if (option.key.equals(key)) {
        return Optional.of(option);
      }
    }
    return Optional.empty();
  }
}
