package dev.filetables.io.table;

import dev.filetables.io.table.DdlLexer.Kind;
import dev.filetables.io.table.DdlLexer.Token;
import dev.filetables.io.table.DdlStatement.Column;
import dev.filetables.io.table.DdlStatement.Location;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one {@code CREATE TABLE} statement into a {@link DdlStatement}: the table name, the column
 * list (columns through {@link DdlColumnParser}, the {@code WATERMARK} through {@link
 * DdlWatermarkParser}), {@code COMMENT}, {@code PARTITIONED BY} and {@code WITH}. Clauses
 * FileTables does not support ({@code LIKE}, {@code AS SELECT}, constraints, {@code DISTRIBUTED
 * BY}) are errors that say so. Syntax and types are checked here; the table rules are {@link
 * FileTableBinder}'s.
 */
final class DdlStatementParser {

  private final DdlTokens tokens;
  private final DdlColumnParser columnParser;
  private final DdlWatermarkParser watermarkParser;

  private DdlStatementParser(DdlTokens tokens) {
    this.tokens = tokens;
    this.columnParser = new DdlColumnParser(tokens);
    this.watermarkParser = new DdlWatermarkParser(tokens);
  }

  /** Parses {@code ddl}; error messages start with the position (and the file, when named). */
  static DdlStatement parse(String ddl, Optional<String> sourceName) {
    return new DdlStatementParser(new DdlTokens(ddl, sourceName)).statement();
  }

  private DdlStatement statement() {
    Token create = tokens.peek();
    if (!create.isKeyword("CREATE")) {
      throw tokens.error(
          create.location(),
          "expected CREATE TABLE but found "
              + create.describe()
              + "; only CREATE TABLE is supported");
    }
    tokens.take();
    if (tokens.peek().isKeyword("TEMPORARY")) {
      tokens.take();
    }
    Token table = tokens.peek();
    if (!table.isKeyword("TABLE")) {
      throw tokens.error(
          table.location(),
          "expected TABLE after CREATE but found "
              + table.describe()
              + "; only CREATE TABLE is supported");
    }
    tokens.take();
    if (tokens.peek().isKeyword("IF")) {
      tokens.take();
      tokens.expectKeyword("NOT", "IF NOT EXISTS");
      tokens.expectKeyword("EXISTS", "IF NOT EXISTS");
    }
    String name = tokens.identifier("a table name");
    while (tokens.peek().isSymbol(".")) {
      tokens.take();
      name = tokens.identifier("a table name after '.'");
    }
    rejectLike();
    if (tokens.peek().isKeyword("AS")) {
      throw tokens.error(
          tokens.peek().location(),
          "CREATE TABLE ... AS SELECT is not supported; declare the columns: CREATE TABLE "
              + name
              + " (col TYPE, ...) WITH (...)");
    }
    if (!tokens.peek().isSymbol("(")) {
      throw tokens.error(
          tokens.peek().location(),
          "expected '(' and the column list after the table name but found "
              + tokens.peek().describe());
    }
    tokens.take();

    List<Column> columns = new ArrayList<>();
    Optional<WatermarkSpec> watermark = Optional.empty();
    Optional<Location> watermarkLocation = Optional.empty();
    if (tokens.peek().isSymbol(")")) {
      throw tokens.error(
          tokens.peek().location(), "the column list is empty; declare at least one column");
    }
    while (true) {
      Token start = tokens.peek();
      if (start.isKeyword("WATERMARK") && tokens.peek(1).isKeyword("FOR")) {
        if (watermark.isPresent()) {
          throw tokens.error(start.location(), "a table has at most one WATERMARK");
        }
        watermark = Optional.of(watermarkParser.watermark());
        watermarkLocation = Optional.of(start.location());
      } else {
        rejectConstraint(start);
        Column column = columnParser.column();
        for (Column other : columns) {
          if (other.name().equals(column.name())) {
            throw tokens.error(
                column.location(),
                "column `"
                    + column.name()
                    + "` is declared twice (first at line "
                    + other.location().line()
                    + ")");
          }
        }
        columns.add(column);
      }
      if (tokens.listEnds("after a column")) {
        break;
      }
    }
    if (columns.isEmpty()) {
      throw tokens.error(create.location(), "the table declares no column");
    }

    Optional<String> comment = Optional.empty();
    if (tokens.peek().isKeyword("COMMENT")) {
      tokens.take();
      comment = Optional.of(tokens.string("a comment string"));
    }
    List<String> partitionKeys = new ArrayList<>();
    Map<String, Location> partitionKeyLocations = new HashMap<>();
    if (tokens.peek().isKeyword("PARTITIONED")) {
      tokens.take();
      tokens.expectKeyword("BY", "PARTITIONED BY");
      tokens.expectSymbol("(", "PARTITIONED BY (");
      while (true) {
        Location at = tokens.peek().location();
        String key = tokens.identifier("a partition column name");
        if (partitionKeyLocations.containsKey(key)) {
          throw tokens.error(at, "partition key `" + key + "` is listed twice");
        }
        partitionKeys.add(key);
        partitionKeyLocations.put(key, at);
        if (tokens.listEnds("in PARTITIONED BY")) {
          break;
        }
      }
    }
    if (tokens.peek().isKeyword("DISTRIBUTED")) {
      throw tokens.error(
          tokens.peek().location(),
          "DISTRIBUTED BY is not supported; FileTables tables are partitioned with PARTITIONED BY");
    }
    LinkedHashMap<String, String> options = new LinkedHashMap<>();
    Map<String, Location> optionLocations = new HashMap<>();
    Optional<Location> withLocation = Optional.empty();
    if (tokens.peek().isKeyword("WITH")) {
      withLocation = Optional.of(tokens.take().location());
      withOptions(options, optionLocations);
    }
    rejectLike();
    if (tokens.peek().isKeyword("AS")) {
      throw tokens.error(tokens.peek().location(), "CREATE TABLE ... AS SELECT is not supported");
    }
    if (tokens.peek().isSymbol(";")) {
      tokens.take();
    }
    Token end = tokens.peek();
    if (end.kind() != Kind.END) {
      throw tokens.error(
          end.location(),
          "unexpected "
              + end.describe()
              + "; expected "
              + expectedAfterColumns(comment, partitionKeys, withLocation)
              + " (one CREATE TABLE statement per DDL)");
    }
    return new DdlStatement(
        tokens.sourceName(),
        create.location(),
        name,
        columns,
        partitionKeys,
        partitionKeyLocations,
        options,
        optionLocations,
        withLocation,
        watermark,
        watermarkLocation,
        comment);
  }

