package dev.filetables.io.table;

import dev.filetables.io.table.DdlLexer.Token;
import dev.filetables.io.table.DdlStatement.Column;
import dev.filetables.io.table.DdlStatement.Location;
import dev.filetables.io.table.DdlTypeParser.ParsedType;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * Reads one column definition: {@code name TYPE [NOT NULL | NULL] [METADATA [FROM 'key'] [VIRTUAL]]
 * [COMMENT '...']}, or a computed column {@code name AS expression [COMMENT '...']}, whose
 * expression is kept as written (only parentheses are matched here): evaluating it is the SQL
 * engine's job ({@code bin/filetables sql}), and the table binders refuse it. Column constraints
 * are errors.
 */
final class DdlColumnParser {

  private final DdlTokens tokens;
  private final DdlTypeParser types;

  DdlColumnParser(DdlTokens tokens) {
    this.tokens = tokens;
    this.types = new DdlTypeParser(tokens);
  }

  /**
   * Reads the column at the current token; stops before the {@code ','} or {@code ')'} after it.
   */
  Column column() {
    Location at = tokens.peek().location();
    String name = tokens.identifier("a column name, WATERMARK FOR or ')'");
    if (tokens.peek().isKeyword("AS")) {
      return computed(name, at);
    }
    ParsedType type = types.type();
    boolean notNull = false;
    boolean nullabilityGiven = false;
    Optional<String> metadataKey = Optional.empty();
    boolean virtual = false;
    Optional<String> comment = Optional.empty();
    while (true) {
      Token token = tokens.peek();
      if (token.isKeyword("NOT") && !nullabilityGiven && metadataKey.isEmpty()) {
        tokens.take();
        tokens.expectKeyword("NULL", "NOT NULL");
        notNull = true;
        nullabilityGiven = true;
      } else if (token.isKeyword("NULL") && !nullabilityGiven && metadataKey.isEmpty()) {
        tokens.take();
        nullabilityGiven = true;
      } else if (token.isKeyword("METADATA") && metadataKey.isEmpty()) {
        tokens.take();
        if (tokens.peek().isKeyword("FROM")) {
          tokens.take();
          metadataKey = Optional.of(tokens.string("the metadata key, e.g. 'file.path'"));
        } else {
          metadataKey = Optional.of(name);
        }
        if (tokens.peek().isKeyword("VIRTUAL")) {
          tokens.take();
          virtual = true;
        }
      } else if (token.isKeyword("COMMENT") && comment.isEmpty()) {
        tokens.take();
        comment = Optional.of(tokens.string("a comment string"));
      } else if (token.isKeyword("PRIMARY") || token.isKeyword("CONSTRAINT")) {
        throw tokens.error(
            token.location(),
            "PRIMARY KEY constraints are not supported: file tables are append-only; remove it");
      } else if (token.isSymbol(",") || token.isSymbol(")")) {
        break;
      } else {
        throw tokens.error(
            token.location(),
            "unexpected "
                + token.describe()
                + " in the declaration of column `"
                + name
                + "`; expected NOT NULL, METADATA [FROM 'key'] [VIRTUAL], COMMENT '...', ',' or ')'");
      }
    }
    FieldType fieldType = type.fieldType().withNullable(!notNull);
    String typeText = type.text() + (notNull ? " NOT NULL" : "");
    return new Column(
        name, fieldType, typeText, metadataKey, virtual, comment, at, Optional.empty());
  }

  /**
   * {@code name AS expression [COMMENT '...']}: the expression runs to the next {@code ,} or {@code
   * )} outside parentheses (or to {@code COMMENT}).
   */
  private Column computed(String name, Location at) {
    Location as = tokens.take().location();
    Token first = tokens.peek();
    Token last = null;
    int depth = 0;
    while (true) {
      Token token = tokens.peek();
      if (token.kind() == DdlLexer.Kind.END) {
        throw tokens.error(
            token.location(), "computed column `" + name + "`: the expression has no end");
      }
      if (depth == 0
          && (token.isSymbol(",") || token.isSymbol(")") || token.isKeyword("COMMENT"))) {
        break;
      }
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        depth--;
      }
      last = tokens.take();
    }
    if (last == null) {
      throw tokens.error(first.location(), "expected an expression after `" + name + "` AS");
    }
    Optional<String> comment = Optional.empty();
    if (tokens.peek().isKeyword("COMMENT")) {
      tokens.take();
      comment = Optional.of(tokens.string("a comment string"));
    }
    String expression = tokens.text(first, last);
    return new Column(
        name,
        null,
        "AS " + expression,
        Optional.empty(),
        false,
        comment,
        at,
        Optional.of(new Column.Computed(expression, as, first.location())));
  }
}
