package dev.filetables.io.partition;

import dev.filetables.io.partition.FilterNode.Column;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.schemas.Schema;

/**
 * Recursive-descent parser for partition filter expressions.
 *
 * <pre>
 * filter     := or EOF
 * or         := and (OR and)*
 * and        := not (AND not)*
 * not        := NOT not | primary
 * primary    := '(' or ')' | predicate
 * predicate  := operand (compareOp operand | [NOT] IN '(' literal (',' literal)* ')' | IS [NOT] NULL)?
 * operand    := column | literal
 * column     := identifier | `back-quoted`        (`` inside back quotes is one `)
 * literal    := 'string' ('' is one ') | [+-]number | TRUE | FALSE | NULL | DATE 'yyyy-MM-dd'
 *             | TIMESTAMP 'yyyy-MM-dd HH:mm:ss[.f]'
 * </pre>
 *
 * Keywords ignore case. A comparison has a partition column on one side and a literal on the other;
 * the literal is converted to the column's type once, here, so {@code hour = '9'} on an INT column
 * compares numbers. A bare BOOLEAN column or TRUE/FALSE is a predicate on its own.
 */
final class PartitionFilterParser {

  private enum Kind {
    WORD,
    QUOTED_WORD,
    STRING,
    NUMBER,
    SYMBOL,
    END
  }

  private static final class Token {
    final Kind kind;
    final String text; // unquoted for STRING and QUOTED_WORD
    final int position; // 0-based offset in the expression

    Token(Kind kind, String text, int position) {
      this.kind = kind;
      this.text = text;
      this.position = position;
    }

    boolean isWord(String keyword) {
      return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
      return kind == Kind.SYMBOL && text.equals(symbol);
    }

    String describe() {
      switch (kind) {
        case END:
          return "the end of the filter";
        case STRING:
          return "'" + text.replace("'", "''") + "'";
        case QUOTED_WORD:
          return "`" + text + "`";
        default:
          return "'" + text + "'";
      }
    }
  }

  /** A literal before it is typed by the column it is compared with. */
  private static final class Literal {
    enum Type {
      STRING,
      NUMBER,
      BOOLEAN,
      NULL,
      DATE,
      TIMESTAMP
    }

    final Type type;
    final String text;
    final int position;

    Literal(Type type, String text, int position) {
      this.type = type;
      this.text = text;
      this.position = position;
    }

    String describe() {
      switch (type) {
        case STRING:
          return FilterNode.quote(text);
        case DATE:
          return "DATE " + FilterNode.quote(text);
        case TIMESTAMP:
          return "TIMESTAMP " + FilterNode.quote(text);
        default:
          return text;
      }
    }
  }

  private final String expression;
  private final Schema schema;
  private final List<String> partitionKeys;
  private final List<Token> tokens;
  private int next;

  private PartitionFilterParser(String expression, Schema schema, List<String> partitionKeys) {
    this.expression = expression;
    this.schema = schema;
    this.partitionKeys = partitionKeys;
    this.tokens = tokenize();
  }

  static FilterNode parse(String expression, Schema schema, List<String> partitionKeys) {
    if (expression == null || expression.trim().isEmpty()) {
      throw new TableDefinitionException(
          "The partition filter is empty; leave it unset to read every partition");
    }
    for (String key : partitionKeys) {
      if (!schema.hasField(key)) {
        throw new TableDefinitionException(
            "Partition key '" + key + "' is not a column of the schema " + schema.getFieldNames());
      }
    }
    PartitionFilterParser parser = new PartitionFilterParser(expression, schema, partitionKeys);
    FilterNode node = parser.or();
    parser.expect(parser.peek().kind == Kind.END, "AND, OR or the end of the filter");
    return node;
  }

  // ---- grammar ----

  private FilterNode or() {
    List<FilterNode> terms = new ArrayList<>();
    terms.add(and());
    while (peek().isWord("OR")) {
      next++;
      terms.add(and());
    }
    return terms.size() == 1 ? terms.get(0) : new FilterNode.Junction(false, terms);
  }

