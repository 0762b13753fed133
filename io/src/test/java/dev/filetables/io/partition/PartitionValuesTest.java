package dev.filetables.io.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class PartitionValuesTest {

  private static void roundTrip(Object value, String text, ColumnType type) {
    roundTrip(value, text, type.fieldType());
  }

  private static void roundTrip(Object value, String text, FieldType type) {
    assertEquals(text, PartitionValues.format(value, type));
    assertEquals(value, PartitionValues.parse(text, type));
  }

  @ParameterizedTest
  @EnumSource(ColumnType.class)
  void nullStaysNull(ColumnType type) {
    assertNull(PartitionValues.format(null, type.fieldType()));
    assertNull(PartitionValues.parse(null, type.fieldType()));
  }

  @Test
  void simpleTypes() {
    roundTrip("a b/c", "a b/c", ColumnType.STRING);
    roundTrip("", "", ColumnType.STRING);
    roundTrip(true, "true", ColumnType.BOOLEAN);
    roundTrip(false, "false", ColumnType.BOOLEAN);
    assertEquals(true, PartitionValues.parse("TRUE", ColumnType.BOOLEAN.fieldType()));
    roundTrip(-12, "-12", ColumnType.INT);
    assertEquals(9, PartitionValues.parse("09", ColumnType.INT.fieldType()));
    roundTrip(Long.MAX_VALUE, "9223372036854775807", ColumnType.BIGINT);
    roundTrip(1.5f, "1.5", ColumnType.FLOAT);
    roundTrip(1.0E10, "1.0E10", ColumnType.DOUBLE);
    roundTrip(Double.NaN, "NaN", ColumnType.DOUBLE);
    roundTrip(Double.NEGATIVE_INFINITY, "-Infinity", ColumnType.DOUBLE);
    assertEquals(2.0, PartitionValues.parse("2", ColumnType.DOUBLE.fieldType()));
  }

  @Test
  void decimal() {
    roundTrip(new BigDecimal("12.30"), "12.30", ColumnType.decimal(10, 2));
    assertEquals("1000", PartitionValues.format(new BigDecimal("1E+3"), FieldType.DECIMAL));
    assertEquals(new BigDecimal("1000"), PartitionValues.parse("1000", FieldType.DECIMAL));
    assertEquals("1000", PartitionValues.format(new BigDecimal("1E+3"), ColumnType.decimal(10, 2)));
    assertEquals(new BigDecimal("1.5"), PartitionValues.parse("1.5", ColumnType.decimal(10, 2)));
    // Trailing zeros beyond the scale are dropped, real digits are not.
    assertEquals(
        new BigDecimal("1.50"), PartitionValues.parse("1.5000", ColumnType.decimal(10, 2)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PartitionValues.parse("1.234", ColumnType.decimal(10, 2)));
    assertTrue(e.getMessage().contains("more than 2 digits after the point"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> PartitionValues.parse("123456", ColumnType.decimal(5, 2)));
  }

  @Test
  void dateAndTimestamps() {
    roundTrip(LocalDate.of(2020, 5, 20), "2020-05-20", ColumnType.DATE);
    roundTrip(LocalDateTime.of(2020, 5, 20, 9, 0), "2020-05-20 09:00:00", ColumnType.TIMESTAMP);
    roundTrip(
        LocalDateTime.of(2020, 5, 20, 9, 0, 1, 20_000_000),
        "2020-05-20 09:00:01.020",
        ColumnType.TIMESTAMP);
    roundTrip(
        LocalDateTime.of(2020, 5, 20, 9, 0, 1, 123_456_000),
        "2020-05-20 09:00:01.123456",
        ColumnType.TIMESTAMP);
    FieldType ts = ColumnType.TIMESTAMP.fieldType();
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 9, 0), PartitionValues.parse("2020-05-20T09:00:00", ts));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 9, 0, 0, 100_000_000),
        PartitionValues.parse("2020-05-20 09:00:00.1", ts));
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 9, 0, 0, 123_456_789),
        PartitionValues.parse("2020-05-20 09:00:00.123456789", ts));

    roundTrip(new Instant(0), "1970-01-01 00:00:00", ColumnType.TIMESTAMP_LTZ);
    roundTrip(new Instant(1_590_000_000_123L), "2020-05-20 18:40:00.123", ColumnType.TIMESTAMP_LTZ);
    roundTrip(new Instant(-1), "1969-12-31 23:59:59.999", ColumnType.TIMESTAMP_LTZ);
    FieldType ltz = ColumnType.TIMESTAMP_LTZ.fieldType();
    assertEquals(
        new Instant(1_590_000_000_000L), PartitionValues.parse("2020-05-20T18:40:00Z", ltz));
    assertEquals(
        new Instant(1_590_000_000_100L), PartitionValues.parse("2020-05-20 18:40:00.1", ltz));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "yes|BOOLEAN|true or false",
        "9.0|INT|decimal integer",
        "3000000000|INT|decimal integer",
        "x|BIGINT|decimal integer",
        "' 1'|INT|decimal integer",
        "1d|DOUBLE|a number",
        "0x1p3|DOUBLE|a number",
        "abc|FLOAT|a number",
        "1,5|DECIMAL|decimal number",
        "2020-5-20|DATE|yyyy-MM-dd",
        "2020-02-30|DATE|yyyy-MM-dd",
        "2020-05-20|TIMESTAMP|yyyy-MM-dd HH:mm:ss",
        "2020-05-20 9:00:00|TIMESTAMP|yyyy-MM-dd HH:mm:ss",
        "2020-05-2009:00:00|TIMESTAMP|yyyy-MM-dd HH:mm:ss",
        "2020-05-20 09:00:00.|TIMESTAMP|yyyy-MM-dd HH:mm:ss",
        "2020-05-20 09:00:00.0001|TIMESTAMP_LTZ|milliseconds"
      })
  void parseFailuresNameValueTypeAndForm(String text, ColumnType type, String expected) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PartitionValues.parse(text, type.fieldType()));
    assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    assertTrue(e.getMessage().contains(type.name()), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void formatRejectsWrongJavaClass() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PartitionValues.format(5L, ColumnType.INT.fieldType()));
    assertTrue(e.getMessage().contains("INT"), e.getMessage());
  }
}
