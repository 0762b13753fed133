package dev.filetables.pipelines;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * The demo's synthetic web-shop orders: row {@code i} of {@code n} is a pure function of {@code (i,
 * n, seed)}, so any worker can generate any slice and the data set is the same on every runner and
 * parallelism.
 *
 * <p>Orders spread over two days from {@link #START} following a daily curve (quiet nights, evening
 * peak), so every one of the 48 {@code dt/hour} partitions gets rows but not equally many; order
 * ids grow with time. Customers are skewed (a few buy often), cheap products sell more, prices are
 * in the country's currency, and late orders are less far along (CREATED/PAID rather than
 * DELIVERED). About 1% of orders have no customer (guest checkout), 0.5% no country and 0.2% no
 * quantity.
 */
@Internal
public final class OrdersDataset {
  static final String TABLE_NAME = "orders";

  /**
   * First instant of the data: 2020-05-20 00:00 (the README's example partition is 2020-05-20/12).
   */
  static final LocalDateTime START = LocalDateTime.of(2020, 5, 20, 0, 0);

  static final int DAYS = 2;
  static final long FIRST_ORDER_ID = 100_000_001L;

  public static final Schema SCHEMA =
      Schema.builder()
          .addField("order_id", FieldType.INT64)
          .addNullableField("customer_id", FieldType.INT64)
          .addNullableField("product", FieldType.STRING)
          .addNullableField("category", FieldType.STRING)
          .addNullableField("quantity", FieldType.INT32)
          .addNullableField("unit_price", ColumnType.decimal(10, 2))
          .addNullableField("currency", FieldType.STRING)
          .addNullableField("country", FieldType.STRING)
          .addNullableField("status", FieldType.STRING)
          .addNullableField("order_ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("dt", FieldType.STRING)
          .addNullableField("hour", FieldType.STRING)
          .build();

  /**
   * Orders per hour of the day, relative (a European shop: quiet at night, peak in the evening).
   */
  private static final double[] HOURLY_WEIGHT = {
    3, 2, 1.5, 1, 1, 1.5, 2.5, 4, 5, 5.5, 6, 6.5, 7, 6.5, 6, 6, 6.5, 7, 8, 9, 9.5, 8.5, 6.5, 4.5
  };

  /** Cumulative weight at the start of each hour of the whole period (length hours + 1). */
  private static final double[] CUMULATIVE = cumulativeHourWeights();

  private static final String[][] CATALOG = {
    // product, category, base price in EUR
    {"USB-C Cable", "Electronics", "9.99"},
    {"Wireless Mouse", "Electronics", "24.99"},
    {"Mechanical Keyboard", "Electronics", "89.00"},
    {"27-inch Monitor", "Electronics", "229.00"},
    {"Noise-Cancelling Headphones", "Electronics", "179.00"},
    {"Portable SSD 1TB", "Electronics", "99.90"},
    {"Streaming Systems", "Books", "39.90"},
    {"Designing Data-Intensive Applications", "Books", "44.50"},
    {"The Pragmatic Programmer", "Books", "37.00"},
    {"Pasta Cookbook", "Books", "24.00"},
    {"Coffee Grinder", "Home & Kitchen", "59.00"},
    {"Chef's Knife", "Home & Kitchen", "49.90"},
    {"Cast Iron Pan", "Home & Kitchen", "39.00"},
    {"French Press", "Home & Kitchen", "27.50"},
    {"T-Shirt", "Clothing", "19.90"},
    {"Hoodie", "Clothing", "49.00"},
    {"Running Shoes", "Clothing", "99.00"},
    {"Rain Jacket", "Clothing", "129.00"},
    {"Building Blocks Set", "Toys", "59.99"},
    {"Puzzle, 1000 pieces", "Toys", "17.99"},
    {"Board Game", "Toys", "34.90"},
    {"Yoga Mat", "Sports", "29.90"},
    {"Water Bottle", "Sports", "14.90"},
    {"Dumbbell Set", "Sports", "79.00"},
    {"Green Tea 100g", "Grocery", "7.49"},
    {"Dark Chocolate", "Grocery", "3.29"},
    {"Espresso Beans 1kg", "Grocery", "21.90"},
    {"Sunscreen SPF 50", "Beauty", "12.90"},
    {"Shampoo", "Beauty", "6.99"},
  };

  /** Popularity: cheaper products sell more (weight ∝ 1/√price). */
  private static final double[] PRODUCT_CUMULATIVE = productWeights();

  private static final String[] COUNTRIES = {
    "DE", "US", "FR", "GB", "IT", "ES", "NL", "PL", "SE", "CH", "JP"
  };
  private static final double[] COUNTRY_CUMULATIVE =
      cumulative(22, 20, 14, 12, 7, 7, 6, 4, 3, 3, 2);
  private static final String[] CURRENCIES = {
    "EUR", "USD", "EUR", "GBP", "EUR", "EUR", "EUR", "PLN", "SEK", "CHF", "JPY"
  };
  private static final double[] EUR_RATE = {1, 1.08, 1, 0.86, 1, 1, 1, 4.3, 11.5, 0.96, 168};

  private static final double[] QUANTITY_CUMULATIVE =
      cumulative(60, 22, 9, 5, 2.5, 0.5, 0.4, 0.3, 0.2, 0.1);

  private static final long HOUR_MILLIS = 3_600_000L;
  private static final DateTimeFormatter DT = DateTimeFormatter.ofPattern("yyyy-MM-dd");
  private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("HH");

  /**
   * The DDL lines of the order columns (without partition columns), shared by every demo table of
   * orders so their schemas cannot drift apart.
   */
  static final String ORDER_COLUMNS =
      String.join(
          "\n",
          "  order_id BIGINT NOT NULL,",
          "  customer_id BIGINT,",
          "  product STRING,",
          "  category STRING,",
          "  quantity INT,",
          "  unit_price DECIMAL(10, 2),",
          "  currency STRING,",
          "  country STRING,",
          "  status STRING,",
          "  order_ts TIMESTAMP(3),");

  private OrdersDataset() {}

  /** The CREATE TABLE statement of the demo table stored at {@code path} as Parquet. */
  public static String ddl(String path) {
    return ddl(path, "parquet");
  }

  /** The CREATE TABLE statement of the demo table stored at {@code path} in {@code format}. */
  public static String ddl(String path, String format) {
    return String.join(
        "\n",
        "-- Demo table written by `filetables demo`: synthetic web-shop orders over two days.",
        "CREATE TABLE orders (",
        ORDER_COLUMNS,
        "  dt STRING,",
        "  `hour` STRING",
        ") PARTITIONED BY (dt, `hour`) WITH (",
        "  'connector' = 'filesystem',",
        "  'path' = '" + path.replace("'", "''") + "',",
        "  'format' = '" + format + "'",
        ");",
        "");
  }

  /** Order {@code index} (0-based) of {@code total}. */
  public static Row order(long index, long total, long seed) {
    SplittableRandom random = new SplittableRandom(mix(seed, index));
    // Spread over the period by the daily curve; the jitter keeps timestamps from looking gridded
    // while order ids stay (almost) in time order.
    double fraction = (index + random.nextDouble()) / total;
    long offsetMillis = offsetOf(fraction);
    LocalDateTime orderTs = START.plusNanos(offsetMillis * 1_000_000L);

    int product = pick(PRODUCT_CUMULATIVE, random.nextDouble());
    int country = pick(COUNTRY_CUMULATIVE, random.nextDouble());
    boolean guest = random.nextDouble() < 0.01;
    boolean unknownCountry = random.nextDouble() < 0.005;
    boolean unknownQuantity = random.nextDouble() < 0.002;
    double r = random.nextDouble();
    long customer = 1 + (long) (200_000 * r * r); // skewed towards low ids: regular customers
    int quantity = 1 + pick(QUANTITY_CUMULATIVE, random.nextDouble());
    double variation = 1 + (random.nextDouble() - 0.5) * 0.1; // ±5% promotions and price changes
    BigDecimal price =
        BigDecimal.valueOf(Double.parseDouble(CATALOG[product][2]) * EUR_RATE[country] * variation)
            .setScale(2, RoundingMode.HALF_UP);
    String status = status(offsetMillis, random);

    // attachValues: the values are already of the schema's types; build() would validate and
    // convert every field of every row, half of the demo's write CPU.
    return Row.withSchema(SCHEMA)
        .attachValues(
            FIRST_ORDER_ID + index,
            guest ? null : customer,
            CATALOG[product][0],
            CATALOG[product][1],
            unknownQuantity ? null : quantity,
            price,
            CURRENCIES[country],
            unknownCountry ? null : COUNTRIES[country],
            status,
            orderTs,
            DT.format(orderTs),
            HOUR.format(orderTs));
  }

  /** Milliseconds after {@link #START} for a fraction of all orders, following the daily curve. */
  static long offsetOf(double fraction) {
    double target = Math.min(Math.max(fraction, 0), 1) * CUMULATIVE[CUMULATIVE.length - 1];
    int hour = Math.max(0, Math.min(pickIndex(CUMULATIVE, target), CUMULATIVE.length - 2));
    double weight = CUMULATIVE[hour + 1] - CUMULATIVE[hour];
    double within = Math.min((target - CUMULATIVE[hour]) / weight, 1);
    long millis = hour * HOUR_MILLIS + (long) (within * HOUR_MILLIS);
    return Math.min(millis, DAYS * 24 * HOUR_MILLIS - 1);
  }

  /**
   * Orders move on with age: CREATED → PAID → SHIPPED → DELIVERED; a few are cancelled or returned.
   */
  private static String status(long offsetMillis, SplittableRandom random) {
    double r = random.nextDouble();
    if (r < 0.03) {
      return "CANCELLED";
    }
    double hoursOld = (DAYS * 24 * HOUR_MILLIS - offsetMillis) / (double) HOUR_MILLIS;
    double progress = hoursOld * (0.5 + random.nextDouble());
    if (progress < 0.5) {
      return "CREATED";
    }
    if (progress < 4) {
      return "PAID";
    }
    if (progress < 20) {
      return "SHIPPED";
    }
    return r < 0.05 ? "RETURNED" : "DELIVERED";
  }

  private static long mix(long seed, long index) {
    // SplitMix64 finaliser: neighbouring indexes get unrelated random streams
    long z = seed * 0x9E3779B97F4A7C15L + index;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static double[] cumulativeHourWeights() {
    double[] weights = new double[DAYS * 24];
    for (int h = 0; h < weights.length; h++) {
      weights[h] = HOURLY_WEIGHT[h % 24];
    }
    return cumulative(weights);
  }

  private static double[] productWeights() {
    double[] weights = new double[CATALOG.length];
    for (int i = 0; i < CATALOG.length; i++) {
      weights[i] = 1 / Math.sqrt(Double.parseDouble(CATALOG[i][2]));
    }
    return cumulative(weights);
  }

  /** {0, w0, w0+w1, ...}: length weights + 1. */
  private static double[] cumulative(double... weights) {
    double[] sums = new double[weights.length + 1];
    for (int i = 0; i < weights.length; i++) {
      sums[i + 1] = sums[i] + weights[i];
    }
    return sums;
  }

  /** Index i with cumulative[i] <= u * total < cumulative[i + 1]. */
  private static int pick(double[] cumulative, double u) {
    int index = pickIndex(cumulative, u * cumulative[cumulative.length - 1]);
    return Math.max(0, Math.min(index, cumulative.length - 2));
  }

  private static int pickIndex(double[] cumulative, double target) {
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high - 1) {
      int mid = (low + high) >>> 1;
      if (cumulative[mid] <= target) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