  private FilterNode and() {
    List<FilterNode> terms = new ArrayList<>();
    terms.add(not());
    while (peek().isWord("AND")) {
      next++;
      terms.add(not());
    }
    return terms.size() == 1 ? terms.get(0) : new FilterNode.Junction(true, terms);
  }

  private FilterNode not() {
    if (peek().isWord("NOT")) {
      next++;
      return new FilterNode.Not(not());
    }
    if (peek().isSymbol("(")) {
      next++;
      FilterNode inner = or();
      expect(peek().isSymbol(")"), "')'");
      next++;
      return inner;
    }
    return predicate();
  }

  private FilterNode predicate() {
    Token start = peek();
    Object left = operand();
    Token token = peek();
    FilterNode.Op op = compareOp(token);
    if (op != null) {
      next++;
      Token rightStart = peek();
      Object right = operand();
      if (left instanceof Column && right instanceof Literal) {
        return comparison((Column) left, op, (Literal) right);
      }
      if (left instanceof Literal && right instanceof Column) {
        return comparison((Column) right, op.flipped(), (Literal) left);
      }
      throw error(
          left instanceof Column ? rightStart : start,
          "a comparison needs a partition column on one side and a literal on the other");
    }
    if (token.isWord("IS")) {
      next++;
      boolean negated = peek().isWord("NOT");
      if (negated) {
        next++;
      }
      expect(peek().isWord("NULL"), "NULL");
      next++;
      return new FilterNode.IsNull(requireColumn(left, start, "IS NULL"), negated);
    }
    boolean notIn = token.isWord("NOT") && peekAt(1).isWord("IN");
    if (notIn || token.isWord("IN")) {
      next += notIn ? 2 : 1;
      Column column = requireColumn(left, start, "IN");
      expect(peek().isSymbol("("), "'(' after IN");
      next++;
      List<Object> values = new ArrayList<>();
      while (true) {
        Token literalStart = peek();
        Object operand = operand();
        if (!(operand instanceof Literal)) {
          throw error(literalStart, "IN lists hold literals only");
        }
        values.add(typed((Literal) operand, column));
        if (!peek().isSymbol(",")) {
          break;
        }
        next++;
      }
      expect(peek().isSymbol(")"), "',' or ')' in the IN list");
      next++;
      FilterNode in = new FilterNode.In(column, values);
      return notIn ? new FilterNode.Not(in) : in;
    }
    if (left instanceof Literal && ((Literal) left).type == Literal.Type.BOOLEAN) {
      return new FilterNode.Constant(Boolean.parseBoolean(((Literal) left).text));
    }
    if (left instanceof Column && ((Column) left).columnType == ColumnType.BOOLEAN) {
      return new FilterNode.Comparison((Column) left, FilterNode.Op.EQ, Boolean.TRUE);
    }
    throw error(
        token, "expected a comparison (=, <>, !=, <, <=, >, >=), IN, NOT IN or IS [NOT] NULL");
  }

  private static FilterNode.Op compareOp(Token token) {
    if (token.kind != Kind.SYMBOL) {
      return null;
    }
    switch (token.text) {
      case "=":
        return FilterNode.Op.EQ;
      case "<>":
      case "!=":
        return FilterNode.Op.NE;
      case "<":
        return FilterNode.Op.LT;
      case "<=":
        return FilterNode.Op.LE;
      case ">":
        return FilterNode.Op.GT;
      case ">=":
        return FilterNode.Op.GE;
      default:
        return null;
    }
  }

