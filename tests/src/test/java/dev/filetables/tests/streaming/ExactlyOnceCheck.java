package dev.filetables.tests.streaming;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.TableContents;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Compares what readers of an orders table see with the rows {@code 0 .. totalRows-1} of {@link
 * Orders}: every row id at most once (no duplicates), each with exactly its expected values and
 * partition (no corruption), every visible file complete (it reads without error) and, for a
 * finished write, every id present (no loss). Also counts the hidden files readers skip.
 *
 * <p>Two readers judge: FileTables' own ({@link TableContents}) and an {@link IndependentReader}
 * (DuckDB, or Avro's own reader) with its own listing, whose rows are compared with the expected
 * ones as a multiset of whole rows. A writer/reader pair sharing a bug fails on the second.
 */
final class ExactlyOnceCheck {
  private static final int EXAMPLES = 10;

  final String table;
  final long totalRows;
  final TableContents contents;
  final long visibleRows;
  final long distinctRows;
  final long duplicateRows;
  final List<Long> duplicateExamples;
  final long missingRows;
  final List<Long> missingExamples;
  final List<String> wrongRows;
  final List<String> unexpectedRows;

  /** What the independent reader saw, against the expected rows. */
  final IndependentReader.Verdict independent;

  private ExactlyOnceCheck(
      String table,
      long totalRows,
      TableContents contents,
      Tally tally,
      IndependentReader.Verdict independent) {
    this.independent = independent;
    this.table = table;
    this.totalRows = totalRows;
    this.contents = contents;
    this.visibleRows = tally.visible;
    this.distinctRows = tally.distinct;
    this.duplicateRows = tally.duplicates;
    this.duplicateExamples = tally.duplicateExamples;
    this.wrongRows = tally.wrong;
    this.unexpectedRows = tally.unexpected;
    long missing = 0;
    List<Long> missingExamples = new ArrayList<>();
    for (int id = 0; id < totalRows; id++) {
      if (tally.count[id] == 0) {
        missing++;
        if (missingExamples.size() < EXAMPLES) {
          missingExamples.add((long) id);
        }
      }
    }
    this.missingRows = missing;
    this.missingExamples = missingExamples;
  }

  /** Reads the table now and compares it with rows {@code 0 .. totalRows-1} of {@code orders}. */
  static ExactlyOnceCheck of(TableSpec table, Orders orders, long totalRows) throws IOException {
    if (totalRows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many rows for a test check: " + totalRows);
    }
    Tally tally = new Tally(orders, (int) totalRows);
    TableContents contents =
        TableContents.scan(table, (row, file) -> tally.add(row, Path.of(file.path())));
    IndependentReader.Verdict independent;
    try {
      independent =
          IndependentReader.compare(
              IndependentReader.expected(orders, totalRows), IndependentReader.rows(table));
    } catch (Exception e) {
      throw new IOException(
          "The independent reader cannot read table " + table.name() + ": " + e, e);
    }
    return new ExactlyOnceCheck(table.name(), totalRows, contents, tally, independent);
  }

  /**
   * No duplicate, wrong, unexpected or unreadable rows/files (a prefix of the write is visible).
   */
  List<String> consistencyProblems() {
    List<String> problems = new ArrayList<>();
    if (duplicateRows > 0) {
      problems.add(duplicateRows + " duplicate rows, e.g. ids " + duplicateExamples);
    }
    if (!wrongRows.isEmpty()) {
      problems.add("rows with wrong values: " + wrongRows);
    }
    if (!unexpectedRows.isEmpty()) {
      problems.add("rows that were never written: " + unexpectedRows);
    }
    if (!contents.unreadableFiles().isEmpty()) {
      problems.add("visible files that do not read completely: " + contents.unreadableFiles());
    }
    problems.addAll(independent.extraProblems(IndependentReader.NAME));
    return problems;
  }

  /** Consistency plus no loss: the visible table is exactly the input. */
  List<String> exactlyOnceProblems() {
    List<String> problems = consistencyProblems();
    if (missingRows > 0) {
      problems.add(missingRows + " of " + totalRows + " rows missing, e.g. ids " + missingExamples);
    }
    problems.addAll(independent.missingProblems(IndependentReader.NAME));
    return problems;
  }

  @Override
  public String toString() {
    return "table "
        + table
        + ": "
        + visibleRows
        + " visible rows ("
        + distinctRows
        + " distinct of "
        + totalRows
        + ", "
        + duplicateRows
        + " duplicates, "
        + missingRows
        + " missing) in "
        + contents
        + "; "
        + IndependentReader.NAME
        + ": "
        + independent.missing
        + " missing, "
        + independent.extra
        + " too many";
  }

  /** Counts per id while the table is scanned. */
  private static final class Tally {
    final Orders orders;
    final int[] count;
    long visible;
    long distinct;
    long duplicates;
    final List<Long> duplicateExamples = new ArrayList<>();
    final List<String> wrong = new ArrayList<>();
    final List<String> unexpected = new ArrayList<>();

    Tally(Orders orders, int totalRows) {
      this.orders = orders;
      this.count = new int[totalRows];
    }

    void add(Row row, Path file) {
      visible++;
      Long id = row.getInt64("order_id");
      if (id == null || id < 0 || id >= count.length) {
        if (unexpected.size() < EXAMPLES) {
          unexpected.add(row + " in " + file);
        }
        return;
      }
      int seen = ++count[(int) (long) id];
      if (seen == 1) {
        distinct++;
      } else {
        duplicates++;
        if (duplicateExamples.size() < EXAMPLES && !duplicateExamples.contains(id)) {
          duplicateExamples.add(id);
        }
      }
      Row expected = orders.row(id);
      if (!sameValues(expected, row) && wrong.size() < EXAMPLES) {
        wrong.add("id " + id + ": expected " + expected + " but read " + row + " in " + file);
      }
    }

    private static boolean sameValues(Row expected, Row actual) {
      Schema schema = expected.getSchema();
      for (Schema.Field field : schema.getFields()) {
        Object want = expected.getValue(field.getName());
        Object got = actual.getValue(field.getName());
        if (want instanceof BigDecimal && got instanceof BigDecimal) {
          if (((BigDecimal) want).compareTo((BigDecimal) got) != 0) {
            return false;
          }
        } else if (!Objects.equals(want, got)) {
          return false;
        }
      }
      return true;
    }
  }
}
