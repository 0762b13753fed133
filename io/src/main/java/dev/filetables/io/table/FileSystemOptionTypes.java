package dev.filetables.io.table;

import dev.filetables.io.partition.PartitionPath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The value types whose rules belong to one key of {@link FileSystemOptions}: the connector, the
 * table path, the format name, and the names and lists with rules of their own.
 */
final class FileSystemOptionTypes {
  private FileSystemOptionTypes() {}

  static final String FILESYSTEM = "filesystem";
  static final List<String> COMMIT_POLICIES = List.of("success-file", "custom");

  static final OptionType<String> CONNECTOR =
      OptionTypes.of(
          "string",
          (key, value) -> {
            if (!value.equals(FILESYSTEM)) {
              throw InvalidValueException.withMessage(
                  "Unsupported connector '"
                      + value
                      + "' (option '"
                      + key
                      + "'): FileTables implements only 'connector' = 'filesystem'; other"
                      + " connectors are not supported by FileTables");
            }
            return value;
          },
          v -> v);

  /** A format of the {@link FormatCatalog}, exactly as its name is spelt. */
  static final OptionType<String> FORMAT =
      OptionTypes.of(
          "string",
          (key, value) -> {
            List<String> supported = FormatCatalog.installed().names();
            if (supported.contains(value)) {
              return value;
            }
            String normalised = value.trim().toLowerCase(Locale.ROOT);
            String hint =
                supported.contains(normalised) ? " (write it as '" + normalised + "')" : "";
            throw InvalidValueException.withMessage(
                "Unsupported format '"
                    + value
                    + "' (option '"
                    + key
                    + "')"
                    + hint
                    + "; supported: "
                    + String.join(", ", supported));
          },
          v -> v);

  /**
   * The table root, exactly as given, once its form is checked: not blank, no surrounding
   * whitespace, a local path or {@code file:} URI ({@link TableLocations}). Where it resolves to (a
   * relative path depends on the working directory) is checked by the validator.
   */
  static final OptionType<String> TABLE_PATH =
      OptionTypes.of(
          "string",
          (key, value) -> {
            if (value.isBlank()) {
              throw InvalidValueException.withMessage(
                  "Option '"
                      + key
                      + "' is blank; give the table root directory, a plain path or a file:///..."
                      + " URI");
            }
            if (!value.equals(value.strip())) {
              throw InvalidValueException.withMessage(
                  "Option '"
                      + key
                      + "' = '"
                      + value
                      + "' has leading or trailing whitespace; remove it");
            }
            localPath(key, value);
            return value;
          },
          v -> v);

  /** A local directory path or {@code file:} URI, as a path ({@link TableLocations}). */
  static final OptionType<Path> LOCAL_PATH =
      OptionTypes.of("string", FileSystemOptionTypes::localPath, Path::toString);

  private static Path localPath(String key, String value) {
    try {
      return TableLocations.of(key, value);
    } catch (TableDefinitionException e) {
      throw InvalidValueException.withMessage(e.getMessage());
    }
  }

  /** A partition directory value that Hive's escaping leaves unchanged, so it reads back. */
  static final OptionType<String> PARTITION_DIRECTORY_VALUE =
      OptionTypes.of(
          "string",
          (key, value) -> {
            if (value.isEmpty()) {
              throw InvalidValueException.of(key, value, "must not be empty");
            }
            for (int i = 0; i < value.length(); i++) {
              char c = value.charAt(i);
              if (PartitionPath.needsEscape(c)) {
                String shown =
                    c < 0x20 || c == 0x7F ? String.format("\\u%04X", (int) c) : String.valueOf(c);
                throw InvalidValueException.of(
                    key,
                    value,
                    "contains '"
                        + shown
                        + "', which partition directory names escape; use a name without control"
                        + " characters and without any of \" # % ' * / : = ? \\ { } [ ] ^");
              }
            }
            return value;
          },
          v -> v);

  /** A file name that readers skip as a data file. */
  static final OptionType<String> SUCCESS_FILE_NAME =
      OptionTypes.of(
          "string",
          (key, value) -> {
            if (value.isEmpty() || value.indexOf('/') >= 0 || value.indexOf('\\') >= 0) {
              throw InvalidValueException.of(
                  key, value, "must be a non-empty file name without '/' or '\\', e.g. '_SUCCESS'");
            }
            if (!value.startsWith("_") && !value.startsWith(".")) {
              // Readers skip names starting with '_' or '.'; any other success file would be read
              // as data.
              throw InvalidValueException.of(
                  key,
                  value,
                  "must start with '_' or '.' so that readers skip it as a data file, e.g."
                      + " '_SUCCESS'");
            }
            return value;
          },
          v -> v);

  /**
   * A comma list of commit policies, trimmed and lower case, in the listed order; every bad entry
   * is reported.
   */
  static final OptionType<List<String>> COMMIT_POLICY_LIST =
      OptionTypes.of(
          "string",
          (key, value) -> {
            List<String> kinds = OptionTypes.splitList(value);
            if (kinds.isEmpty()) {
              throw InvalidValueException.of(
                  key, value, "expected a comma list of success-file, custom");
            }
            List<String> problems = new ArrayList<>();
            for (String kind : kinds) {
              if (kind.equals("metastore")) {
                problems.add(
                    "metastore is for Hive tables; FileTables supports success-file and custom");
              } else if (!COMMIT_POLICIES.contains(kind)) {
                problems.add(
                    "unknown policy '" + kind + "'; expected a comma list of success-file, custom");
              }
            }
            if (!problems.isEmpty()) {
              throw InvalidValueException.of(key, value, problems.toArray(String[]::new));
            }
            return kinds;
          },
          kinds -> String.join(",", kinds));
}
