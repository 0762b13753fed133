package dev.filetables.transforms;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.values.Row;

/**
 * A dead-letter table as DuckDB reads it, with its own listing (hidden {@code .}/{@code _} names
 * skipped): each row as {@code source_file|line_number|kind|byte_offset|raw_base64}, sorted, so it
 * compares as a multiset with what FileTables reads ({@link #keysOf}).
 */
public final class DuckDbDeadLetters {
  private DuckDbDeadLetters() {}

  /** The visible dead-letter rows under {@code root}, read by DuckDB. */
  public static List<String> rows(Path root) throws Exception {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<String> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(Files::isRegularFile)
              .filter(p -> !hidden(root.relativize(p)))
              .map(p -> "'" + p.toString().replace("'", "''") + "'")
              .collect(Collectors.toList());
    }
    if (files.isEmpty()) {
      return List.of();
    }
    List<String> rows = new ArrayList<>();
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT source_file, line_number, kind, byte_offset, raw_base64 FROM read_json(["
                    + String.join(", ", files)
                    + "], format = 'newline_delimited')")) {
      while (result.next()) {
        rows.add(
            String.join(
                "|",
                String.valueOf(result.getString(1)),
                String.valueOf(result.getString(2)),
                String.valueOf(result.getString(3)),
                String.valueOf(result.getString(4)),
                String.valueOf(result.getString(5))));
      }
    }
    rows.sort(null);
    return rows;
  }

  /** The same keys of dead-letter rows FileTables read, sorted. */
  public static List<String> keysOf(List<Row> deadLetters) {
    return deadLetters.stream()
        .map(
            r ->
                String.join(
                    "|",
                    String.valueOf(r.getString("source_file")),
                    String.valueOf(r.getInt64("line_number")),
                    String.valueOf(r.getString("kind")),
                    String.valueOf(r.getInt64("byte_offset")),
                    String.valueOf(r.getString("raw_base64"))))
        .sorted()
        .collect(Collectors.toList());
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      if (part.toString().startsWith(".") || part.toString().startsWith("_")) {
        return true;
      }
    }
    return false;
  }
}
