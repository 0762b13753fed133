package dev.filetables.pipelines.sql;

/**
 * A 1-based line and column in a script, and the statement text placed at its position in the
 * script (blank lines and spaces before it), so that every parser's positions are script positions.
 */
record ScriptPosition(int line, int column) {

  /** {@code text} preceded by blanks so that its first character sits at this position. */
  String place(String text) {
    return "\n".repeat(line - 1) + " ".repeat(column - 1) + text;
  }

  /** The character offset of a 1-based line and column in {@code text}. */
  static int offset(String text, int line, int column) {
    int at = 0;
    for (int l = 1; l < line; l++) {
      at = text.indexOf('\n', at) + 1;
    }
    return at + column - 1;
  }

  @Override
  public String toString() {
    return line + ":" + column;
  }
}
