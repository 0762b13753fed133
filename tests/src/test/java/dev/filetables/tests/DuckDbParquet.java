package dev.filetables.tests;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB reading a table's Parquet files as plain local files, partition columns from the
 * Hive-style paths: a reader with no FileTables code in between.
 */
final class DuckDbParquet {
  private DuckDbParquet() {}

  /** One row as a line of text, in the test's own canonical form. */
  @FunctionalInterface
  interface RowFormat {
    String line(ResultSet row) throws SQLException;
  }

  /**
   * The {@code columns} of every row under {@code root}, one line each, sorted: a multiset to
   * compare with the input's.
   */
  static List<String> sortedRows(Path root, String columns, RowFormat format) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT "
                    + columns
                    + " FROM read_parquet('"
                    + root
                    + "/**/*.parquet', hive_partitioning = true, hive_types_autocast = false)")) {
      while (rs.next()) {
        rows.add(format.line(rs));
      }
    }
    rows.sort(null);
    return rows;
  }
}
