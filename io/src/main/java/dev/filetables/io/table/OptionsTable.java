package dev.filetables.io.table;

import java.util.List;

/**
 * The Markdown table of the table options ({@code | key | type | default | meaning |}) in
 * documentation order: the README's options table is this text (ReadmeOptionsTableTest).
 */
final class OptionsTable {
  private OptionsTable() {}

  /** The table of every option of {@link FileSystemOptions}. */
  static String markdown() {
    return markdown(FileSystemOptions.all());
  }

  static String markdown(List<TableOption<?>> options) {
    StringBuilder table =
        new StringBuilder("| key | type | default | meaning |\n|---|---|---|---|\n");
    for (TableOption<?> option : options) {
      table
          .append("| `")
          .append(option.key())
          .append("` | ")
          .append(option.type().displayName())
          .append(" | ")
          .append(defaultCell(option))
          .append(" | ")
          .append(meaning(option).replace("|", "\\|"))
          .append(" |\n");
    }
    return table.toString();
  }

  /** A default value is code ({@code `128MB`}); {@code required}, {@code unset} etc. are words. */
  private static String defaultCell(TableOption<?> option) {
    return option.defaultValueText().map(v -> "`" + v + "`").orElse(option.defaultText());
  }

  private static String meaning(TableOption<?> option) {
    return option.description() + (option.fileTablesOnly() ? " (FileTables only)" : "");
  }
}
