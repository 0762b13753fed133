package dev.filetables.io.table;

/** A table definition or option that cannot be used; the message says what to fix. */
public class TableDefinitionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TableDefinitionException(String message) {
    super(message);
  }

  public TableDefinitionException(String message, Throwable cause) {
    super(message, cause);
  }
}
