package dev.filetables.io.table;

/**
 * What reading a table does with a record (or file) it cannot decode: option {@code
 * source.bad-records} ({@link FileSystemOptions#SOURCE_BAD_RECORDS} reads it).
 */
public enum BadRecordPolicy {
  /** Fail the read, naming file, position, reason and this option (the default). */
  FAIL("fail"),
  /** Drop the record, count it in a metric and log it (at a bounded rate). */
  SKIP("skip"),
  /** Write the record to the dead-letter table at {@code source.bad-records.dead-letter.path}. */
  DEAD_LETTER("dead-letter");

  /**
   * The format option (csv, json) with which Flink skips bad records: {@code
   * <format>.ignore-parse-errors} = {@code true} means {@code source.bad-records} = {@code skip}.
   * Declared here, not by the formats, because table options interpret it.
   */
  public static final String IGNORE_PARSE_ERRORS = "ignore-parse-errors";

  private final String optionValue;

  BadRecordPolicy(String optionValue) {
    this.optionValue = optionValue;
  }

  /** The value as written in the option, e.g. {@code dead-letter}. */
  public String optionValue() {
    return optionValue;
  }
}
