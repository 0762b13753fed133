package dev.filetables.io.table;

import static dev.filetables.io.table.FileSystemOptions.COMMIT_POLICY_CLASS;
import static dev.filetables.io.table.FileSystemOptions.COMMIT_POLICY_KIND;
import static dev.filetables.io.table.FileSystemOptions.CONNECTOR;
import static dev.filetables.io.table.FileSystemOptions.FORMAT;
import static dev.filetables.io.table.FileSystemOptions.PARTITION_DERIVE_TIME_COLUMN;
import static dev.filetables.io.table.FileSystemOptions.PATH;
import static dev.filetables.io.table.FileSystemOptions.SOURCE_BAD_RECORDS;
import static dev.filetables.io.table.FileSystemOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH;
import static dev.filetables.io.table.FileSystemOptions.TIME_EXTRACTOR_CLASS;
import static dev.filetables.io.table.FileSystemOptions.TIME_EXTRACTOR_KIND;

import dev.filetables.io.files.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a table's option map; every problem found is reported, not only the first. Each value is
 * checked by its declaration in {@link FileSystemOptions}; this class adds what no single
 * declaration can know: unknown keys, the format's own options, rules that involve several keys,
 * and the file system (a table root must not be a file).
 */
final class TableOptionsValidator {
  private TableOptionsValidator() {}

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

  /**
   * Options whose value is checked by a rule below rather than in declaration order: connector and
   * format decide what else is checked, and a dead-letter path is only worth checking when bad
   * records go there (otherwise the one problem is that it is set).
   */
  private static final Set<TableOption<?>> CHECKED_BY_RULES =
      Set.of(CONNECTOR, FORMAT, SOURCE_BAD_RECORDS_DEAD_LETTER_PATH);

  /** One validation run; collects problems into the given list. */
  private static final class Run {
    private final Map<String, String> options;
    private final List<OptionProblem> problems;

    Run(Map<String, String> options, List<OptionProblem> problems) {
      this.options = options;
      this.problems = problems;
    }

    void checkAll() {
      if (!check(CONNECTOR)) {
        return; // the other options are another connector's; checking them would only add noise
      }
      String format = check(FORMAT) ? options.get(FORMAT.key()) : null;
      checkKeysKnown(format);
      if (format != null) {
        checkFormatOptions(format);
      }
      for (TableOption<?> option : FileSystemOptions.all()) {
        if (!CHECKED_BY_RULES.contains(option)) {
          check(option);
        }
      }
      checkTableRoot();
      checkBadRecords(format);
      checkCustomClassesGiven();
      checkPartitionDerive();
    }

    /** Checks one option's value (or absence) against its declaration; true if it is fine. */
    private boolean check(TableOption<?> option) {
      String value = options.get(option.key());
      if (value == null) {
        if (option.required()) {
          problems.add(new OptionProblem(option.key(), option.missingMessage()));
        }
        return !option.required();
      }
      try {
        option.parse(value);
        return true;
      } catch (InvalidValueException e) {
        e.messages().forEach(m -> problems.add(new OptionProblem(option.key(), m)));
        return false;
      } catch (TableDefinitionException e) {
        problems.add(new OptionProblem(option.key(), e.getMessage()));
        return false;
      }
    }

    /** The value of {@code option} when it is given and valid (else it was reported, or unset). */
    private <T> Optional<T> valid(TableOption<T> option) {
      String value = options.get(option.key());
      if (value == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(option.parse(value));
      } catch (TableDefinitionException e) {
        return Optional.empty();
      }
    }

    private boolean givenButInvalid(TableOption<?> option) {
      return options.containsKey(option.key()) && valid(option).isEmpty();
    }

    private void problem(TableOption<?> option, String message) {
      problems.add(new OptionProblem(option.key(), message));
    }

    /** {@code Invalid value '<value>' for option '<key>': <problem>}, for the given value. */
    private void invalidValue(TableOption<?> option, String problem) {
      problem(
          option, OptionMessages.invalidValue(option.key(), options.get(option.key()), problem));
    }

    // ---- keys ----

