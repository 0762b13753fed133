package dev.filetables.io.format;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.testing.AllTypes;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Shared helpers for the row format tests: small schemas and rows, file I/O. The rows of every
 * column type come from {@link AllTypes}.
 */
final class RowFormatTestSupport {
  private RowFormatTestSupport() {}

  /**
   * The nullable column of each type in {@link AllTypes#SCHEMA} (its 38-digit decimal), for the
   * tests that pin a row's exact text; named as those texts name them.
   */
  static final Schema ONE_OF_EACH =
      Schema.builder()
          .addField(column("s"))
          .addField(column("b"))
          .addField(column("i"))
          .addField(column("l"))
          .addField(column("f"))
          .addField(column("d"))
          .addField(column("dec38").withName("dec"))
          .addField(column("day").withName("dt"))
          .addField(column("ts"))
          .addField(column("ltz"))
          .build();

  private static Schema.Field column(String name) {
    return AllTypes.SCHEMA.getField(name);
  }

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

  /** A row of {@link #ONE_OF_EACH}. */
  static Row row(Object... values) {
    return Row.withSchema(ONE_OF_EACH).addValues(values).build();
  }

  static BigDecimal dec(String s) {
    return new BigDecimal(s).setScale(10);
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