  /** A {@link Column} or a {@link Literal}. */
  private Object operand() {
    Token token = peek();
    switch (token.kind) {
      case QUOTED_WORD:
        next++;
        return column(token);
      case STRING:
        next++;
        return new Literal(Literal.Type.STRING, token.text, token.position);
      case NUMBER:
        next++;
        return new Literal(Literal.Type.NUMBER, token.text, token.position);
      case SYMBOL:
        if ((token.isSymbol("-") || token.isSymbol("+")) && peekAt(1).kind == Kind.NUMBER) {
          next += 2;
          String sign = token.text.equals("-") ? "-" : "";
          return new Literal(Literal.Type.NUMBER, sign + tokens.get(next - 1).text, token.position);
        }
        break;
      case WORD:
        next++;
        if (token.isWord("TRUE") || token.isWord("FALSE")) {
          return new Literal(
              Literal.Type.BOOLEAN, token.text.toLowerCase(Locale.ROOT), token.position);
        }
        if (token.isWord("NULL")) {
          return new Literal(Literal.Type.NULL, "NULL", token.position);
        }
        if ((token.isWord("DATE") || token.isWord("TIMESTAMP")) && peek().kind == Kind.STRING) {
          Token text = tokens.get(next++);
          Literal.Type type = token.isWord("DATE") ? Literal.Type.DATE : Literal.Type.TIMESTAMP;
          checkTypedLiteral(type, text);
          return new Literal(type, text.text, token.position);
        }
        if (FilterNode.Keywords.isKeyword(token.text)) {
          next--;
          break;
        }
        return column(token);
      default:
        break;
    }
    throw error(token, "expected a partition column or a literal");
  }

  // ---- typing ----

  private Column column(Token token) {
    String name = token.text;
    String key = null;
    if (partitionKeys.contains(name)) {
      key = name;
    } else {
      for (String candidate : partitionKeys) {
        if (candidate.equalsIgnoreCase(name)) {
          if (key != null) {
            throw error(
                token,
                "`"
                    + name
                    + "` matches partition columns "
                    + key
                    + " and "
                    + candidate
                    + " ignoring case; write it exactly");
          }
          key = candidate;
        }
      }
    }
    if (key == null) {
      throw new TableDefinitionException(
          "`"
              + name
              + "` is not a partition column; partition columns: "
              + (partitionKeys.isEmpty()
                  ? "(none, the table is not partitioned)"
                  : String.join(", ", partitionKeys))
              + " — filters prune directories only (at position "
              + (token.position + 1)
              + " in: "
              + expression
              + ")");
    }
    return new Column(key, schema.getField(key).getType());
  }

  private Column requireColumn(Object operand, Token start, String what) {
    if (!(operand instanceof Column)) {
      throw error(start, what + " needs a partition column on its left");
    }
    return (Column) operand;
  }

  private FilterNode comparison(Column column, FilterNode.Op op, Literal literal) {
    if (literal.type == Literal.Type.NULL) {
      throw error(
          literal.position,
          "a comparison with NULL is never true; use " + column.sql() + " IS NULL or IS NOT NULL");
    }
    return new FilterNode.Comparison(column, op, typed(literal, column));
  }

  /** The literal as a value of the column's type (null for NULL). */
  private Object typed(Literal literal, Column column) {
    String text = literal.text;
    switch (literal.type) {
      case NULL:
        return null;
      case DATE:
        if (column.columnType == ColumnType.TIMESTAMP
            || column.columnType == ColumnType.TIMESTAMP_LTZ) {
          text = text + " 00:00:00"; // a date compared with a timestamp means its midnight
        } else if (column.columnType != ColumnType.DATE && column.columnType != ColumnType.STRING) {
          throw error(
              literal.position,
              "a DATE literal cannot be compared with "
                  + column.sql()
                  + " of type "
                  + column.columnType);
        }
        break;
      case TIMESTAMP:
        if (column.columnType != ColumnType.TIMESTAMP
            && column.columnType != ColumnType.TIMESTAMP_LTZ
            && column.columnType != ColumnType.STRING) {
          throw error(
              literal.position,
              "a TIMESTAMP literal cannot be compared with "
                  + column.sql()
                  + " of type "
                  + column.columnType);
        }
        break;
      default:
        break;
    }
    try {
      // A DECIMAL literal is compared by value: 1.234 is a fine bound for a DECIMAL(10, 2) column.
      return PartitionValues.parse(
          text, column.columnType == ColumnType.DECIMAL ? Schema.FieldType.DECIMAL : column.type);
    } catch (IllegalArgumentException e) {
      throw error(
          literal.position,
          "the literal "
              + literal.describe()
              + " does not fit partition column "
              + column.sql()
              + ": "
              + e.getMessage());
    }
  }

