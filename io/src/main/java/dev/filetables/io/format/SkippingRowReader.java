package dev.filetables.io.format;

/**
 * A {@link RowReader} of a format with an {@code ignore-parse-errors} option (csv, json): bad
 * records are skipped instead of failing, and counted here.
 */
interface SkippingRowReader extends RowReader {

  /**
   * Bad records skipped so far because of {@code ignore-parse-errors} (blank or comment lines
   * excluded).
   */
  long skippedRecords();
}
