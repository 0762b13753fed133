package dev.filetables.io.format;

import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/**
 * Shared helpers for the row format tests: a schema of every column type, tricky values, file I/O.
 */
final class RowFormatTestSupport {
  private RowFormatTestSupport() {}

  static final Schema ALL_TYPES =
      Schema.builder()
          .addNullableField("s", ColumnType.STRING.fieldType())
          .addNullableField("b", ColumnType.BOOLEAN.fieldType())
          .addNullableField("i", ColumnType.INT.fieldType())
          .addNullableField("l", ColumnType.BIGINT.fieldType())
          .addNullableField("f", ColumnType.FLOAT.fieldType())
          .addNullableField("d", ColumnType.DOUBLE.fieldType())
          .addNullableField("dec", ColumnType.decimal(38, 10))
          .addNullableField("dt", ColumnType.DATE.fieldType())
          .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
          .build();

  /** A nullable INT {@code id} and a nullable STRING {@code name}. */
  static final Schema TWO =
      Schema.builder()
          .addNullableField("id", ColumnType.INT.fieldType())
          .addNullableField("name", ColumnType.STRING.fieldType())
          .build();

  static Row two(Integer id, String name) {
    return Row.withSchema(TWO).addValues(id, name).build();
  }

  /** The named format with options given as alternating keys and values (without prefix). */
  static FileFormat format(String name, String... keyValues) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return FileFormats.forName(name, options);
  }

  static final String[] TRICKY_STRINGS = {
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
    "{\"json\": [1, 2]}",
  };

  static Row row(Object... values) {
    return Row.withSchema(ALL_TYPES).addValues(values).build();
  }

  static BigDecimal dec(String s) {
    return new BigDecimal(s).setScale(10);
  }

  /** Rows covering every type: nulls, extremes, unicode, pre-1970 and sub-second times. */
  static List<Row> fixedRows() {
    List<Row> rows = new ArrayList<>();
    rows.add(row(null, null, null, null, null, null, null, null, null, null));
    rows.add(
        row(
            "hello",
            true,
            42,
            42L,
            1.5f,
            2.25,
            dec("123.45"),
            LocalDate.of(2024, 2, 29),
            LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_000_000),
            new Instant(1_700_000_000_123L)));
    rows.add(
        row(
            "",
            false,
            Integer.MIN_VALUE,
            Long.MIN_VALUE,
            Float.NaN,
            Double.NEGATIVE_INFINITY,
            dec("-98765432109876543210.0123456789"),
            LocalDate.of(1, 1, 1),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
            new Instant(-1L)));
    rows.add(
        row(
            "日本語 😀",
            null,
            Integer.MAX_VALUE,
            Long.MAX_VALUE,
            Float.POSITIVE_INFINITY,
            Double.NaN,
            dec("0"),
            LocalDate.of(9999, 12, 31),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000_000),
            new Instant(-2_208_988_800_000L)));
    rows.add(
        row(
            "x",
            true,
            0,
            -1L,
            -0.0f,
            Double.MIN_VALUE,
            dec("-0.0000000001"),
            LocalDate.of(1970, 1, 1),
            LocalDateTime.of(1970, 1, 1, 0, 0),
            new Instant(0L)));
    rows.add(
        row(
            null,
            false,
            -7,
            7L,
            Float.MAX_VALUE,
            Double.MAX_VALUE,
            dec("12345678901234567890123456.7890123456"),
            LocalDate.of(1600, 3, 1),
            LocalDateTime.of(2038, 1, 19, 3, 14, 7, 999_000_000),
            new Instant(253_402_300_799_999L))); // 9999-12-31T23:59:59.999Z
    for (String s : TRICKY_STRINGS) {
      rows.add(row(s, null, null, null, null, null, null, null, null, null));
    }
    return rows;
  }

  /** Random rows of ALL_TYPES (about 20% nulls), deterministic per seed. */
  static List<Row> randomRows(Random random, int count) {
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      Object[] v = new Object[10];
      v[0] = randomString(random);
      v[1] = random.nextBoolean();
      v[2] = random.nextInt();
      v[3] = random.nextLong() >> random.nextInt(64);
      v[4] =
          random.nextInt(20) == 0
              ? Float.NaN
              : (float) (random.nextGaussian() * Math.pow(10, random.nextInt(20) - 10));
      v[5] = random.nextGaussian() * Math.pow(10, random.nextInt(600) - 300);
      v[6] =
          new BigDecimal(new BigInteger(random.nextInt(120) + 1, random), 10)
              .multiply(BigDecimal.valueOf(random.nextBoolean() ? 1 : -1));
      v[7] = LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
      v[8] =
          LocalDateTime.of(
                  v[7] == null ? LocalDate.EPOCH : (LocalDate) v[7],
                  java.time.LocalTime.ofSecondOfDay(random.nextInt(86400)))
              .withNano(random.nextInt(1000) * 1_000_000);
      v[9] = new Instant(random.nextLong() % 100_000_000_000_000L);
      for (int i = 0; i < v.length; i++) {
        if (random.nextInt(5) == 0) {
          v[i] = null;
        }
      }
      rows.add(Row.withSchema(ALL_TYPES).addValues(v).build());
    }
    return rows;
  }

  static String randomString(Random random) {
    StringBuilder sb = new StringBuilder();
    int parts = random.nextInt(4);
    for (int i = 0; i < parts; i++) {
      sb.append(TRICKY_STRINGS[random.nextInt(TRICKY_STRINGS.length)]);
    }
    return sb.toString();
  }

  static Path write(FileFormat format, Path dir, String name, Schema schema, List<Row> rows)
      throws IOException {
    Path file = dir.resolve(name + format.extension());
    try (OutputStream out = Files.newOutputStream(file);
        RowWriter writer = format.createWriter(out, schema)) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    return file;
  }

  static Path writeText(Path dir, String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, content.getBytes(StandardCharsets.UTF_8));
    return file;
  }

  static Path writeBytes(Path dir, String name, byte[] content) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, content);
    return file;
  }

  static List<Row> readAll(FileFormat format, Path file, Schema schema) throws IOException {
    return readRange(format, file, schema, ByteRange.of(0, Files.size(file)));
  }

  static List<Row> readRange(FileFormat format, Path file, Schema schema, ByteRange range)
      throws IOException {
    List<Row> rows = new ArrayList<>();
    try (SeekableByteChannel channel = Files.newByteChannel(file);
        RowReader reader = format.createReader(channel, Files.size(file), range, schema)) {
      for (Row row = reader.next(); row != null; row = reader.next()) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** Splits the file with {@code targetRangeSize} and reads every range in order. */
  static List<Row> readSplit(FileFormat format, Path file, Schema schema, long targetRangeSize)
      throws IOException {
    long size = Files.size(file);
    List<ByteRange> ranges;
    try (SeekableByteChannel channel = Files.newByteChannel(file)) {
      ranges = format.split(channel, size, targetRangeSize);
    }
    checkTiles(ranges, size);
    List<Row> rows = new ArrayList<>();
    for (ByteRange range : ranges) {
      rows.addAll(readRange(format, file, schema, range));
    }
    return rows;
  }

  /** Ranges must cover [0, size) without gaps or overlaps. */
  static void checkTiles(List<ByteRange> ranges, long size) {
    long next = 0;
    for (ByteRange r : ranges) {
      if (r.start() != next) {
        throw new AssertionError("ranges do not tile the file: " + ranges);
      }
      next = r.end();
    }
    if (next != size) {
      throw new AssertionError("ranges do not cover the file of " + size + " bytes: " + ranges);
    }
  }

  static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }
}
