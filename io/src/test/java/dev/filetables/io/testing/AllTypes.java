package dev.filetables.io.testing;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/**
 * The "all types" table of the tests: a schema with a column of every {@link ColumnType}, rows of
 * values that are easy to get wrong (extremes, unicode, empty strings, nulls) and random rows by
 * seed. Format, coder and pipeline tests write these rows and expect them back unchanged. A test
 * that needs more columns (partition keys) or fewer builds its schema from {@link #SCHEMA}'s fields
 * rather than listing them again.
 */
@Internal
public final class AllTypes {
  private AllTypes() {}

  /**
   * Every column type nullable, and STRING, INT, DECIMAL and TIMESTAMP also NOT NULL; decimals of
   * 9, 18 and 38 digits, which Parquet stores as int32, int64 and a fixed-length byte array. {@code
   * id} (BIGINT NOT NULL) is unique within {@link #specialRows} and within one {@link #randomRows}
   * list.
   */
  public static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addNullableField("s", ColumnType.STRING.fieldType())
          .addField("s_nn", ColumnType.STRING.fieldType())
          .addNullableField("b", ColumnType.BOOLEAN.fieldType())
          .addNullableField("i", ColumnType.INT.fieldType())
          .addNullableField("l", ColumnType.BIGINT.fieldType())
          .addNullableField("f", ColumnType.FLOAT.fieldType())
          .addNullableField("d", ColumnType.DOUBLE.fieldType())
          .addNullableField("dec9", ColumnType.decimal(9, 2))
          .addNullableField("dec18", ColumnType.decimal(18, 4))
          .addNullableField("dec38", ColumnType.decimal(38, 10))
          .addField("dec_nn", ColumnType.decimal(5, 0))
          .addNullableField("day", ColumnType.DATE.fieldType())
          .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
          .addField("ts_nn", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
          .addField("i_nn", ColumnType.INT.fieldType())
          .build();

  /** Strings that trip up text formats: delimiters, quotes, line breaks, null look-alikes. */
  private static final List<String> TRICKY_STRINGS =
      List.of(
          "",
          " ",
          "plain",
          "a,b",
          "semi;colon|pipe\ttab",
          "quote\"inside",
          "\"",
          "\"\"",
          "'single'",
          "line\nbreak",
          "cr\ronly",
          "crlf\r\nend",
          "\n",
          "trailing newline\n",
          " leading space",
          "trailing space ",
          "#hash at start",
          "back\\slash \\n not a newline",
          "null",
          "NULL",
          "\\N",
          "日本語のテキスト",
          "emoji 😀 and 𝄞",
          "mixed, \"quoted\", 中文\n and more",
          "{\"json\": [1, 2]}");

  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

  /**
   * Rows of limits: each type's extremes, NaN and infinities, -0.0, pre-1970, year 1 and 9999 and
   * sub-second times, unicode, then one row per {@link #TRICKY_STRINGS} value. Row 0 has a unicode
   * {@code s}, row 1 the empty string, row 2 null in every nullable column. Ids are 0, 1, 2, …
   */
  public static List<Row> specialRows() {
    List<Row> rows = new ArrayList<>();
    rows.add(
        Row.withSchema(SCHEMA)
            .addValues(
                0L,
                "zürich € 日本 😀",
                "",
                true,
                Integer.MIN_VALUE,
                Long.MIN_VALUE,
                -1.5f,
                Double.MAX_VALUE,
                new BigDecimal("-1234567.89"),
                new BigDecimal("-99999999999999.9999"),
                new BigDecimal("-1234567890123456789012345678.0123456789"),
                new BigDecimal("-99999"),
                LocalDate.of(1969, 12, 31),
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
                LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000_000),
                new Instant(-1L),
                Integer.MAX_VALUE)
            .build());
    rows.add(
        Row.withSchema(SCHEMA)
            .addValues(
                1L,
                "",
                "nicht leer",
                false,
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                Float.MAX_VALUE,
                -0.0,
                new BigDecimal("9999999.99"),
                new BigDecimal("0.0001"),
                new BigDecimal("99999999999999999999999999.9999999999"),
                new BigDecimal("0"),
                LocalDate.of(1, 1, 1),
                LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_000_000),
                EPOCH,
                new Instant(1_700_000_000_123L),
                0)
            .build());
    rows.add(
        Row.withSchema(SCHEMA)
            .addValues(
                2L,
                null,
                "x",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                new BigDecimal("12345"),
                null,
                null,
                LocalDateTime.of(2024, 2, 29, 12, 0, 0, 7_000_000),
                null,
                -1)
            .build());
    rows.add(
        limits(
            3,
            "hello",
            true,
            42,
            42L,
            1.5f,
            2.25,
            "123.45",
            LocalDate.of(2024, 2, 29),
            LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_000_000),
            new Instant(1_700_000_000_123L)));
    rows.add(
        limits(
            4,
            "",
            false,
            Integer.MIN_VALUE,
            Long.MIN_VALUE,
            Float.NaN,
            Double.NEGATIVE_INFINITY,
            "-98765432109876543210.0123456789",
            LocalDate.of(1, 1, 1),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
            new Instant(-1L)));
    rows.add(
        limits(
            5,
            "日本語 😀",
            null,
            Integer.MAX_VALUE,
            Long.MAX_VALUE,
            Float.POSITIVE_INFINITY,
            Double.NaN,
            "0",
            LocalDate.of(9999, 12, 31),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000_000),
            new Instant(-2_208_988_800_000L))); // 1900-01-01T00:00:00Z
    rows.add(
        limits(
            6,
            "x",
            true,
            0,
            -1L,
            -0.0f,
            Double.MIN_VALUE,
            "-0.0000000001",
            LocalDate.of(1970, 1, 1),
            EPOCH,
            new Instant(0L)));
    rows.add(
        limits(
            7,
            null,
            false,
            -7,
            7L,
            Float.MAX_VALUE,
            Double.MAX_VALUE,
            "12345678901234567890123456.7890123456",
            LocalDate.of(1600, 3, 1),
            LocalDateTime.of(2038, 1, 19, 3, 14, 7, 999_000_000),
            new Instant(253_402_300_799_999L))); // 9999-12-31T23:59:59.999Z
    for (String s : TRICKY_STRINGS) {
      rows.add(limits(rows.size(), s, null, null, null, null, null, null, null, null, null));
    }
    return rows;
  }

  /**
   * A row of the given nullable values (dec38 as text). s_nn, ts_nn and i_nn repeat s, ts and i
   * ("", 1970-01-01 00:00 and 0 where those are null), dec_nn is 0, dec9 and dec18 are null.
   */
  private static Row limits(
      long id,
      String s,
      Boolean b,
      Integer i,
      Long l,
      Float f,
      Double d,
      String dec38,
      LocalDate day,
      LocalDateTime ts,
      Instant ltz) {
    return Row.withSchema(SCHEMA)
        .withFieldValue("id", id)
        .withFieldValue("s", s)
        .withFieldValue("s_nn", s == null ? "" : s)
        .withFieldValue("b", b)
        .withFieldValue("i", i)
        .withFieldValue("l", l)
        .withFieldValue("f", f)
        .withFieldValue("d", d)
        .withFieldValue("dec38", dec38 == null ? null : new BigDecimal(dec38).setScale(10))
        .withFieldValue("dec_nn", BigDecimal.ZERO)
        .withFieldValue("day", day)
        .withFieldValue("ts", ts)
        .withFieldValue("ts_nn", ts == null ? EPOCH : ts)
        .withFieldValue("ltz", ltz)
        .withFieldValue("i_nn", i == null ? 0 : i)
        .build();
  }

  /**
   * The rows with every TIMESTAMP and TIMESTAMP_LTZ value that lies in the second before
   * 1970-01-01T00:00:00 (UTC) moved one second earlier: ORC cannot store those with a fraction of a
   * second (ORC-645), so its writer refuses them.
   */
  public static List<Row> storableInOrc(List<Row> rows) {
    List<Row> storable = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Row.FieldValueBuilder moved = Row.fromRow(row);
      for (Schema.Field field : row.getSchema().getFields()) {
        Object value = row.getValue(field.getName());
        if (value instanceof LocalDateTime) {
          LocalDateTime ts = (LocalDateTime) value;
          long millis = ts.toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
          if (millis > -1000 && millis < 0) {
            moved = moved.withFieldValue(field.getName(), ts.minusSeconds(1));
          }
        } else if (value instanceof Instant) {
          long millis = ((Instant) value).getMillis();
          if (millis > -1000 && millis < 0) {
            moved = moved.withFieldValue(field.getName(), new Instant(millis - 1000));
          }
        }
      }
      storable.add(moved.build());
    }
    return storable;
  }

  /** {@link #randomRows(Random, int)} with a new {@code Random(seed)}. */
  public static List<Row> randomRows(int count, long seed) {
    return randomRows(new Random(seed), count);
  }

  /**
   * {@code count} random rows, the same for the same state of {@code random}: ids 1000, 1001, …,
   * about one null in five in each nullable column, strings made of {@link #TRICKY_STRINGS},
   * numbers of every magnitude (sometimes NaN), dates from 1696 to 2243, instants from about 1200
   * BC to AD 5100.
   */
  public static List<Row> randomRows(Random random, int count) {
    List<Row> rows = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      Row.Builder row = Row.withSchema(SCHEMA).addValue(1000L + k);
      for (Schema.Field field : SCHEMA.getFields().subList(1, SCHEMA.getFieldCount())) {
        Object value = randomValue(random, field.getType());
        row.addValue(field.getType().getNullable() && random.nextInt(5) == 0 ? null : value);
      }
      rows.add(row.build());
    }
    return rows;
  }

  private static Object randomValue(Random random, FieldType type) {
    switch (ColumnType.of(type)) {
      case STRING:
        return randomString(random);
      case BOOLEAN:
        return random.nextBoolean();
      case INT:
        return random.nextInt();
      case BIGINT:
        return random.nextLong() >> random.nextInt(64);
      case FLOAT:
        return random.nextInt(20) == 0
            ? Float.NaN
            : (float) (random.nextGaussian() * Math.pow(10, random.nextInt(20) - 10));
      case DOUBLE:
        return random.nextGaussian() * Math.pow(10, random.nextInt(600) - 300);
      case DECIMAL:
        BigInteger limit = BigInteger.TEN.pow(ColumnType.decimalPrecision(type));
        BigInteger unscaled = new BigInteger(1 + random.nextInt(limit.bitLength()), random);
        unscaled = unscaled.mod(limit);
        return new BigDecimal(
            random.nextBoolean() ? unscaled : unscaled.negate(), ColumnType.decimalScale(type));
      case DATE:
        return randomDate(random);
      case TIMESTAMP:
        return LocalDateTime.of(randomDate(random), LocalTime.ofSecondOfDay(random.nextInt(86400)))
            .withNano(random.nextInt(1000) * 1_000_000);
      case TIMESTAMP_LTZ:
        return new Instant(random.nextLong() % 100_000_000_000_000L);
      default:
        throw new AssertionError(type);
    }
  }

  private static LocalDate randomDate(Random random) {
    return LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
  }

  /** Zero to three {@link #TRICKY_STRINGS} run together. */
  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    for (int parts = random.nextInt(4); parts > 0; parts--) {
      s.append(TRICKY_STRINGS.get(random.nextInt(TRICKY_STRINGS.size())));
    }
    return s.toString();
  }
}
