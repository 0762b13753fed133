package dev.filetables.io.table;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Splits DDL text into tokens with their line and column; skips whitespace, {@code --} line
 * comments and {@code /* *}{@code /} block comments (hints included).
 */
final class DdlLexer {

  enum Kind {
    /** Unquoted word: keyword or identifier, compared case-insensitively as a keyword. */
    WORD,
    /** Back-quoted identifier; {@code text} is the name with {@code ``} unescaped. */
    QUOTED_IDENTIFIER,
    /** Single-quoted string; {@code text} is the value with {@code ''} unescaped. */
    STRING,
    NUMBER,
    SYMBOL,
    END
  }

  /**
   * One token; {@code start} and {@code end} are its character offsets in the text (end exclusive),
   * so a caller can keep a span of the text as written (a computed column's expression).
   */
  record Token(Kind kind, String text, DdlStatement.Location location, int start, int end) {
    boolean isKeyword(String keyword) {
      return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
      return kind == Kind.SYMBOL && text.equals(symbol);
    }

    /** How the token is shown in messages. */
    String describe() {
      switch (kind) {
        case END:
          return "the end of the statement";
        case STRING:
          return "string '" + text.replace("'", "''") + "'";
        case QUOTED_IDENTIFIER:
          return "`" + text.replace("`", "``") + "`";
        default:
          return "'" + text + "'";
      }
    }
  }

  private final String text;
  private final BiFunction<DdlStatement.Location, String, TableDefinitionException> errors;
  private int pos;
  private int line = 1;
  private int column = 1;

  private DdlLexer(
      String text, BiFunction<DdlStatement.Location, String, TableDefinitionException> errors) {
    this.text = text;
    this.errors = errors;
  }

  /** All tokens of {@code text}, ending with one {@link Kind#END} token. */
  static List<Token> tokenize(
      String text, BiFunction<DdlStatement.Location, String, TableDefinitionException> errors) {
    return new DdlLexer(text, errors).run();
  }

  private List<Token> run() {
    List<Token> tokens = new ArrayList<>();
    while (true) {
      skipBlanksAndComments();
      DdlStatement.Location start = here();
      int from = pos;
      if (pos >= text.length()) {
        tokens.add(new Token(Kind.END, "", start, pos, pos));
        return tokens;
      }
      char c = text.charAt(pos);
      if (c == '\'') {
        String value = quoted('\'', "string");
        tokens.add(new Token(Kind.STRING, value, start, from, pos));
      } else if (c == '`') {
        String name = quoted('`', "back-quoted identifier");
        if (name.isEmpty()) {
          throw errors.apply(start, "empty identifier ``; a name needs at least one character");
        }
        tokens.add(new Token(Kind.QUOTED_IDENTIFIER, name, start, from, pos));
      } else if (c == '"') {
        throw errors.apply(
            start,
            "double quotes are not used in Flink SQL: quote names with back quotes (`name`) and"
                + " strings with single quotes ('text')");
      } else if (isDigit(c)) {
        while (pos < text.length() && isDigit(text.charAt(pos))) {
          advance();
        }
        if (pos + 1 < text.length() && text.charAt(pos) == '.' && isDigit(text.charAt(pos + 1))) {
          advance();
          while (pos < text.length() && isDigit(text.charAt(pos))) {
            advance();
          }
        }
        tokens.add(new Token(Kind.NUMBER, text.substring(from, pos), start, from, pos));
      } else if (Character.isLetter(c) || c == '_') {
        while (pos < text.length() && isWordPart(text.charAt(pos))) {
          advance();
        }
        tokens.add(new Token(Kind.WORD, text.substring(from, pos), start, from, pos));
      } else if ("(),;=-+*/.<>[]:|%!".indexOf(c) >= 0) {
        advance();
        tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), start, from, pos));
      } else {
        throw errors.apply(start, "unexpected character '" + c + "'");
      }
    }
  }

  private void skipBlanksAndComments() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (Character.isWhitespace(c) || c == '\uFEFF') {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        while (pos < text.length() && text.charAt(pos) != '\n' && text.charAt(pos) != '\r') {
          advance();
        }
      } else if (c == '/' && peek(1) == '*') {
        DdlStatement.Location start = here();
        advance();
        advance();
        while (!(pos < text.length() && text.charAt(pos) == '*' && peek(1) == '/')) {
          if (pos >= text.length()) {
            throw errors.apply(start, "unterminated comment: '/*' without a closing '*/'");
          }
          advance();
        }
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  /** Reads a quoted text starting at the opening quote; a doubled quote stands for one quote. */
  private String quoted(char quote, String what) {
    DdlStatement.Location start = here();
    advance();
    StringBuilder value = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw errors.apply(start, "unterminated " + what + ": missing closing " + quote);
      }
      char c = text.charAt(pos);
      if (c == quote) {
        if (peek(1) == quote) {
          value.append(quote);
          advance();
          advance();
          continue;
        }
        advance();
        return value.toString();
      }
      value.append(c);
      advance();
    }
  }

  private char peek(int ahead) {
    int at = pos + ahead;
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void advance() {
    char c = text.charAt(pos++);
    // "\r\n" counts as one line break: the '\n' starts the new line.
    if (c == '\n' || (c == '\r' && (pos >= text.length() || text.charAt(pos) != '\n'))) {
      line++;
      column = 1;
    } else {
      column++;
    }
  }

  private DdlStatement.Location here() {
    return new DdlStatement.Location(line, column);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
