package dev.filetables.io.table;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/** Checks a table's option map; every problem found is reported, not only the first. */
final class TableOptionsValidator {
  private TableOptionsValidator() {}

  static final String FILESYSTEM = "filesystem";
  static final List<String> EXTRACTOR_KINDS = List.of("default", "custom");
  static final List<String> COMMIT_TRIGGERS = List.of("process-time", "partition-time");
  static final List<String> PARQUET_MERGES = List.of("rewrite", "row-group-copy");
  static final List<String> COMMIT_POLICIES = List.of("success-file", "custom");

  /** A URI scheme; one letter is taken for a Windows drive ({@code C:\data}), not a scheme. */
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  static List<OptionProblem> validate(Map<String, String> options) {
    List<OptionProblem> problems = new ArrayList<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey() == null) {
        problems.add(new OptionProblem(null, "An option has a null key"));
      } else if (e.getValue() == null) {
        problems.add(
            new OptionProblem(e.getKey(), "Option '" + e.getKey() + "' has no value (null)"));
      }
    }
    if (!problems.isEmpty()) {
      return problems;
    }
    new Run(options, problems).checkAll();
    return problems;
  }

  /** One validation run; collects problems into the given list. */
  private static final class Run {
    private final Map<String, String> options;
    private final List<OptionProblem> problems;

    Run(Map<String, String> options, List<OptionProblem> problems) {
      this.options = options;
      this.problems = problems;
    }

    void checkAll() {
      checkConnector();
      if (!problems.isEmpty()) {
        return; // the other options are another connector's; checking them would only add noise
      }
      String format = checkFormat();
      checkKeysKnown(format);
      if (format != null) {
        checkFormatOptions(format);
      }
      checkPath();
      checkPartitionDefaultName();
      ifSet(
          OptionKey.SOURCE_MONITOR_INTERVAL,
          v -> duration(OptionKey.SOURCE_MONITOR_INTERVAL, v, false));
      ifSet(OptionKey.SOURCE_PATH_REGEX_PATTERN, this::checkRegex);
      checkBadRecords(format);
      ifSet(
          OptionKey.SOURCE_MONITOR_LATENESS,
          v -> duration(OptionKey.SOURCE_MONITOR_LATENESS, v, false));
      ifSet(OptionKey.SOURCE_IDLE_TIMEOUT, v -> duration(OptionKey.SOURCE_IDLE_TIMEOUT, v, false));
      ifSet(
          OptionKey.SOURCE_MONITOR_SKIP_COMMITTED,
          v -> bool(OptionKey.SOURCE_MONITOR_SKIP_COMMITTED, v));
      ifSet(OptionKey.ROLLING_FILE_SIZE, v -> size(OptionKey.ROLLING_FILE_SIZE, v));
      ifSet(
          OptionKey.ROLLING_ROLLOVER_INTERVAL,
          v -> duration(OptionKey.ROLLING_ROLLOVER_INTERVAL, v, true));
      ifSet(
          OptionKey.ROLLING_INACTIVITY_INTERVAL,
          v -> duration(OptionKey.ROLLING_INACTIVITY_INTERVAL, v, true));
      ifSet(
          OptionKey.ROLLING_CHECK_INTERVAL,
          v -> duration(OptionKey.ROLLING_CHECK_INTERVAL, v, true));
      ifSet(OptionKey.SHUFFLE_BY_PARTITION, v -> bool(OptionKey.SHUFFLE_BY_PARTITION, v));
      ifSet(OptionKey.SINK_PARALLELISM, this::checkParallelism);
      ifSet(
          OptionKey.SINK_PARQUET_MERGE,
          v -> oneOf(OptionKey.SINK_PARQUET_MERGE, v, PARQUET_MERGES));
      ifSet(OptionKey.AUTO_COMPACTION, v -> bool(OptionKey.AUTO_COMPACTION, v));
      ifSet(OptionKey.COMPACTION_FILE_SIZE, v -> size(OptionKey.COMPACTION_FILE_SIZE, v));
      ifSet(
          OptionKey.COMPACTION_MAX_DELAY, v -> duration(OptionKey.COMPACTION_MAX_DELAY, v, false));
      checkTimeExtractor();
      ifSet(OptionKey.COMMIT_TRIGGER, v -> oneOf(OptionKey.COMMIT_TRIGGER, v, COMMIT_TRIGGERS));
      ifSet(OptionKey.COMMIT_DELAY, v -> duration(OptionKey.COMMIT_DELAY, v, false));
      ifSet(OptionKey.COMMIT_WATERMARK_TIME_ZONE, this::checkZone);
      checkCommitPolicies();
      ifSet(OptionKey.COMMIT_SUCCESS_FILE_NAME, this::checkSuccessFileName);
      ifSet(
          OptionKey.COMMIT_SUCCESS_FILE_MANIFEST,
          v -> bool(OptionKey.COMMIT_SUCCESS_FILE_MANIFEST, v));
      checkPartitionDerive();
    }

    private void ifSet(OptionKey option, Consumer<String> check) {
      String value = options.get(option.key());
      if (value != null) {
        check.accept(value);
      }
    }

    private void problem(OptionKey option, String value, String allowed) {
      problems.add(
          new OptionProblem(
              option.key(), OptionMessages.invalidValue(option.key(), value, allowed)));
    }

    // ---- keys ----

    /** Returns the format when it is set and supported, else null (and records the problem). */
    private String checkFormat() {
      List<String> supported = FormatCatalog.installed().names();
      String format = options.get(TableOptions.FORMAT);
      if (format == null) {
        problems.add(
            new OptionProblem(
                TableOptions.FORMAT,
                "Missing required option 'format'; supported: " + String.join(", ", supported)));
        return null;
      }
      if (!supported.contains(format)) {
        String hint =
            supported.contains(format.trim().toLowerCase(Locale.ROOT))
                ? " (write it as '" + format.trim().toLowerCase(Locale.ROOT) + "')"
                : "";
        problems.add(
            new OptionProblem(
                TableOptions.FORMAT,
                "Unsupported format '"
                    + format
                    + "' (option 'format')"
                    + hint
                    + "; supported: "
                    + String.join(", ", supported)));
        return null;
      }
      return format;
    }

    private void checkKeysKnown(String format) {
      for (String key : options.keySet()) {
        if (OptionKey.forKey(key).isPresent()) {
          continue;
        }
        int dot = key.indexOf('.');
        String prefix = dot > 0 ? key.substring(0, dot) : null;
        if (prefix != null && prefix.equals(format)) {
          continue; // the format checks its own options: checkFormatOptions
        }
        if (prefix != null && FormatCatalog.installed().names().contains(prefix)) {
          String formatText =
              format != null
                  ? "the table's format is '" + format + "'"
                  : "'format' is not '" + prefix + "'";
          problems.add(
              new OptionProblem(
                  key,
                  "Option '"
                      + key
                      + "' belongs to format '"
                      + prefix
                      + "', but "
                      + formatText
                      + "; remove it or use options of the table's own format"));
          continue;
        }
        problems.add(new OptionProblem(key, unknownKeyMessage(key, format)));
      }
    }

    /**
     * Lets the table's format read its options, as it will when the table is used, so a bad format
     * option fails at definition. The problem is reported at the key the message names first.
     */
    private void checkFormatOptions(String format) {
      try {
        FormatCatalog.installed().check(format, TableOptions.formatOptions(options, format));
      } catch (TableDefinitionException e) {
        problems.add(new OptionProblem(keyNamedFirst(e.getMessage(), format), e.getMessage()));
      }
    }

    /** The {@code <format>.*} key quoted earliest in {@code message}; 'format' if it names none. */
    private String keyNamedFirst(String message, String format) {
      String named = TableOptions.FORMAT;
      int first = Integer.MAX_VALUE;
      for (String key : options.keySet()) {
        int at = key.startsWith(format + ".") ? message.indexOf("'" + key + "'") : -1;
        if (at >= 0 && at < first) {
          first = at;
          named = key;
        }
      }
      return named;
    }

    private String unknownKeyMessage(String key, String format) {
      List<String> candidates =
          Arrays.stream(OptionKey.values()).map(OptionKey::key).collect(Collectors.toList());
      int dot = key.indexOf('.');
      if (format != null && dot > 0) {
        // a misspelt format prefix, e.g. 'cvs.field-delimiter' on a csv table
        candidates.add(format + key.substring(dot));
      }
      Optional<String> closest = KeySuggestions.closest(key, candidates);
      if (closest.isPresent()) {
        return OptionMessages.unknownOption(key, closest);
      }
      String formatKeys =
          format != null
              ? "'" + format + ".*' options of the table's format"
              : "'<format>.*' options";
      return OptionMessages.unknownOption(key, closest)
          + " Supported options: "
          + Arrays.stream(OptionKey.values()).map(OptionKey::key).collect(Collectors.joining(", "))
          + ", and "
          + formatKeys;
    }

    // ---- connector, path ----

    private void checkConnector() {
      String connector = options.get(TableOptions.CONNECTOR);
      if (connector != null && !connector.equals(FILESYSTEM)) {
        problems.add(
            new OptionProblem(
                TableOptions.CONNECTOR,
                "Unsupported connector '"
                    + connector
                    + "' (option 'connector'): FileTables implements only 'connector' = 'filesystem';"
                    + " other connectors are not supported by FileTables"));
      }
    }

    private void checkPath() {
      String path = options.get(TableOptions.PATH);
      if (path == null) {
        problems.add(
            new OptionProblem(
                TableOptions.PATH,
                "Missing required option 'path': the table root directory, a plain path or a"
                    + " file:///... URI"));
        return;
      }
      if (path.isBlank()) {
        problems.add(
            new OptionProblem(
                TableOptions.PATH,
                "Option 'path' is blank; give the table root directory, a plain path or a"
                    + " file:///... URI"));
        return;
      }
      if (!path.equals(path.strip())) {
        problems.add(
            new OptionProblem(
                TableOptions.PATH,
                "Option 'path' = '" + path + "' has leading or trailing whitespace; remove it"));
        return;
      }
      Path local;
      try {
        local = localPath(path);
      } catch (TableDefinitionException e) {
        problems.add(new OptionProblem(TableOptions.PATH, e.getMessage()));
        return;
      }
      Path absolute = local.toAbsolutePath().normalize();
      if (Files.isRegularFile(absolute)) {
        problems.add(
            new OptionProblem(
                TableOptions.PATH, "path '" + path + "' is a file; a table path is a directory"));
        return;
      }
      for (Path segment : absolute) {
        String name = segment.toString();
        if (name.indexOf('=') > 0) {
          problems.add(
              new OptionProblem(
                  TableOptions.PATH,
                  "Option 'path' = '"
                      + path
                      + "' has a directory '"
                      + name
                      + "' that looks like a partition directory (name=value): independent readers"
                      + " such as DuckDB or Spark would take it for a partition column above the table"
                      + " root; choose a table path without '=' in its directory names"));
          return;
        }
      }
    }

    // ---- values ----

    private void checkPartitionDefaultName() {
      String name = options.get(TableOptions.PARTITION_DEFAULT_NAME);
      if (name == null) {
        return;
      }
      if (name.isEmpty()) {
        problem(OptionKey.PARTITION_DEFAULT_NAME, name, "must not be empty");
        return;
      }
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (hiveEscapes(c)) {
          String shown =
              c < 0x20 || c == 0x7F ? String.format("\\u%04X", (int) c) : String.valueOf(c);
          problem(
              OptionKey.PARTITION_DEFAULT_NAME,
              name,
              "contains '"
                  + shown
                  + "', which partition directory names escape; use a name without control"
                  + " characters and without any of \" # % ' * / : = ? \\ { } [ ] ^");
          return;
        }
      }
    }

    private void checkBadRecords(String format) {
      String value = options.get(TableOptions.SOURCE_BAD_RECORDS);
      String deadLetterPath = options.get(TableOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH);
      BadRecordPolicy policy = null;
      if (value != null) {
        policy = BadRecordPolicy.parse(value).orElse(null);
        if (policy == null) {
          problem(
              OptionKey.SOURCE_BAD_RECORDS,
              value,
              "expected one of " + String.join(", ", BadRecordPolicy.optionValues()));
          return;
        }
        if (format != null
            && policy != BadRecordPolicy.SKIP
            && TableOptions.formatIgnoresParseErrors(options, format)) {
          problems.add(
              new OptionProblem(
                  TableOptions.SOURCE_BAD_RECORDS,
                  "Option 'source.bad-records' = '"
                      + value
                      + "' contradicts '"
                      + format
                      + ".ignore-parse-errors' = 'true' (which means skip); remove '"
                      + format
                      + ".ignore-parse-errors' or set 'source.bad-records' = 'skip'"));
        }
      }
      if (policy == BadRecordPolicy.DEAD_LETTER && deadLetterPath == null) {
        problems.add(
            new OptionProblem(
                TableOptions.SOURCE_BAD_RECORDS,
                "Option 'source.bad-records' = 'dead-letter' requires option"
                    + " 'source.bad-records.dead-letter.path': the root directory of the dead-letter"
                    + " table, outside the table's path"));
        return;
      }
      if (deadLetterPath == null) {
        return;
      }
      if (policy != BadRecordPolicy.DEAD_LETTER) {
        problems.add(
            new OptionProblem(
                TableOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
                "Option 'source.bad-records.dead-letter.path' is set but 'source.bad-records' is "
                    + (value == null ? "unset (fail)" : "'" + value + "'")
                    + "; set 'source.bad-records' = 'dead-letter' to write bad records there, or"
                    + " remove the path"));
        return;
      }
      Path deadLetters;
      try {
        deadLetters = localPath(deadLetterPath).toAbsolutePath().normalize();
      } catch (TableDefinitionException e) {
        problems.add(
            new OptionProblem(
                TableOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
                e.getMessage()
                    .replace("Option 'path'", "Option 'source.bad-records.dead-letter.path'")));
        return;
      }
      if (Files.isRegularFile(deadLetters)) {
        problem(
            OptionKey.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
            deadLetterPath,
            "is a file; the dead-letter table root is a directory");
        return;
      }
      String tablePath = options.get(TableOptions.PATH);
      if (tablePath == null || tablePath.isBlank()) {
        return;
      }
      Path table;
      try {
        table = localPath(tablePath).toAbsolutePath().normalize();
      } catch (TableDefinitionException e) {
        return; // reported by checkPath
      }
      if (deadLetters.startsWith(table) || table.startsWith(deadLetters)) {
        problem(
            OptionKey.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
            deadLetterPath,
            "overlaps the table's path '"
                + tablePath
                + "': the table would read its own dead letters as data; choose a directory outside it");
      }
    }

    private void checkRegex(String value) {
      try {
        Pattern.compile(value);
      } catch (PatternSyntaxException e) {
        problem(
            OptionKey.SOURCE_PATH_REGEX_PATTERN,
            value,
            "not a valid Java regular expression: "
                + e.getDescription()
                + " near index "
                + e.getIndex());
      }
    }

    private void duration(OptionKey option, String value, boolean positive) {
      Duration duration;
      try {
        duration = Durations.parse(value);
      } catch (TableDefinitionException e) {
        problem(option, value, "expected " + Durations.ACCEPTED_FORMS);
        return;
      }
      if (positive && duration.isZero()) {
        problem(option, value, "must be greater than 0, e.g. '30 min'");
      }
    }

    private void size(OptionKey option, String value) {
      long bytes;
      try {
        bytes = MemorySizes.parse(value);
      } catch (TableDefinitionException e) {
        problem(option, value, "expected " + MemorySizes.ACCEPTED_FORMS);
        return;
      }
      if (bytes <= 0) {
        problem(option, value, "must be greater than 0, e.g. '128MB'");
      }
    }

    private void bool(OptionKey option, String value) {
      String v = value.trim();
      if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
        problem(option, value, "expected true or false");
      }
    }

    private void checkParallelism(String value) {
      int parallelism;
      try {
        parallelism = Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        problem(OptionKey.SINK_PARALLELISM, value, "expected a whole number >= 1");
        return;
      }
      if (parallelism < 1) {
        problem(OptionKey.SINK_PARALLELISM, value, "must be >= 1");
      }
    }

    private void oneOf(OptionKey option, String value, List<String> allowed) {
      if (!allowed.contains(value.trim().toLowerCase(Locale.ROOT))) {
        problem(option, value, "expected one of " + String.join(", ", allowed));
      }
    }

    private void checkTimeExtractor() {
      String kind = options.get(TableOptions.TIME_EXTRACTOR_KIND);
      if (kind != null) {
        oneOf(OptionKey.TIME_EXTRACTOR_KIND, kind, EXTRACTOR_KINDS);
      }
      ifSet(
          OptionKey.TIME_EXTRACTOR_CLASS,
          v -> notBlank(OptionKey.TIME_EXTRACTOR_CLASS, v, "a class name"));
      if (kind != null
          && kind.trim().equalsIgnoreCase("custom")
          && isBlank(options.get(TableOptions.TIME_EXTRACTOR_CLASS))) {
        problems.add(
            new OptionProblem(
                TableOptions.TIME_EXTRACTOR_KIND,
                "Option 'partition.time-extractor.kind' = '"
                    + kind
                    + "' requires option 'partition.time-extractor.class' (the extractor class)"));
      }
      ifSet(
          OptionKey.TIME_EXTRACTOR_PATTERN,
          v ->
              notBlank(OptionKey.TIME_EXTRACTOR_PATTERN, v, "a pattern such as '$dt $hour:00:00'"));
      ifSet(
          OptionKey.TIME_EXTRACTOR_FORMATTER,
          v -> {
            try {
              DateTimeFormatter.ofPattern(v);
            } catch (IllegalArgumentException e) {
              problem(
                  OptionKey.TIME_EXTRACTOR_FORMATTER,
                  v,
                  "not a valid java.time pattern (" + e.getMessage() + "); e.g. 'yyyyMMdd'");
            }
          });
    }

    /**
     * The column's existence and type are checked against the schema by the sink
     * (PartitionDeriver).
     */
    private void checkPartitionDerive() {
      String column = options.get(TableOptions.PARTITION_DERIVE_TIME_COLUMN);
      if (column == null) {
        return;
      }
      if (column.isBlank()) {
        problem(
            OptionKey.PARTITION_DERIVE_TIME_COLUMN,
            column,
            "must not be blank; expected the name of a TIMESTAMP or TIMESTAMP_LTZ column");
        return;
      }
      String kind = options.get(TableOptions.TIME_EXTRACTOR_KIND);
      if (kind != null && kind.trim().equalsIgnoreCase("custom")) {
        problem(
            OptionKey.PARTITION_DERIVE_TIME_COLUMN,
            column,
            "partition values are derived with the default time extractor's"
                + " 'partition.time-extractor.timestamp-pattern' and '...timestamp-formatter'; a custom"
                + " extractor ('partition.time-extractor.kind' = 'custom') cannot be inverted");
      }
    }

    private void checkZone(String value) {
      try {
        ZoneId.of(value.trim());
      } catch (DateTimeException e) {
        problem(
            OptionKey.COMMIT_WATERMARK_TIME_ZONE,
            value,
            "not a time zone id; use a region such as 'Asia/Shanghai' or 'America/Los_Angeles',"
                + " 'UTC', or an offset such as 'GMT+08:00'");
      }
    }

    private void checkCommitPolicies() {
      String value = options.get(TableOptions.COMMIT_POLICY_KIND);
      if (value == null) {
        return;
      }
      List<String> kinds = TableOptions.splitList(value);
      if (kinds.isEmpty()) {
        problem(
            OptionKey.COMMIT_POLICY_KIND, value, "expected a comma list of success-file, custom");
        return;
      }
      for (String kind : kinds) {
        if (kind.equals("metastore")) {
          problem(
              OptionKey.COMMIT_POLICY_KIND,
              value,
              "metastore is for Hive tables; FileTables supports success-file and custom");
        } else if (!COMMIT_POLICIES.contains(kind)) {
          problem(
              OptionKey.COMMIT_POLICY_KIND,
              value,
              "unknown policy '" + kind + "'; expected a comma list of success-file, custom");
        }
      }
      ifSet(
          OptionKey.COMMIT_POLICY_CLASS,
          v -> notBlank(OptionKey.COMMIT_POLICY_CLASS, v, "a class name"));
      if (kinds.contains("custom") && isBlank(options.get(TableOptions.COMMIT_POLICY_CLASS))) {
        problems.add(
            new OptionProblem(
                TableOptions.COMMIT_POLICY_KIND,
                "Option 'sink.partition-commit.policy.kind' = '"
                    + value
                    + "' lists custom, which requires option 'sink.partition-commit.policy.class'"
                    + " (the policy class)"));
      }
    }

    private void checkSuccessFileName(String value) {
      if (value.isEmpty() || value.indexOf('/') >= 0 || value.indexOf('\\') >= 0) {
        problem(
            OptionKey.COMMIT_SUCCESS_FILE_NAME,
            value,
            "must be a non-empty file name without '/' or '\\', e.g. '_SUCCESS'");
      } else if (!value.startsWith("_") && !value.startsWith(".")) {
        // Readers skip names starting with '_' or '.'; any other success file would be read as
        // data.
        problem(
            OptionKey.COMMIT_SUCCESS_FILE_NAME,
            value,
            "must start with '_' or '.' so that readers skip it as a data file, e.g. '_SUCCESS'");
      }
    }

    private void notBlank(OptionKey option, String value, String what) {
      if (value.isBlank()) {
        problem(option, value, "must not be blank; expected " + what);
      }
    }
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }

  /** True when Hive's partition-value escaping would replace {@code c} with {@code %XX}. */
  static boolean hiveEscapes(char c) {
    return dev.filetables.io.partition.PartitionPath.needsEscape(c);
  }

  /**
   * The local path of a {@code path} option: a plain path or an absolute {@code file:} URI without
   * a host. Any other form fails with a message saying what is supported.
   */
  static Path localPath(String path) {
    Matcher scheme = SCHEME.matcher(path);
    if (!scheme.find()) {
      try {
        return Path.of(path);
      } catch (InvalidPathException e) {
        throw new TableDefinitionException(
            "Option 'path' = '" + path + "' is not a valid local path: " + e.getReason());
      }
    }
    String name = scheme.group(1);
    if (!name.equalsIgnoreCase("file")) {
      throw new TableDefinitionException(
          "Option 'path' = '"
              + path
              + "' uses the '"
              + name
              + "' file system; FileTables supports only the local file system for now: use a plain"
              + " path or a file: URI such as file:///data/orders");
    }
    URI uri;
    try {
      uri = new URI(path);
    } catch (URISyntaxException e) {
      throw new TableDefinitionException(
          "Option 'path' = '"
              + path
              + "' is not a valid file: URI ("
              + e.getReason()
              + "); percent-encode special characters such as spaces (%20) or use a plain path");
    }
    if (uri.isOpaque() || uri.getPath() == null || !uri.getPath().startsWith("/")) {
      throw new TableDefinitionException(
          "Option 'path' = '"
              + path
              + "' is a relative file: URI; a file: URI must be absolute, e.g. file:///data/orders"
              + " (or use a plain relative path)");
    }
    if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
      throw new TableDefinitionException(
          "Option 'path' = '"
              + path
              + "' names host '"
              + uri.getAuthority()
              + "'; FileTables supports only the local file system: use file:///... (three slashes)");
    }
    if (uri.getQuery() != null || uri.getFragment() != null) {
      throw new TableDefinitionException(
          "Option 'path' = '"
              + path
              + "' has a query or fragment ('?' or '#'); percent-encode them");
    }
    try {
      return Path.of(new URI("file", null, uri.getPath(), null));
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new TableDefinitionException(
          "Option 'path' = '" + path + "' is not a usable file: URI: " + e.getMessage());
    }
  }
}
