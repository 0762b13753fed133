package dev.filetables.pipelines.sql;

import java.util.Locale;

/** One statement of a script: its text (without the closing {@code ;}) and where it starts. */
record ScriptStatement(String sourceName, String text, ScriptPosition position) {

  /** What the statement does, by its first words. */
  enum Kind {
    CREATE_TABLE,
    SET,
    INSERT,
    SELECT,
    OTHER
  }

  Kind kind() {
    String[] words = text.strip().split("\\s+", 3);
    String first = words[0].toUpperCase(Locale.ROOT);
    String second = words.length > 1 ? words[1].toUpperCase(Locale.ROOT) : "";
    switch (first) {
      case "CREATE":
        return second.equals("TABLE") || second.equals("TEMPORARY")
            ? Kind.CREATE_TABLE
            : Kind.OTHER;
      case "SET":
        return Kind.SET;
      case "INSERT":
        return Kind.INSERT;
      case "SELECT":
      case "WITH":
      case "(":
        return Kind.SELECT;
      default:
        return first.startsWith("(") ? Kind.SELECT : Kind.OTHER;
    }
  }

  /** The first words, for messages: {@code CREATE VIEW}, {@code DROP TABLE}. */
  String head() {
    String[] words = text.strip().split("\\s+", 3);
    return (words[0] + (words.length > 1 ? " " + words[1] : "")).toUpperCase(Locale.ROOT);
  }

  /** The text at its place in the script, so that parser positions are script positions. */
  String placedText() {
    return position.place(text);
  }

  SqlScriptException error(String message) {
    return error(position, message);
  }

  SqlScriptException error(ScriptPosition at, String message) {
    return new SqlScriptException(sourceName + ":" + at + ": " + message);
  }
}