  private static String expectedAfterColumns(
      Optional<String> comment, List<String> partitionKeys, Optional<Location> with) {
    List<String> expected = new ArrayList<>();
    if (with.isEmpty()) {
      if (comment.isEmpty() && partitionKeys.isEmpty()) {
        expected.add("COMMENT");
      }
      if (partitionKeys.isEmpty()) {
        expected.add("PARTITIONED BY");
      }
      expected.add("WITH");
    }
    expected.add("';'");
    expected.add("the end");
    return String.join(", ", expected);
  }

  private void rejectLike() {
    if (tokens.peek().isKeyword("LIKE")) {
      throw tokens.error(
          tokens.peek().location(),
          "LIKE clauses are not supported; declare the columns and the WITH options of the table"
              + " in full");
    }
  }

  private void rejectConstraint(Token start) {
    if (start.isKeyword("PRIMARY") && tokens.peek(1).isKeyword("KEY")) {
      throw tokens.error(
          start.location(),
          "PRIMARY KEY constraints are not supported: file tables are append-only; remove it");
    }
    if (start.isKeyword("CONSTRAINT")) {
      throw tokens.error(
          start.location(),
          "constraints (CONSTRAINT ... PRIMARY KEY) are not supported: file tables are append-only;"
              + " remove it");
    }
  }

  /** Reads {@code (…)} after {@code WITH}, keeping where each key is written for messages. */
  private void withOptions(LinkedHashMap<String, String> options, Map<String, Location> locations) {
    tokens.expectSymbol("(", "WITH (");
    if (tokens.peek().isSymbol(")")) {
      tokens.take();
      return;
    }
    while (true) {
      Token key = tokens.take();
      if (key.kind() != Kind.STRING) {
        throw tokens.error(
            key.location(),
            "expected an option key in single quotes, e.g. 'path' = '/data/orders', but found "
                + key.describe());
      }
      tokens.expectSymbol("=", "'" + key.text() + "' =");
      Token value = tokens.take();
      if (value.kind() != Kind.STRING) {
        throw tokens.error(
            value.location(),
            "expected the value of option '"
                + key.text()
                + "' in single quotes but found "
                + value.describe()
                + "; all option values are strings, e.g. 'sink.parallelism' = '4'");
      }
      if (options.containsKey(key.text())) {
        throw tokens.error(
            key.location(),
            "option '"
                + key.text()
                + "' is given twice (first at line "
                + locations.get(key.text()).line()
                + ")");
      }
      options.put(key.text(), value.text());
      locations.put(key.text(), key.location());
      if (tokens.listEnds("after option '" + key.text() + "'")) {
        return;
      }
    }
  }
}
