package dev.filetables.pipelines.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a script into statements at each {@code ;} outside strings ({@code '...'}), quoted names
 * ({@code `...`}, {@code "..."}) and comments ({@code --}, {@code /* *}{@code /}), keeping where
 * each statement starts. Comments inside a statement stay in its text; blank and comment-only
 * statements are dropped.
 */
final class ScriptSplitter {
  private final String script;
  private final String sourceName;
  private int pos;
  private int line = 1;
  private int column = 1;

  private ScriptSplitter(String script, String sourceName) {
    this.script = script;
    this.sourceName = sourceName;
  }

  static List<ScriptStatement> split(String script, String sourceName) {
    return new ScriptSplitter(script, sourceName).statements();
  }

  private List<ScriptStatement> statements() {
    List<ScriptStatement> statements = new ArrayList<>();
    while (true) {
      skipBlanksAndComments();
      if (pos >= script.length()) {
        return statements;
      }
      ScriptPosition start = new ScriptPosition(line, column);
      int from = pos;
      while (pos < script.length() && script.charAt(pos) != ';') {
        char c = script.charAt(pos);
        if (c == '\'' || c == '`' || c == '"') {
          quoted(c, start);
        } else if (c == '-' && peek(1) == '-') {
          lineComment();
        } else if (c == '/' && peek(1) == '*') {
          blockComment();
        } else {
          advance();
        }
      }
      statements.add(new ScriptStatement(sourceName, script.substring(from, pos).strip(), start));
      if (pos < script.length()) {
        advance(); // ;
      }
    }
  }

  private void skipBlanksAndComments() {
    while (pos < script.length()) {
      char c = script.charAt(pos);
      if (Character.isWhitespace(c) || c == '\uFEFF' || c == ';') {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        lineComment();
      } else if (c == '/' && peek(1) == '*') {
        blockComment();
      } else {
        return;
      }
    }
  }

  private void quoted(char quote, ScriptPosition statement) {
    ScriptPosition at = new ScriptPosition(line, column);
    advance();
    while (true) {
      if (pos >= script.length()) {
        throw new SqlScriptException(
            sourceName
                + ":"
                + at
                + ": unterminated "
                + quote
                + "..."
                + quote
                + " (missing "
                + quote
                + ")");
      }
      char c = script.charAt(pos);
      advance();
      if (c == quote) {
        if (peek(0) == quote) {
          advance();
        } else {
          return;
        }
      }
    }
  }

  private void lineComment() {
    while (pos < script.length() && script.charAt(pos) != '\n') {
      advance();
    }
  }

  private void blockComment() {
    ScriptPosition at = new ScriptPosition(line, column);
    advance();
    advance();
    while (!(peek(0) == '*' && peek(1) == '/')) {
      if (pos >= script.length()) {
        throw new SqlScriptException(
            sourceName + ":" + at + ": unterminated comment: '/*' without a closing '*/'");
      }
      advance();
    }
    advance();
    advance();
  }

  private char peek(int ahead) {
    int at = pos + ahead;
    return at < script.length() ? script.charAt(at) : '\0';
  }

  private void advance() {
    char c = script.charAt(pos++);
    if (c == '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
}
