package dev.filetables.io.table;

import dev.filetables.io.table.DdlLexer.Kind;
import dev.filetables.io.table.DdlLexer.Token;
import dev.filetables.io.table.DdlStatement.Location;
import java.util.List;
import java.util.Optional;

/**
 * The tokens of one DDL text and the position of the next one to read: the cursor that the
 * statement, column, type and watermark parsers share, with the checks they all use ({@code
 * expected X but found Y}) and the one way to build a positioned error.
 */
final class DdlTokens {

  private final Optional<String> sourceName;
  private final String ddl;
  private final List<Token> tokens;
  private int next;

  /** Tokenizes {@code ddl}; lexer errors are positioned like parser errors. */
  DdlTokens(String ddl, Optional<String> sourceName) {
    this.sourceName = sourceName;
    this.ddl = ddl;
    this.tokens = DdlLexer.tokenize(ddl, this::error);
  }

  /** The text from the start of {@code first} to the end of {@code last}, as written. */
  String text(Token first, Token last) {
    return ddl.substring(first.start(), last.end());
  }

  Optional<String> sourceName() {
    return sourceName;
  }

  Token peek() {
    return peek(0);
  }

  Token peek(int ahead) {
    return tokens.get(Math.min(next + ahead, tokens.size() - 1));
  }

  /** Returns the next token and moves past it; at the end it keeps returning the END token. */
  Token take() {
    Token token = peek();
    if (next < tokens.size() - 1) {
      next++;
    }
    return token;
  }

  String identifier(String what) {
    Token token = peek();
    String name = identifierOrNull();
    if (name == null) {
      throw error(token.location(), "expected " + what + " but found " + token.describe());
    }
    return name;
  }

  /** Takes a name (plain word or back-quoted) and returns it, or returns null and takes nothing. */
  String identifierOrNull() {
    Token token = peek();
    if (token.kind() == Kind.WORD || token.kind() == Kind.QUOTED_IDENTIFIER) {
      take();
      return token.text();
    }
    return null;
  }

  String string(String what) {
    Token token = take();
    if (token.kind() != Kind.STRING) {
      throw error(
          token.location(), "expected " + what + " in single quotes but found " + token.describe());
    }
    return token.text();
  }

  void expectKeyword(String keyword, String context) {
    Token token = take();
    if (!token.isKeyword(keyword)) {
      throw error(
          token.location(),
          "expected " + keyword + " (in " + context + ") but found " + token.describe());
    }
  }

  void expectSymbol(String symbol, String context) {
    Token token = take();
    if (!token.isSymbol(symbol)) {
      throw error(
          token.location(),
          "expected '" + symbol + "' (in " + context + ") but found " + token.describe());
    }
  }

  /**
   * Takes the separator after an item of a parenthesized list: true at its closing {@code )}, false
   * at a {@code ,}; anything else is an error "expected ',' or ')' {@code where} but found …".
   */
  boolean listEnds(String where) {
    Token separator = take();
    if (separator.isSymbol(")")) {
      return true;
    }
    if (!separator.isSymbol(",")) {
      throw error(
          separator.location(),
          "expected ',' or ')' " + where + " but found " + separator.describe());
    }
    return false;
  }

  /** An exception whose message starts with the position, as {@link DdlStatement#errorAt} does. */
  TableDefinitionException error(Location at, String message) {
    return new TableDefinitionException(DdlStatement.prefix(sourceName, at) + message);
  }
}