    private void checkKeysKnown(String format) {
      List<String> formats = FormatCatalog.installed().names();
      for (String key : options.keySet()) {
        if (FileSystemOptions.forKey(key).isPresent()) {
          continue;
        }
        int dot = key.indexOf('.');
        String prefix = dot > 0 ? key.substring(0, dot) : null;
        if (prefix != null && prefix.equals(format)) {
          continue; // the format checks its own options: checkFormatOptions
        }
        if (prefix != null && formats.contains(prefix)) {
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
      String named = FORMAT.key();
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
      List<String> known =
          FileSystemOptions.all().stream().map(TableOption::key).collect(Collectors.toList());
      List<String> candidates = new ArrayList<>(known);
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
          + String.join(", ", known)
          + ", and "
          + formatKeys;
    }

    // ---- rules beyond one value ----

    /**
     * The table root must be a directory, and no directory above it may look like a partition. Both
     * depend on where the path resolves (the file system, the working directory), not only on its
     * text, so they are checked here, once, and not by the getters.
     */
    private void checkTableRoot() {
      Optional<String> path = valid(PATH);
      if (path.isEmpty()) {
        return;
      }
      Path absolute = absolute(PATH, path.get());
      // Only local paths are checked here: a store is not contacted while a DDL is read (the
      // table's first listing reports a path that is a file).
      if (!Stores.isStore(absolute) && Files.isRegularFile(absolute)) {
        problem(PATH, "path '" + path.get() + "' is a file; a table path is a directory");
        return;
      }
      for (Path segment : absolute) {
        String name = segment.toString();
        if (name.indexOf('=') > 0) {
          problem(
              PATH,
              "Option 'path' = '"
                  + path.get()
                  + "' has a directory '"
                  + name
                  + "' that looks like a partition directory (name=value): independent readers"
                  + " such as DuckDB or Spark would take it for a partition column above the table"
                  + " root; choose a table path without '=' in its directory names");
          return;
        }
      }
    }

    private void checkBadRecords(String format) {
      if (givenButInvalid(SOURCE_BAD_RECORDS)) {
        return; // reported as a bad value; the rules below would guess at the meant policy
      }
      BadRecordPolicy policy = valid(SOURCE_BAD_RECORDS).orElse(null); // null: unset
      String policyText = options.get(SOURCE_BAD_RECORDS.key());
      if (policy != null
          && policy != BadRecordPolicy.SKIP
          && format != null
          && TableOptions.formatIgnoresParseErrors(options, format)) {
        problem(
            SOURCE_BAD_RECORDS,
            "Option 'source.bad-records' = '"
                + policyText
                + "' contradicts '"
                + format
                + ".ignore-parse-errors' = 'true' (which means skip); remove '"
                + format
                + ".ignore-parse-errors' or set 'source.bad-records' = 'skip'");
      }
      boolean pathGiven = options.containsKey(SOURCE_BAD_RECORDS_DEAD_LETTER_PATH.key());
      if (policy == BadRecordPolicy.DEAD_LETTER && !pathGiven) {
        problem(
            SOURCE_BAD_RECORDS,
            "Option 'source.bad-records' = 'dead-letter' requires option"
                + " 'source.bad-records.dead-letter.path': the root directory of the dead-letter"
                + " table, outside the table's path");
        return;
      }
      if (!pathGiven) {
        return;
      }
      if (policy != BadRecordPolicy.DEAD_LETTER) {
        problem(
            SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
            "Option 'source.bad-records.dead-letter.path' is set but 'source.bad-records' is "
                + (policyText == null ? "unset (fail)" : "'" + policyText + "'")
                + "; set 'source.bad-records' = 'dead-letter' to write bad records there, or"
                + " remove the path");
        return;
      }
      if (!check(SOURCE_BAD_RECORDS_DEAD_LETTER_PATH)) {
        return;
      }
      Optional<Path> deadLetters =
          valid(SOURCE_BAD_RECORDS_DEAD_LETTER_PATH).map(p -> p.toAbsolutePath().normalize());
      if (!Stores.isStore(deadLetters.get()) && Files.isRegularFile(deadLetters.get())) {
        invalidValue(
            SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
            "is a file; the dead-letter table root is a directory");
        return;
      }
      Optional<String> tablePath = valid(PATH);
      if (tablePath.isEmpty()) {
        return; // reported as a bad value
      }
      Path table = absolute(PATH, tablePath.get());
      if (deadLetters.get().startsWith(table) || table.startsWith(deadLetters.get())) {
        invalidValue(
            SOURCE_BAD_RECORDS_DEAD_LETTER_PATH,
            "overlaps the table's path '"
                + tablePath.get()
                + "': the table would read its own dead letters as data; choose a directory outside"
                + " it");
      }
    }

    /** A custom time extractor or commit policy needs its class. */
    private void checkCustomClassesGiven() {
      if (valid(TIME_EXTRACTOR_KIND).filter("custom"::equals).isPresent()
          && valid(TIME_EXTRACTOR_CLASS).isEmpty()) {
        problem(
            TIME_EXTRACTOR_KIND,
            "Option 'partition.time-extractor.kind' = '"
                + options.get(TIME_EXTRACTOR_KIND.key())
                + "' requires option 'partition.time-extractor.class' (the extractor class)");
      }
      if (valid(COMMIT_POLICY_KIND).filter(kinds -> kinds.contains("custom")).isPresent()
          && valid(COMMIT_POLICY_CLASS).isEmpty()) {
        problem(
            COMMIT_POLICY_KIND,
            "Option 'sink.partition-commit.policy.kind' = '"
                + options.get(COMMIT_POLICY_KIND.key())
                + "' lists custom, which requires option 'sink.partition-commit.policy.class'"
                + " (the policy class)");
      }
    }

    /**
     * Partition values are derived by inverting the default time extractor. The column's existence
     * and type are checked against the schema by the sink (PartitionDeriver).
     */
    private void checkPartitionDerive() {
      if (valid(PARTITION_DERIVE_TIME_COLUMN).isPresent()
          && valid(TIME_EXTRACTOR_KIND).filter("custom"::equals).isPresent()) {
        invalidValue(
            PARTITION_DERIVE_TIME_COLUMN,
            "partition values are derived with the default time extractor's"
                + " 'partition.time-extractor.timestamp-pattern' and '...timestamp-formatter'; a"
                + " custom extractor ('partition.time-extractor.kind' = 'custom') cannot be"
                + " inverted");
      }
    }

    private static Path absolute(TableOption<String> option, String path) {
      return TableLocations.of(option.key(), path).toAbsolutePath().normalize();
    }
  }
}
