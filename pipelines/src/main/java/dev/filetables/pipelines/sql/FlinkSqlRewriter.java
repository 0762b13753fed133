package dev.filetables.pipelines.sql;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.extensions.sql.impl.parser.BeamSqlParser;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.avatica.util.Casing;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.avatica.util.Quoting;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlCall;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlIdentifier;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.SqlNode;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.parser.SqlParseException;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.parser.SqlParser;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.beam.vendor.calcite.v1_28_0.org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Makes Flink SQL text run on Beam SQL: parses it with Beam SQL's own parser (Calcite) and edits
 * the text at the positions the parser reports, so everything else stays as the user wrote it.
 *
 * <ul>
 *   <li>Functions that depend on the session time zone get it as an extra last argument ({@code
 *       TO_TIMESTAMP_LTZ(ts, 3)} becomes {@code TO_TIMESTAMP_LTZ(ts, 3, 'Asia/Shanghai')}): a Beam
 *       SQL function sees nothing but its arguments.
 *   <li>Flink's optional format arguments are written out ({@code FROM_UNIXTIME(s)} becomes {@code
 *       FROM_UNIXTIME(s, 'yyyy-MM-dd HH:mm:ss', zone)}), so each function has one signature.
 *   <li>{@code CURRENT_TIMESTAMP}, {@code NOW()}, {@code LOCALTIMESTAMP}, {@code CURRENT_DATE} and
 *       {@code UNIX_TIMESTAMP()} become {@link FlinkFunctions}' functions of the session zone.
 *   <li>Flink's type name {@code STRING} becomes {@code VARCHAR}.
 * </ul>
 *
 * <p>The text given is a statement placed at its script position ({@link ScriptPosition#place}), so
 * parser messages and positions are script lines and columns.
 */
final class FlinkSqlRewriter {
  private static final SqlParser.Config PARSER =
      SqlParser.config()
          .withParserFactory(BeamSqlParser.FACTORY)
          .withQuoting(Quoting.BACK_TICK)
          .withQuotedCasing(Casing.UNCHANGED)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true);

  private final String zoneLiteral;

  FlinkSqlRewriter(ZoneId zone) {
    this.zoneLiteral = "'" + zone.getId() + "'";
  }

  /** Parses a statement (INSERT or query); a syntax error names its script position. */
  static SqlNode parseStatement(ScriptStatement statement, String what) {
    try {
      return SqlParser.create(statement.placedText(), PARSER).parseStmt();
    } catch (SqlParseException e) {
      throw syntaxError(statement, e, what);
    }
  }

  /** Parses an expression placed at its script position. */
  static SqlNode parseExpression(ScriptStatement expression, String what) {
    try {
      return SqlParser.create(expression.placedText(), PARSER).parseExpression();
    } catch (SqlParseException e) {
      throw syntaxError(expression, e, what);
    }
  }

  private static SqlScriptException syntaxError(
      ScriptStatement statement, SqlParseException e, String what) {
    SqlParserPos at = e.getPos();
    ScriptPosition where =
        at == null || at.getLineNum() == 0
            ? statement.position()
            : new ScriptPosition(at.getLineNum(), at.getColumnNum());
    String message = e.getMessage() == null ? "" : e.getMessage().split("\n")[0];
    return statement.error(where, "cannot parse " + what + ": " + message);
  }

  /** {@code text} (the placed text {@code node} was parsed from) with Flink's forms rewritten. */
  String rewrite(String text, SqlNode node) {
    List<Edit> edits = new ArrayList<>();
    node.accept(new Finder(text, edits));
    edits.sort(Comparator.comparingInt(Edit::from).reversed());
    StringBuilder result = new StringBuilder(text);
    for (Edit edit : edits) {
      result.replace(edit.from(), edit.to(), edit.replacement());
    }
    return result.toString();
  }

  private record Edit(int from, int to, String replacement) {}

  private final class Finder extends SqlBasicVisitor<Void> {
    private final String text;
    private final List<Edit> edits;

    Finder(String text, List<Edit> edits) {
      this.text = text;
      this.edits = edits;
    }

    @Override
    public Void visit(SqlCall call) {
      String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
      int arguments = call.operandCount();
      switch (name) {
        case "TO_TIMESTAMP_LTZ":
          appendArguments(call, zoneLiteral);
          break;
        case "FROM_UNIXTIME":
        case "UNIX_TIMESTAMP":
          if (arguments == 0) {
            replace(call, FlinkFunctions.UNIX_TIMESTAMP_NOW + "(" + zoneLiteral + ")");
          } else if (arguments == 1) {
            appendArguments(call, "'" + Patterns.DEFAULT + "', " + zoneLiteral);
          } else {
            appendArguments(call, zoneLiteral);
          }
          break;
        case "TO_TIMESTAMP":
          if (arguments == 1) {
            appendArguments(call, "'" + Patterns.DEFAULT + "'");
          }
          break;
        case "CURRENT_TIMESTAMP":
        case "LOCALTIMESTAMP":
        case "NOW":
          replace(call, FlinkFunctions.NOW + "(" + zoneLiteral + ")");
          return null;
        case "CURRENT_DATE":
          replace(call, FlinkFunctions.TODAY + "(" + zoneLiteral + ")");
          return null;
        default:
          break;
      }
      return super.visit(call);
    }

    /** Calcite parses the niladic {@code CURRENT_TIMESTAMP} (no parentheses) as a name. */
    @Override
    public Void visit(SqlIdentifier id) {
      if (!id.isSimple()) {
        return null;
      }
      SqlParserPos at = id.getParserPosition();
      int from = start(at);
      String name = id.getSimple().toUpperCase(Locale.ROOT);
      if (from >= text.length() || text.charAt(from) == '`') {
        return null; // a quoted name is a column
      }
      switch (name) {
        case "CURRENT_TIMESTAMP":
        case "LOCALTIMESTAMP":
          edits.add(new Edit(from, end(at), FlinkFunctions.NOW + "(" + zoneLiteral + ")"));
          break;
        case "CURRENT_DATE":
          edits.add(new Edit(from, end(at), FlinkFunctions.TODAY + "(" + zoneLiteral + ")"));
          break;
        default:
          break;
      }
      return null;
    }

    @Override
    public Void visit(SqlDataTypeSpec type) {
      if (type.getTypeNameSpec().getTypeName().isSimple()
          && type.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("STRING")) {
        int from = start(type.getParserPosition());
        if (text.regionMatches(true, from, "STRING", 0, 6)) {
          edits.add(new Edit(from, from + 6, "VARCHAR"));
        }
      }
      return null;
    }

    /** Adds arguments before the call's closing parenthesis. */
    private void appendArguments(SqlCall call, String arguments) {
      int close = end(call.getParserPosition()) - 1;
      if (close < 0 || close >= text.length() || text.charAt(close) != ')') {
        return; // not a parenthesized call as written: leave it to the engine's own message
      }
      edits.add(new Edit(close, close, (call.operandCount() == 0 ? "" : ", ") + arguments));
    }

    private void replace(SqlCall call, String replacement) {
      SqlParserPos at = call.getParserPosition();
      edits.add(new Edit(start(at), end(at), replacement));
    }

    private int start(SqlParserPos at) {
      return ScriptPosition.offset(text, at.getLineNum(), at.getColumnNum());
    }

    /** Exclusive end offset. */
    private int end(SqlParserPos at) {
      return ScriptPosition.offset(text, at.getEndLineNum(), at.getEndColumnNum()) + 1;
    }
  }
}
