package dev.filetables.transforms.sink;

import java.math.BigDecimal;
import org.apache.beam.sdk.values.Row;

/**
 * A cheap estimate of a row's size in bytes (roughly its encoded size: strings by length, numbers
 * and times by width), used to bound the rows buffered in state and to guess file sizes before the
 * first segment tells the real ratio. No encoding, no allocation.
 */
final class RowSizes {
  private RowSizes() {}

  static long estimate(Row row) {
    long size = 2;
    int n = row.getFieldCount();
    for (int i = 0; i < n; i++) {
      size += valueSize(row.getValue(i));
    }
    return size;
  }

  private static long valueSize(Object value) {
    if (value == null) {
      return 1;
    }
    if (value instanceof String) {
      return 2 + ((String) value).length();
    }
    if (value instanceof Long || value instanceof Double) {
      return 8;
    }
    if (value instanceof Integer || value instanceof Float) {
      return 4;
    }
    if (value instanceof Boolean) {
      return 1;
    }
    if (value instanceof BigDecimal) {
      return 3 + ((BigDecimal) value).unscaledValue().bitLength() / 8;
    }
    if (value instanceof byte[]) {
      return 2 + ((byte[]) value).length;
    }
    return 8; // dates, timestamps, instants
  }
}
