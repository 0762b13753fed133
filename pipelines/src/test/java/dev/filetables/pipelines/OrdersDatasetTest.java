package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrdersDatasetTest {
  private static final int N = 20_000;

  @Test
  void rowsAreAPureFunctionOfIndexTotalAndSeed() {
    for (long i : new long[] {0, 1, 777, N - 1}) {
      assertEquals(OrdersDataset.order(i, N, 42), OrdersDataset.order(i, N, 42));
    }
    int differing = 0;
    for (long i = 0; i < 100; i++) {
      if (!OrdersDataset.order(i, N, 42).equals(OrdersDataset.order(i, N, 43))) {
        differing++;
      }
    }
    assertTrue(differing > 95, "another seed gives other data");
    assertNotEquals(OrdersDataset.order(5, N, 42), OrdersDataset.order(6, N, 42));
  }

  @Test
  void ordersCoverTwoDaysAndAll48HourPartitions() {
    Map<String, Integer> perPartition = new TreeMap<>();
    Map<String, Integer> nulls = new HashMap<>();
    TreeSet<String> statuses = new TreeSet<>();
    LocalDateTime end = OrdersDataset.START.plusDays(OrdersDataset.DAYS);
    LocalDateTime previous = OrdersDataset.START;
    long outOfOrder = 0;
    for (long i = 0; i < N; i++) {
      Row row = OrdersDataset.order(i, N, 42);
      assertEquals(OrdersDataset.FIRST_ORDER_ID + i, row.getInt64("order_id"));
      LocalDateTime ts = row.getLogicalTypeValue("order_ts", LocalDateTime.class);
      assertTrue(!ts.isBefore(OrdersDataset.START) && ts.isBefore(end), ts.toString());
      if (ts.isBefore(previous)) {
        outOfOrder++;
      }
      previous = ts;
      // partition columns are derived from order_ts
      assertEquals(ts.toLocalDate().toString(), row.getString("dt"));
      assertEquals(String.format("%02d", ts.getHour()), row.getString("hour"));
      perPartition.merge(row.getString("dt") + "/" + row.getString("hour"), 1, Integer::sum);
      for (String column : List.of("customer_id", "quantity", "country", "product", "unit_price")) {
        if (row.getValue(column) == null) {
          nulls.merge(column, 1, Integer::sum);
        }
      }
      BigDecimal price = row.getDecimal("unit_price");
      assertTrue(
          price.scale() == 2 && price.signum() > 0 && price.precision() <= 10, price.toString());
      statuses.add(row.getString("status"));
    }
    assertEquals(48, perPartition.size(), perPartition.toString());
    assertEquals(
        List.of("2020-05-20", "2020-05-21"),
        List.copyOf(
            new TreeSet<>(perPartition.keySet().stream().map(k -> k.substring(0, 10)).toList())));
    int quietest = perPartition.values().stream().min(Integer::compare).orElseThrow();
    int busiest = perPartition.values().stream().max(Integer::compare).orElseThrow();
    assertTrue(quietest > 0 && busiest > 5 * quietest, "a daily curve: " + perPartition);
    assertTrue(outOfOrder < N / 100, "order ids follow time: " + outOfOrder);
    // a few nulls in the nullable columns, not many
    assertTrue(between(nulls.get("customer_id"), N * 0.005, N * 0.02), nulls.toString());
    assertTrue(between(nulls.get("country"), N * 0.002, N * 0.01), nulls.toString());
    assertTrue(between(nulls.get("quantity"), 1, N * 0.005), nulls.toString());
    assertTrue(!nulls.containsKey("product") && !nulls.containsKey("unit_price"), nulls.toString());
    assertEquals(
        new TreeSet<>(List.of("CANCELLED", "CREATED", "DELIVERED", "PAID", "RETURNED", "SHIPPED")),
        statuses);
  }

  @Test
  void offsetsAreMonotoneAndInsideThePeriod() {
    long previous = -1;
    for (int k = 0; k <= 1000; k++) {
      long offset = OrdersDataset.offsetOf(k / 1000.0);
      assertTrue(offset >= previous, "monotone at " + k);
      previous = offset;
    }
    assertEquals(0, OrdersDataset.offsetOf(0));
    assertEquals(OrdersDataset.DAYS * 24 * 3_600_000L - 1, OrdersDataset.offsetOf(1));
  }

  @Test
  void ddlDeclaresTheGeneratorsSchema(@TempDir Path dir) throws Exception {
    Path ddl = dir.resolve("orders.sql");
    Files.writeString(ddl, OrdersDataset.ddl(dir.resolve("orders").toString()));
    TableSpec spec = DdlParser.parseFile(ddl);
    assertEquals(List.of("dt", "hour"), spec.partitionKeys());
    assertEquals("parquet", spec.options().format());
    assertEquals(OrdersDataset.SCHEMA.getFieldNames(), spec.physicalSchema().getFieldNames());
    assertTrue(
        spec.physicalSchema().equivalent(OrdersDataset.SCHEMA), spec.physicalSchema().toString());
  }

  private static boolean between(Integer value, double low, double high) {
    return value != null && value >= low && value <= high;
  }
}
