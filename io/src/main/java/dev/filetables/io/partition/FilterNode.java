package dev.filetables.io.partition;

import dev.filetables.io.table.ColumnType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * A node of a parsed partition filter, evaluated on a possibly partial partition.
 *
 * <p>Evaluation returns the set of SQL truth values the node can still take, as a bit mask of
 * {@link #TRUE}, {@link #FALSE} and {@link #UNKNOWN} (SQL's null result). A key that is not yet
 * known (an inner level not walked yet) can take any value, so a comparison on it gives all three;
 * a known null (default partition) makes a comparison {@link #UNKNOWN}, as in SQL. A directory is
 * kept while {@link #TRUE} is still possible, which never prunes a subtree that could match.
 */
abstract class FilterNode implements Serializable {
  private static final long serialVersionUID = 1L;

  static final int TRUE = 1;
  static final int FALSE = 2;
  static final int UNKNOWN = 4;
  static final int ANY = TRUE | FALSE | UNKNOWN;

  abstract int eval(Map<String, String> partition);

  abstract void collectKeys(List<String> keys);

  /** SQL text that parses back to an equal filter. */
  abstract String sql();

  @Override
  public String toString() {
    return sql();
  }

  static int of(boolean value) {
    return value ? TRUE : FALSE;
  }

  static int not(int mask) {
    return (mask & UNKNOWN) | ((mask & TRUE) != 0 ? FALSE : 0) | ((mask & FALSE) != 0 ? TRUE : 0);
  }

  /** Kleene AND over every pair of possible values. */
  static int and(int left, int right) {
    int out = 0;
    if ((left & FALSE) != 0 || (right & FALSE) != 0) {
      out |= FALSE;
    }
    if ((left & TRUE) != 0 && (right & TRUE) != 0) {
      out |= TRUE;
    }
    if ((left & (TRUE | UNKNOWN)) != 0
        && (right & (TRUE | UNKNOWN)) != 0
        && ((left & UNKNOWN) != 0 || (right & UNKNOWN) != 0)) {
      out |= UNKNOWN;
    }
    return out;
  }

  /** Kleene OR over every pair of possible values. */
  static int or(int left, int right) {
    return not(and(not(left), not(right)));
  }

  /** A partition column as the filter sees it. */
  static final class Column implements Serializable {
    private static final long serialVersionUID = 1L;
    final String key;
    final FieldType type;
    final ColumnType columnType;

    Column(String key, FieldType type) {
      this.key = key;
      this.type = type;
      this.columnType = ColumnType.of(type);
    }

    /** Known value as a mask-free holder: MISSING when the key is not in the partial partition. */
    Object value(Map<String, String> partition) {
      if (!partition.containsKey(key)) {
        return MISSING;
      }
      String raw = partition.get(key);
      if (raw == null) {
        return null;
      }
      try {
        return PartitionValues.parse(raw, type);
      } catch (IllegalArgumentException e) {
        // A directory value that is not of the column's type: keep it, so the reader reports it
        // instead of the filter silently hiding it.
        return MISSING;
      }
    }

    String sql() {
      return key.matches("[A-Za-z_][A-Za-z0-9_]*") && !Keywords.isKeyword(key)
          ? key
          : "`" + key.replace("`", "``") + "`";
    }
  }

  static final Object MISSING = new Object();

  /** SQL literal text of a typed value for a column type. */
  static String literal(Object value, Column column) {
    if (value == null) {
      return "NULL";
    }
    String text = PartitionValues.format(value, column.type);
    switch (column.columnType) {
      case BOOLEAN:
        return text.toUpperCase(java.util.Locale.ROOT);
      case INT:
      case BIGINT:
      case DECIMAL:
        return text;
      case FLOAT:
      case DOUBLE:
        return text.matches("-?[0-9]+\\.[0-9]+(E-?[0-9]+)?") ? text : quote(text); // NaN, Infinity
      case DATE:
        return "DATE " + quote(text);
      case TIMESTAMP:
      case TIMESTAMP_LTZ:
        return "TIMESTAMP " + quote(text);
      default:
        return quote(text);
    }
  }

  static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object left, Object right) {
    if (left instanceof Float || left instanceof Double) {
      double a = ((Number) left).doubleValue();
      double b = ((Number) right).doubleValue();
      return a == b ? 0 : Double.compare(a, b); // -0.0 equals 0.0 as in SQL
    }
    return ((Comparable) left).compareTo(right);
  }

  static final class Constant extends FilterNode {
    private static final long serialVersionUID = 1L;
    final boolean value;

    Constant(boolean value) {
      this.value = value;
    }

    @Override
    int eval(Map<String, String> partition) {
      return of(value);
    }

    @Override
    void collectKeys(List<String> keys) {}

    @Override
    String sql() {
      return value ? "TRUE" : "FALSE";
    }
  }

  enum Op {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    final String sql;

    Op(String sql) {
      this.sql = sql;
    }

    boolean holds(int comparison) {
      switch (this) {
        case EQ:
          return comparison == 0;
        case NE:
          return comparison != 0;
        case LT:
          return comparison < 0;
        case LE:
          return comparison <= 0;
        case GT:
          return comparison > 0;
        case GE:
          return comparison >= 0;
        default:
          throw new AssertionError(this);
      }
    }

    /** The operator after swapping its operands ({@code 5 < x} is {@code x > 5}). */
    Op flipped() {
      switch (this) {
        case LT:
          return GT;
        case LE:
          return GE;
        case GT:
          return LT;
        case GE:
          return LE;
        default:
          return this;
      }
    }
  }

  static final class Comparison extends FilterNode {
    private static final long serialVersionUID = 1L;
    final Column column;
    final Op op;
    final Object literal;

    Comparison(Column column, Op op, Object literal) {
      this.column = column;
      this.op = op;
      this.literal = literal;
    }

    @Override
    int eval(Map<String, String> partition) {
      Object value = column.value(partition);
      if (value == MISSING) {
        return ANY;
      }
      if (value == null) {
        return UNKNOWN;
      }
      return of(op.holds(compare(value, literal)));
    }

    @Override
    void collectKeys(List<String> keys) {
      keys.add(column.key);
    }

    @Override
    String sql() {
      return column.sql() + " " + op.sql + " " + literal(literal, column);
    }
  }

  static final class In extends FilterNode {
    private static final long serialVersionUID = 1L;
    final Column column;
    final List<Object> literals; // may hold null

    In(Column column, List<Object> literals) {
      this.column = column;
      this.literals = new ArrayList<>(literals);
    }

    @Override
    int eval(Map<String, String> partition) {
      Object value = column.value(partition);
      if (value == MISSING) {
        return ANY;
      }
      if (value == null) {
        return UNKNOWN;
      }
      boolean sawNull = false;
      for (Object literal : literals) {
        if (literal == null) {
          sawNull = true;
        } else if (compare(value, literal) == 0) {
          return TRUE;
        }
      }
      return sawNull ? UNKNOWN : FALSE;
    }

    @Override
    void collectKeys(List<String> keys) {
      keys.add(column.key);
    }

    @Override
    String sql() {
      return sql(false);
    }

    String sql(boolean negated) {
      StringBuilder out = new StringBuilder(column.sql()).append(negated ? " NOT IN (" : " IN (");
      for (int i = 0; i < literals.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(literal(literals.get(i), column));
      }
      return out.append(')').toString();
    }
  }

  static final class IsNull extends FilterNode {
    private static final long serialVersionUID = 1L;
    final Column column;
    final boolean negated;

    IsNull(Column column, boolean negated) {
      this.column = column;
      this.negated = negated;
    }

    @Override
    int eval(Map<String, String> partition) {
      if (!partition.containsKey(column.key)) {
        return TRUE | FALSE;
      }
      return of((partition.get(column.key) == null) != negated);
    }

    @Override
    void collectKeys(List<String> keys) {
      keys.add(column.key);
    }

    @Override
    String sql() {
      return column.sql() + (negated ? " IS NOT NULL" : " IS NULL");
    }
  }

  static final class Not extends FilterNode {
    private static final long serialVersionUID = 1L;
    final FilterNode child;

    Not(FilterNode child) {
      this.child = child;
    }

    @Override
    int eval(Map<String, String> partition) {
      return not(child.eval(partition));
    }

    @Override
    void collectKeys(List<String> keys) {
      child.collectKeys(keys);
    }

    @Override
    String sql() {
      if (child instanceof In) {
        return ((In) child).sql(true);
      }
      return "NOT " + (child instanceof Junction ? "(" + child.sql() + ")" : child.sql());
    }
  }

  /** AND or OR of two or more nodes. */
  static final class Junction extends FilterNode {
    private static final long serialVersionUID = 1L;
    final boolean isAnd;
    final List<FilterNode> children;

    Junction(boolean isAnd, List<FilterNode> children) {
      this.isAnd = isAnd;
      this.children = new ArrayList<>(children);
    }

    @Override
    int eval(Map<String, String> partition) {
      int result = isAnd ? TRUE : FALSE;
      for (FilterNode child : children) {
        result = isAnd ? and(result, child.eval(partition)) : or(result, child.eval(partition));
        if (result == (isAnd ? FALSE : TRUE)) {
          break; // decided whatever the rest says
        }
      }
      return result;
    }

    @Override
    void collectKeys(List<String> keys) {
      for (FilterNode child : children) {
        child.collectKeys(keys);
      }
    }

    @Override
    String sql() {
      StringBuilder out = new StringBuilder();
      for (FilterNode child : children) {
        if (out.length() > 0) {
          out.append(isAnd ? " AND " : " OR ");
        }
        // AND binds tighter than OR: only an OR inside an AND needs parentheses.
        boolean parens = child instanceof Junction && isAnd && !((Junction) child).isAnd;
        out.append(parens ? "(" + child.sql() + ")" : child.sql());
      }
      return out.toString();
    }
  }

  /** Words that cannot be plain column names in a filter. */
  static final class Keywords {
    private static final java.util.Set<String> WORDS =
        java.util.Set.of(
            "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE", "DATE", "TIMESTAMP");

    static boolean isKeyword(String word) {
      return WORDS.contains(word.toUpperCase(java.util.Locale.ROOT));
    }
  }
}