  private void checkTypedLiteral(Literal.Type type, Token text) {
    try {
      PartitionValues.parse(
          text.text,
          type == Literal.Type.DATE
              ? ColumnType.DATE.fieldType()
              : ColumnType.TIMESTAMP.fieldType());
    } catch (IllegalArgumentException e) {
      throw error(text, "bad " + type + " literal: " + e.getMessage());
    }
  }

  // ---- tokens ----

  private Token peek() {
    return tokens.get(next);
  }

  private Token peekAt(int ahead) {
    return tokens.get(Math.min(next + ahead, tokens.size() - 1));
  }

  private void expect(boolean ok, String expected) {
    if (!ok) {
      throw error(peek(), "expected " + expected + " but found " + peek().describe());
    }
  }

  private List<Token> tokenize() {
    List<Token> out = new ArrayList<>();
    String s = expression;
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '\'' || c == '`') {
        int start = i;
        StringBuilder text = new StringBuilder();
        i++;
        while (true) {
          if (i >= s.length()) {
            throw error(
                start,
                (c == '\'' ? "unterminated string literal" : "unterminated back-quoted name"));
          }
          char d = s.charAt(i);
          if (d == c) {
            if (i + 1 < s.length() && s.charAt(i + 1) == c) {
              text.append(c); // doubled quote
              i += 2;
              continue;
            }
            i++;
            break;
          }
          text.append(d);
          i++;
        }
        if (c == '`' && text.length() == 0) {
          throw error(start, "empty back-quoted name");
        }
        out.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED_WORD, text.toString(), start));
      } else if (Character.isDigit(c)
          || (c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)))) {
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
          i++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
          i++;
          while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
          }
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
          int e = i + 1;
          if (e < s.length() && (s.charAt(e) == '+' || s.charAt(e) == '-')) {
            e++;
          }
          if (e < s.length() && Character.isDigit(s.charAt(e))) {
            i = e;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
              i++;
            }
          }
        }
        if (i < s.length() && isWordChar(s.charAt(i))) {
          throw error(start, "malformed number '" + s.substring(start, i + 1) + "'");
        }
        out.add(new Token(Kind.NUMBER, s.substring(start, i), start));
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < s.length() && isWordChar(s.charAt(i))) {
          i++;
        }
        out.add(new Token(Kind.WORD, s.substring(start, i), start));
      } else {
        int start = i;
        String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
        if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=")) {
          out.add(new Token(Kind.SYMBOL, two, start));
          i += 2;
        } else if ("=<>(),+-".indexOf(c) >= 0) {
          out.add(new Token(Kind.SYMBOL, String.valueOf(c), start));
          i++;
        } else {
          throw error(start, "unexpected character '" + c + "'");
        }
      }
    }
    out.add(new Token(Kind.END, "", s.length()));
    return out;
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private TableDefinitionException error(Token token, String message) {
    return error(token.position, message);
  }

  private TableDefinitionException error(int position, String message) {
    String pointer =
        expression.indexOf('\n') < 0
            ? "\n  " + expression + "\n  " + " ".repeat(position) + "^"
            : "";
    return new TableDefinitionException(
        "Invalid partition filter at position "
            + (position + 1)
            + ": "
            + message
            + (pointer.isEmpty() ? " in: " + expression : pointer));
  }
}
