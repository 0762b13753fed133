package dev.filetables.pipelines;

import dev.filetables.io.table.ColumnType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;

/**
 * Orders rows' cells column by column, nulls first: numbers by value, everything else by its
 * display string (which sorts dates and timestamps chronologically). Gives {@code query} a stable
 * output.
 */
final class CellOrder implements Comparator<List<String>>, Serializable {
  private static final long serialVersionUID = 1L;

  private final List<ColumnType> types;
  private final boolean descending;

  private CellOrder(List<ColumnType> types, boolean descending) {
    this.types = List.copyOf(types);
    this.descending = descending;
  }

  static CellOrder ascending(List<ColumnType> types) {
    return new CellOrder(types, false);
  }

  /** The reverse order (a serializable {@code reversed()}, which Beam's {@code Top} needs). */
  CellOrder reverse() {
    return new CellOrder(types, !descending);
  }

  @Override
  public int compare(List<String> a, List<String> b) {
    int result = 0;
    for (int i = 0; i < types.size() && result == 0; i++) {
      result = compareCell(a.get(i), b.get(i), types.get(i));
    }
    return descending ? -result : result;
  }

  private static int compareCell(String a, String b, ColumnType type) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    switch (type) {
      case INT:
      case BIGINT:
      case DECIMAL:
        return new BigDecimal(a).compareTo(new BigDecimal(b));
      case FLOAT:
      case DOUBLE:
        return Double.compare(Double.parseDouble(a), Double.parseDouble(b));
      default:
        return a.compareTo(b);
    }
  }
}
