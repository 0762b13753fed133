package dev.filetables.io.table;

import dev.filetables.io.table.DdlLexer.Kind;
import dev.filetables.io.table.DdlLexer.Token;
import dev.filetables.io.table.DdlStatement.Column;
import dev.filetables.io.table.DdlStatement.Location;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * Parses a Flink-style {@code CREATE TABLE} statement:
 *
 * <pre>
 * CREATE TABLE [IF NOT EXISTS] orders (
 *   id BIGINT NOT NULL,
 *   amount DECIMAL(10, 2),
 *   ts TIMESTAMP(3),
 *   dt STRING,
 *   `file.path` STRING NOT NULL METADATA [FROM 'file.path'] [VIRTUAL],
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
 * ) [COMMENT '...'] PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '...', 'format' = 'parquet');
 * </pre>
 *
 * <p>Keywords are case-insensitive; names keep their case and may be back-quoted ({@code ``} inside
 * stands for one back quote); strings are single-quoted ({@code ''} for one quote); {@code --} and
 * {@code /* *}{@code /} comments are skipped; one statement, the trailing {@code ;} is optional.
 *
 * <p>Types: {@code STRING}, {@code VARCHAR(n)}, {@code BOOLEAN}, {@code INT}/{@code INTEGER},
 * {@code BIGINT}, {@code FLOAT}, {@code DOUBLE}, {@code DECIMAL[(p[, s])]} (Flink's default {@code
 * DECIMAL(10, 0)}), {@code DATE}, {@code TIMESTAMP[(0..3)]}, {@code TIMESTAMP_LTZ[(0..3)]} and
 * {@code TIMESTAMP[(0..3)] WITH LOCAL TIME ZONE}. Timestamps carry milliseconds: a bare {@code
 * TIMESTAMP} (microseconds in Flink) is read as {@code TIMESTAMP(3)}.
 *
 * <p>A relative {@code 'path'} is resolved against the current working directory of the process
 * that parses the DDL (not the DDL file's directory), so the table spec carries an absolute path
 * that means the same on every worker; absolute paths and {@code file:} URIs are kept as written.
 *
 * <p>Everything else (computed columns, primary keys, {@code LIKE}, other types, other connectors)
 * is a {@link TableDefinitionException} naming the line and column, the construct and what is
 * supported.
 */
public final class DdlParser {

  static final String SUPPORTED_TYPES =
      "STRING, VARCHAR(n), BOOLEAN, INT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), DATE,"
          + " TIMESTAMP(3), TIMESTAMP_LTZ(3), TIMESTAMP(3) WITH LOCAL TIME ZONE";

  private static final String WATERMARK_FORMS =
      "supported: WATERMARK FOR ts AS ts, or WATERMARK FOR ts AS ts - INTERVAL 'n' UNIT with UNIT one"
          + " of MILLISECOND, SECOND, MINUTE, HOUR, DAY";

  private final Optional<String> sourceName;
  private final List<Token> tokens;
  private int next;

  private DdlParser(String ddl, Optional<String> sourceName) {
    this.sourceName = sourceName;
    this.tokens = DdlLexer.tokenize(ddl, this::error);
  }

  // ---------------------------------------------------------------- entry points

  /** Parses a file table definition; see the class comment for the accepted DDL. */
  public static TableSpec parse(String ddl) {
    return toTableSpec(parseStatement(ddl));
  }

  /** Parses a DDL file (UTF-8); error messages start with {@code <file>:<line>:<column>:}. */
  public static TableSpec parseFile(Path file) {
    return toTableSpec(parseStatementFile(file));
  }

  /**
   * Parses a {@code CREATE TABLE} statement without applying the rules of a connector: for reuse by
   * other table kinds. Syntax, types and unsupported constructs are checked here.
   */
  public static DdlStatement parseStatement(String ddl) {
    return parseStatement(ddl, Optional.empty());
  }

  /** {@link #parseStatement(String)} for a file (UTF-8); messages start with the file name. */
  public static DdlStatement parseStatementFile(Path file) {
    String ddl;
    try {
      ddl = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TableDefinitionException("Cannot read DDL file '" + file + "': " + e, e);
    }
    return parseStatement(ddl, Optional.of(file.toString()));
  }

  private static DdlStatement parseStatement(String ddl, Optional<String> sourceName) {
    if (ddl == null) {
      throw new TableDefinitionException("DDL text is null");
    }
    return new DdlParser(ddl, sourceName).statement();
  }

  /**
   * Applies the file table rules to a parsed statement: {@code connector} (when given) is {@code
   * filesystem}, options are valid, metadata keys and their types are known, partition keys and the
   * watermark column are physical columns. A relative {@code path} is made absolute against the
   * working directory.
   */
  public static TableSpec toTableSpec(DdlStatement statement) {
    DdlStatement resolved = statement.withOptions(resolvePath(statement.options()));
    TableOptions options = options(resolved);

    List<MetadataColumn> metadata = new ArrayList<>();
    Schema.Builder schema = Schema.builder();
    Map<String, Column> byName = new HashMap<>();
    for (Column column : resolved.columns()) {
      byName.put(column.name(), column);
      schema.addField(column.name(), column.type());
      if (column.isMetadata()) {
        metadata.add(metadataColumn(resolved, column));
      }
    }
    for (String key : resolved.partitionKeys()) {
      Column column = byName.get(key);
      if (column == null) {
        throw resolved.errorAt(
            resolved.partitionKeyLocation(key),
            "partition key `"
                + key
                + "` is not a column of table `"
                + resolved.name()
                + "`; columns are "
                + resolved.columns().stream().map(Column::name).toList());
      }
      if (column.isMetadata()) {
        throw resolved.errorAt(
            resolved.partitionKeyLocation(key),
            "partition key `" + key + "` is a METADATA column; partition by a physical column");
      }
    }
    resolved
        .watermark()
        .ifPresent(
            w -> {
              Column column = byName.get(w.column());
              if (column == null) {
                throw resolved.errorAt(
                    resolved.watermarkLocation(),
                    "watermark column `" + w.column() + "` is not a column of the table");
              }
              ColumnType type = ColumnType.of(column.type());
              if (type != ColumnType.TIMESTAMP && type != ColumnType.TIMESTAMP_LTZ) {
                throw resolved.errorAt(
                    resolved.watermarkLocation(),
                    "watermark column `"
                        + w.column()
                        + "` is "
                        + column.typeText()
                        + "; it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)");
              }
            });
    try {
      return TableSpec.builder()
          .setName(resolved.name())
          .setSchema(schema.build())
          .setPartitionKeys(resolved.partitionKeys())
          .setMetadataColumns(metadata)
          .setWatermark(resolved.watermark())
          .setOptions(options)
          .build();
    } catch (TableDefinitionException e) {
      throw resolved.errorAt(resolved.location(), e.getMessage());
    }
  }

  private static LinkedHashMap<String, String> resolvePath(Map<String, String> options) {
    LinkedHashMap<String, String> copy = new LinkedHashMap<>(options);
    String path = copy.get(TableOptions.PATH);
    if (path == null || path.isBlank() || !path.equals(path.strip())) {
      return copy; // the option validation reports it
    }
    Path local;
    try {
      local = LocalPaths.of(TableOptions.PATH, path);
    } catch (TableDefinitionException e) {
      return copy;
    }
    if (!local.isAbsolute()) {
      copy.put(TableOptions.PATH, local.toAbsolutePath().normalize().toString());
    }
    return copy;
  }

  private static TableOptions options(DdlStatement statement) {
    List<OptionProblem> problems = TableOptions.problems(statement.options());
    if (problems.isEmpty()) {
      return TableOptions.of(statement.options());
    }
    if (problems.size() == 1) {
      OptionProblem p = problems.get(0);
      throw statement.errorAt(statement.optionLocation(p.key()), p.message());
    }
    StringBuilder message = new StringBuilder();
    message.append("Invalid table options (").append(problems.size()).append(" problems):");
    for (OptionProblem p : problems) {
      message
          .append("\n  ")
          .append(DdlStatement.prefix(statement.sourceName(), statement.optionLocation(p.key())))
          .append(p.message());
    }
    throw statement.errorAt(statement.optionLocation(problems.get(0).key()), message.toString());
  }

  private static MetadataColumn metadataColumn(DdlStatement statement, Column column) {
    String keyText = column.metadataKey().get();
    MetadataKey key;
    try {
      key = MetadataKey.of(keyText);
    } catch (TableDefinitionException e) {
      throw statement.errorAt(
          column.location(), "METADATA column `" + column.name() + "`: " + e.getMessage());
    }
    if (ColumnType.of(column.type()) != key.type()) {
      throw statement.errorAt(
          column.location(),
          "METADATA column `"
              + column.name()
              + "` is declared "
              + column.typeText()
              + ", but metadata key '"
              + key.key()
              + "' is "
              + typeName(key.type())
              + " NOT NULL; declare it as "
              + typeName(key.type()));
    }
    return MetadataColumn.of(column.name(), key);
  }

  private static String typeName(ColumnType type) {
    switch (type) {
      case TIMESTAMP:
        return "TIMESTAMP(3)";
      case TIMESTAMP_LTZ:
        return "TIMESTAMP_LTZ(3)";
      default:
        return type.name();
    }
  }

  // ---------------------------------------------------------------- statement

  private DdlStatement statement() {
    Token create = peek();
    if (!create.isKeyword("CREATE")) {
      throw error(
          create.location(),
          "expected CREATE TABLE but found "
              + create.describe()
              + "; only CREATE TABLE is supported");
    }
    take();
    if (peek().isKeyword("TEMPORARY")) {
      take();
    }
    Token table = peek();
    if (!table.isKeyword("TABLE")) {
      throw error(
          table.location(),
          "expected TABLE after CREATE but found "
              + table.describe()
              + "; only CREATE TABLE is supported");
    }
    take();
    if (peek().isKeyword("IF")) {
      take();
      expectKeyword("NOT", "IF NOT EXISTS");
      expectKeyword("EXISTS", "IF NOT EXISTS");
    }
    String name = identifier("a table name");
    while (peek().isSymbol(".")) {
      take();
      name = identifier("a table name after '.'");
    }
    rejectLike();
    if (peek().isKeyword("AS")) {
      throw error(
          peek().location(),
          "CREATE TABLE ... AS SELECT is not supported; declare the columns: CREATE TABLE "
              + name
              + " (col TYPE, ...) WITH (...)");
    }
    if (!peek().isSymbol("(")) {
      throw error(
          peek().location(),
          "expected '(' and the column list after the table name but found " + peek().describe());
    }
    take();

    List<Column> columns = new ArrayList<>();
    Optional<WatermarkSpec> watermark = Optional.empty();
    Optional<Location> watermarkLocation = Optional.empty();
    if (peek().isSymbol(")")) {
      throw error(peek().location(), "the column list is empty; declare at least one column");
    }
    while (true) {
      Token start = peek();
      if (start.isKeyword("WATERMARK") && peek(1).isKeyword("FOR")) {
        if (watermark.isPresent()) {
          throw error(start.location(), "a table has at most one WATERMARK");
        }
        watermark = Optional.of(watermark());
        watermarkLocation = Optional.of(start.location());
      } else {
        rejectConstraint(start);
        Column column = column();
        for (Column other : columns) {
          if (other.name().equals(column.name())) {
            throw error(
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
      Token separator = take();
      if (separator.isSymbol(")")) {
        break;
      }
      if (!separator.isSymbol(",")) {
        throw error(
            separator.location(),
            "expected ',' or ')' after a column but found " + separator.describe());
      }
    }
    if (columns.isEmpty()) {
      throw error(create.location(), "the table declares no column");
    }

    Optional<String> comment = Optional.empty();
    if (peek().isKeyword("COMMENT")) {
      take();
      comment = Optional.of(string("a comment string"));
    }
    List<String> partitionKeys = new ArrayList<>();
    Map<String, Location> partitionKeyLocations = new HashMap<>();
    if (peek().isKeyword("PARTITIONED")) {
      take();
      expectKeyword("BY", "PARTITIONED BY");
      expectSymbol("(", "PARTITIONED BY (");
      while (true) {
        Location at = peek().location();
        String key = identifier("a partition column name");
        if (partitionKeyLocations.containsKey(key)) {
          throw error(at, "partition key `" + key + "` is listed twice");
        }
        partitionKeys.add(key);
        partitionKeyLocations.put(key, at);
        Token separator = take();
        if (separator.isSymbol(")")) {
          break;
        }
        if (!separator.isSymbol(",")) {
          throw error(
              separator.location(),
              "expected ',' or ')' in PARTITIONED BY but found " + separator.describe());
        }
      }
    }
    if (peek().isKeyword("DISTRIBUTED")) {
      throw error(
          peek().location(),
          "DISTRIBUTED BY is not supported; FileTables tables are partitioned with PARTITIONED BY");
    }
    LinkedHashMap<String, String> options = new LinkedHashMap<>();
    Map<String, Location> optionLocations = new HashMap<>();
    Optional<Location> withLocation = Optional.empty();
    if (peek().isKeyword("WITH")) {
      withLocation = Optional.of(take().location());
      withOptions(options, optionLocations);
    }
    rejectLike();
    if (peek().isKeyword("AS")) {
      throw error(peek().location(), "CREATE TABLE ... AS SELECT is not supported");
    }
    if (peek().isSymbol(";")) {
      take();
    }
    Token end = peek();
    if (end.kind() != Kind.END) {
      throw error(
          end.location(),
          "unexpected "
              + end.describe()
              + "; expected "
              + expectedAfterColumns(comment, partitionKeys, withLocation)
              + " (one CREATE TABLE statement per DDL)");
    }
    return new DdlStatement(
        sourceName,
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
    if (peek().isKeyword("LIKE")) {
      throw error(
          peek().location(),
          "LIKE clauses are not supported; declare the columns and the WITH options of the table"
              + " in full");
    }
  }

  private void rejectConstraint(Token start) {
    if (start.isKeyword("PRIMARY") && peek(1).isKeyword("KEY")) {
      throw error(
          start.location(),
          "PRIMARY KEY constraints are not supported: file tables are append-only; remove it");
    }
    if (start.isKeyword("CONSTRAINT")) {
      throw error(
          start.location(),
          "constraints (CONSTRAINT ... PRIMARY KEY) are not supported: file tables are append-only;"
              + " remove it");
    }
  }

  // ---------------------------------------------------------------- columns

  private Column column() {
    Location at = peek().location();
    String name = identifier("a column name, WATERMARK FOR or ')'");
    if (peek().isKeyword("AS")) {
      throw error(
          peek().location(),
          "computed column `"
              + name
              + "` (name AS expression) is not supported; FileTables supports physical columns"
              + " (name TYPE) and METADATA columns");
    }
    ParsedType type = type();
    boolean notNull = false;
    boolean nullabilityGiven = false;
    Optional<String> metadataKey = Optional.empty();
    boolean virtual = false;
    Optional<String> comment = Optional.empty();
    while (true) {
      Token token = peek();
      if (token.isKeyword("NOT") && !nullabilityGiven && metadataKey.isEmpty()) {
        take();
        expectKeyword("NULL", "NOT NULL");
        notNull = true;
        nullabilityGiven = true;
      } else if (token.isKeyword("NULL") && !nullabilityGiven && metadataKey.isEmpty()) {
        take();
        nullabilityGiven = true;
      } else if (token.isKeyword("METADATA") && metadataKey.isEmpty()) {
        take();
        if (peek().isKeyword("FROM")) {
          take();
          metadataKey = Optional.of(string("the metadata key, e.g. 'file.path'"));
        } else {
          metadataKey = Optional.of(name);
        }
        if (peek().isKeyword("VIRTUAL")) {
          take();
          virtual = true;
        }
      } else if (token.isKeyword("COMMENT") && comment.isEmpty()) {
        take();
        comment = Optional.of(string("a comment string"));
      } else if (token.isKeyword("PRIMARY") || token.isKeyword("CONSTRAINT")) {
        throw error(
            token.location(),
            "PRIMARY KEY constraints are not supported: file tables are append-only; remove it");
      } else if (token.isSymbol(",") || token.isSymbol(")")) {
        break;
      } else {
        throw error(
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
    return new Column(name, fieldType, typeText, metadataKey, virtual, comment, at);
  }

  /** A parsed type: its Beam type (nullable) and canonical text. */
  private record ParsedType(FieldType fieldType, String text) {}

  private ParsedType type() {
    Token token = peek();
    if (token.kind() != Kind.WORD) {
      throw error(
          token.location(),
          "expected a column type but found "
              + token.describe()
              + "; supported: "
              + SUPPORTED_TYPES);
    }
    take();
    String word = token.text().toUpperCase(Locale.ROOT);
    switch (word) {
      case "STRING":
        return new ParsedType(ColumnType.STRING.fieldType(), "STRING");
      case "VARCHAR":
        {
          Optional<Integer> length = optionalInt("VARCHAR length", 1, Integer.MAX_VALUE);
          return new ParsedType(
              ColumnType.STRING.fieldType(),
              length.map(n -> "VARCHAR(" + n + ")").orElse("VARCHAR"));
        }
      case "CHAR":
      case "CHARACTER":
        if (peek().isKeyword("VARYING")) {
          take();
          Optional<Integer> length = optionalInt("VARCHAR length", 1, Integer.MAX_VALUE);
          return new ParsedType(
              ColumnType.STRING.fieldType(),
              length.map(n -> "VARCHAR(" + n + ")").orElse("VARCHAR"));
        }
        throw error(
            token.location(),
            "type "
                + word
                + " is not supported (fixed-length, blank-padded strings); use STRING or VARCHAR(n)");
      case "BOOLEAN":
        return new ParsedType(ColumnType.BOOLEAN.fieldType(), "BOOLEAN");
      case "INT":
      case "INTEGER":
        return new ParsedType(ColumnType.INT.fieldType(), "INT");
      case "BIGINT":
        return new ParsedType(ColumnType.BIGINT.fieldType(), "BIGINT");
      case "FLOAT":
        return new ParsedType(ColumnType.FLOAT.fieldType(), "FLOAT");
      case "DOUBLE":
        if (peek().isKeyword("PRECISION")) {
          take();
        }
        return new ParsedType(ColumnType.DOUBLE.fieldType(), "DOUBLE");
      case "DECIMAL":
      case "DEC":
      case "NUMERIC":
        return decimal(token);
      case "DATE":
        return new ParsedType(ColumnType.DATE.fieldType(), "DATE");
      case "TIMESTAMP":
        return timestamp(token);
      case "TIMESTAMP_LTZ":
        timestampPrecision(token, "TIMESTAMP_LTZ");
        return new ParsedType(ColumnType.TIMESTAMP_LTZ.fieldType(), "TIMESTAMP_LTZ(3)");
      default:
        throw error(
            token.location(),
            "unsupported type " + token.text() + "; supported types: " + SUPPORTED_TYPES);
    }
  }

  private ParsedType decimal(Token token) {
    int precision = 10;
    int scale = 0;
    if (peek().isSymbol("(")) {
      take();
      precision = intLiteral("DECIMAL precision", 1, 38);
      if (peek().isSymbol(",")) {
        take();
        Location at = peek().location();
        scale = intLiteral("DECIMAL scale", 0, 38);
        if (scale > precision) {
          throw error(
              at,
              "DECIMAL scale "
                  + scale
                  + " is larger than its precision "
                  + precision
                  + "; the scale must be between 0 and the precision");
        }
      }
      expectSymbol(")", "DECIMAL(p, s)");
    }
    return new ParsedType(
        ColumnType.decimal(precision, scale), "DECIMAL(" + precision + ", " + scale + ")");
  }

  private ParsedType timestamp(Token token) {
    timestampPrecision(token, "TIMESTAMP");
    if (peek().isKeyword("WITH")) {
      Token with = take();
      if (peek().isKeyword("LOCAL")) {
        take();
        expectKeyword("TIME", "WITH LOCAL TIME ZONE");
        expectKeyword("ZONE", "WITH LOCAL TIME ZONE");
        return new ParsedType(ColumnType.TIMESTAMP_LTZ.fieldType(), "TIMESTAMP_LTZ(3)");
      }
      throw error(
          with.location(),
          "TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP(3) (no zone) or"
              + " TIMESTAMP(3) WITH LOCAL TIME ZONE / TIMESTAMP_LTZ(3) (an instant)");
    }
    if (peek().isKeyword("WITHOUT")) {
      take();
      expectKeyword("TIME", "WITHOUT TIME ZONE");
      expectKeyword("ZONE", "WITHOUT TIME ZONE");
    }
    return new ParsedType(ColumnType.TIMESTAMP.fieldType(), "TIMESTAMP(3)");
  }

  /**
   * Reads an optional {@code (p)} after a timestamp type and checks it is a millisecond precision.
   */
  private void timestampPrecision(Token token, String typeName) {
    if (!peek().isSymbol("(")) {
      return;
    }
    take();
    Token number = peek();
    int precision = intLiteral(typeName + " precision", 0, 9);
    if (precision > 3) {
      throw error(
          number.location(),
          typeName
              + "("
              + precision
              + ") is not supported: FileTables supports millisecond precision, "
              + typeName
              + "(0) to "
              + typeName
              + "(3) (a bare "
              + typeName
              + " is read as "
              + typeName
              + "(3))");
    }
    expectSymbol(")", typeName + "(p)");
  }

  private Optional<Integer> optionalInt(String what, int min, int max) {
    if (!peek().isSymbol("(")) {
      return Optional.empty();
    }
    take();
    int value = intLiteral(what, min, max);
    expectSymbol(")", what);
    return Optional.of(value);
  }

  private int intLiteral(String what, int min, int max) {
    Token token = take();
    if (token.kind() == Kind.NUMBER && token.text().indexOf('.') < 0) {
      try {
        int value = Integer.parseInt(token.text());
        if (value >= min && value <= max) {
          return value;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error(
        token.location(),
        "expected "
            + what
            + " (a whole number from "
            + min
            + " to "
            + max
            + ") but found "
            + token.describe());
  }

  // ---------------------------------------------------------------- watermark

  private WatermarkSpec watermark() {
    take(); // WATERMARK
    take(); // FOR
    String column = identifier("the watermark's time column");
    expectKeyword("AS", "WATERMARK FOR " + column + " AS");
    Token expressionStart = peek();
    String expressionColumn = identifierOrNull();
    if (expressionColumn == null || !expressionColumn.equals(column)) {
      throw error(
          expressionStart.location(),
          "unsupported watermark expression starting with "
              + expressionStart.describe()
              + "; "
              + WATERMARK_FORMS
              + " (the same column on both sides)");
    }
    if (peek().isSymbol(",") || peek().isSymbol(")")) {
      return WatermarkSpec.of(column, Duration.ZERO);
    }
    Token minus = take();
    if (!minus.isSymbol("-") || !peek().isKeyword("INTERVAL")) {
      throw error(minus.location(), "unsupported watermark expression; " + WATERMARK_FORMS);
    }
    take(); // INTERVAL
    Token amount = take();
    if (amount.kind() != Kind.STRING) {
      throw error(
          amount.location(),
          "expected the interval amount in quotes, e.g. INTERVAL '5' SECOND, but found "
              + amount.describe());
    }
    Token unit = take();
    Duration unitLength = intervalUnit(unit);
    if (peek().isKeyword("TO") || peek().isSymbol("(")) {
      throw error(
          peek().location(),
          "compound or precision intervals are not supported in a watermark; " + WATERMARK_FORMS);
    }
    return WatermarkSpec.of(column, intervalDuration(amount, unitLength));
  }

  private Duration intervalUnit(Token unit) {
    if (unit.kind() == Kind.WORD) {
      switch (unit.text().toUpperCase(Locale.ROOT)) {
        case "MILLISECOND":
        case "MILLISECONDS":
          return Duration.ofMillis(1);
        case "SECOND":
        case "SECONDS":
          return Duration.ofSeconds(1);
        case "MINUTE":
        case "MINUTES":
          return Duration.ofMinutes(1);
        case "HOUR":
        case "HOURS":
          return Duration.ofHours(1);
        case "DAY":
        case "DAYS":
          return Duration.ofDays(1);
        default:
          break;
      }
    }
    throw error(
        unit.location(),
        "unsupported interval unit "
            + unit.describe()
            + "; supported: MILLISECOND, SECOND, MINUTE, HOUR, DAY (or plural)");
  }

  private Duration intervalDuration(Token amount, Duration unitLength) {
    BigDecimal value;
    try {
      value = new BigDecimal(amount.text().trim());
    } catch (NumberFormatException e) {
      throw error(
          amount.location(),
          "interval amount " + amount.describe() + " is not a number; e.g. INTERVAL '5' SECOND");
    }
    if (value.signum() < 0) {
      throw error(
          amount.location(),
          "interval amount "
              + amount.describe()
              + " is negative; the watermark delay must be >= 0");
    }
    BigDecimal millis = value.multiply(BigDecimal.valueOf(unitLength.toMillis()));
    try {
      return Duration.ofMillis(millis.longValueExact());
    } catch (ArithmeticException e) {
      throw error(
          amount.location(),
          "interval amount "
              + amount.describe()
              + " is not a whole number of milliseconds (or too large); watermark delays have"
              + " millisecond precision");
    }
  }

  // ---------------------------------------------------------------- WITH options

  private void withOptions(LinkedHashMap<String, String> options, Map<String, Location> locations) {
    expectSymbol("(", "WITH (");
    if (peek().isSymbol(")")) {
      take();
      return;
    }
    while (true) {
      Token key = take();
      if (key.kind() != Kind.STRING) {
        throw error(
            key.location(),
            "expected an option key in single quotes, e.g. 'path' = '/data/orders', but found "
                + key.describe());
      }
      expectSymbol("=", "'" + key.text() + "' =");
      Token value = take();
      if (value.kind() != Kind.STRING) {
        throw error(
            value.location(),
            "expected the value of option '"
                + key.text()
                + "' in single quotes but found "
                + value.describe()
                + "; all option values are strings, e.g. 'sink.parallelism' = '4'");
      }
      if (options.containsKey(key.text())) {
        throw error(
            key.location(),
            "option '"
                + key.text()
                + "' is given twice (first at line "
                + locations.get(key.text()).line()
                + ")");
      }
      options.put(key.text(), value.text());
      locations.put(key.text(), key.location());
      Token separator = take();
      if (separator.isSymbol(")")) {
        return;
      }
      if (!separator.isSymbol(",")) {
        throw error(
            separator.location(),
            "expected ',' or ')' after option '"
                + key.text()
                + "' but found "
                + separator.describe());
      }
    }
  }

  // ---------------------------------------------------------------- token helpers

  private Token peek() {
    return peek(0);
  }

  private Token peek(int ahead) {
    return tokens.get(Math.min(next + ahead, tokens.size() - 1));
  }

  private Token take() {
    Token token = peek();
    if (next < tokens.size() - 1) {
      next++;
    }
    return token;
  }

  private String identifier(String what) {
    Token token = peek();
    String name = identifierOrNull();
    if (name == null) {
      throw error(token.location(), "expected " + what + " but found " + token.describe());
    }
    return name;
  }

  /** Takes a name (plain word or back-quoted) and returns it, or returns null and takes nothing. */
  private String identifierOrNull() {
    Token token = peek();
    if (token.kind() == Kind.WORD || token.kind() == Kind.QUOTED_IDENTIFIER) {
      take();
      return token.text();
    }
    return null;
  }

  private String string(String what) {
    Token token = take();
    if (token.kind() != Kind.STRING) {
      throw error(
          token.location(), "expected " + what + " in single quotes but found " + token.describe());
    }
    return token.text();
  }

  private void expectKeyword(String keyword, String context) {
    Token token = take();
    if (!token.isKeyword(keyword)) {
      throw error(
          token.location(),
          "expected " + keyword + " (in " + context + ") but found " + token.describe());
    }
  }

  private void expectSymbol(String symbol, String context) {
    Token token = take();
    if (!token.isSymbol(symbol)) {
      throw error(
          token.location(),
          "expected '" + symbol + "' (in " + context + ") but found " + token.describe());
    }
  }

  private TableDefinitionException error(Location at, String message) {
    return new TableDefinitionException(DdlStatement.prefix(sourceName, at) + message);
  }
}
