package dev.filetables.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.avro.AvroSchemas;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.testing.AllTypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AvroFormatTest extends BulkFormatContractTest {

  @Override
  FileFormat format(Map<String, String> options) {
    return AvroFormat.create(options);
  }

  @Override
  Map<String, String> smallUnitOptions() {
    return Map.of("sync-interval", "2048");
  }

  @Override
  int unitCount(byte[] file) throws IOException {
    int blocks = 0;
    try (DataFileReader<Object> reader =
        new DataFileReader<>(new SeekableByteArrayInput(file), new GenericDatumReader<>())) {
      long previous = -1;
      while (reader.hasNext()) {
        reader.next();
        if (reader.previousSync() != previous) {
          previous = reader.previousSync();
          blocks++;
        }
      }
    }
    return blocks;
  }

  @Test
  void writesTheDocumentedAvroSchemaReadableByGenericReaders() throws IOException {
    byte[] file = write(format(Map.of()), AllTypes.SCHEMA, AllTypes.specialRows());
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(new SeekableByteArrayInput(file), new GenericDatumReader<>())) {
      org.apache.avro.Schema schema = reader.getSchema();
      assertEquals(AvroSchemas.toAvro(AllTypes.SCHEMA), schema);
      assertEquals("snappy", reader.getMetaString("avro.codec"));
      assertEquals(
          "[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":38,\"scale\":10}]",
          schema.getField("dec38").schema().toString());
      assertEquals(
          "{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}",
          schema.getField("ts_nn").schema().toString());
      assertEquals(
          "[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}]",
          schema.getField("ltz").schema().toString());
      assertEquals(
          "[\"null\",{\"type\":\"int\",\"logicalType\":\"date\"}]",
          schema.getField("day").schema().toString());
      GenericRecord first = reader.next();
      assertEquals("zürich € 日本 😀", first.get("s").toString());
      assertEquals(-1L, first.get("ltz"));
      assertEquals(
          new BigInteger("-12345678901234567890123456780123456789"),
          new BigInteger(((ByteBuffer) first.get("dec38")).array()));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"null", "deflate", "snappy", "bzip2", "zstandard", "SNAPPY"})
  void everyOfferedCodecWorks(String codec) throws IOException {
    FileFormat format = format(Map.of("codec", codec));
    List<Row> rows = AllTypes.randomRows(300, 5);
    assertEquals(rows, readAll(format, write(format, AllTypes.SCHEMA, rows), AllTypes.SCHEMA));
  }

  @Test
  void badOptionValuesAreRejected() {
    TableDefinitionException codec =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("codec", "lzo")));
    assertTrue(codec.getMessage().contains("snappy"), codec.getMessage());
    TableDefinitionException typo =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("codex", "snappy")));
    assertTrue(typo.getMessage().contains("Did you mean 'avro.codec'"), typo.getMessage());
    TableDefinitionException xz =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("codec", "xz")));
    assertTrue(xz.getMessage().contains("tukaani"), xz.getMessage());
  }

  @Test
  void invalidAvroColumnNameIsADefinitionError() {
    Schema schema = Schema.builder().addField("order-id", ColumnType.INT.fieldType()).build();
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () -> format(Map.of()).createWriter(new ByteArrayOutputStream(), schema));
    assertTrue(e.getMessage().contains("order-id"), e.getMessage());
  }

  /** Written by another tool: [T, null] unions, int for a BIGINT, micros, fixed decimals, enums. */
  @Test
  void readsFilesOfOtherWriters() throws IOException {
    org.apache.avro.Schema writerSchema =
        new org.apache.avro.Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Other\",\"fields\":["
                    + "{\"name\":\"ignored\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
                    + "{\"name\":\"ID\",\"type\":\"int\"},"
                    + "{\"name\":\"name\",\"type\":[\"string\",\"null\"]},"
                    + "{\"name\":\"color\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"RED\",\"GREEN\"]}},"
                    + "{\"name\":\"ts\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}]},"
                    + "{\"name\":\"local\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}},"
                    + "{\"name\":\"amount\",\"type\":{\"type\":\"fixed\",\"name\":\"D\",\"size\":6,\"logicalType\":\"decimal\",\"precision\":12,\"scale\":3}},"
                    + "{\"name\":\"ratio\",\"type\":\"float\"},"
                    + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
                    + "{\"name\":\"mixed\",\"type\":[\"null\",\"int\",\"long\"]}"
                    + "]}");
    GenericData.Record record = new GenericData.Record(writerSchema);
    record.put("ignored", List.of("a", "b"));
    record.put("ID", 7);
    record.put("name", "ünïcode");
    record.put(
        "color", new GenericData.EnumSymbol(writerSchema.getField("color").schema(), "GREEN"));
    record.put("ts", -1_500L); // -1.5 ms: floors to -2 ms
    record.put("local", 1_000_999L);
    byte[] fixed = new byte[6];
    byte[] unscaled = BigInteger.valueOf(-123456).toByteArray();
    java.util.Arrays.fill(fixed, (byte) 0xFF);
    System.arraycopy(unscaled, 0, fixed, 6 - unscaled.length, unscaled.length);
    record.put("amount", new GenericData.Fixed(writerSchema.getField("amount").schema(), fixed));
    record.put("ratio", 0.25f);
    record.put("day", 19000);
    record.put("mixed", 5L);
    GenericData.Record nulls = new GenericData.Record(writerSchema);
    nulls.put("ignored", List.of());
    nulls.put("ID", 8);
    nulls.put("color", new GenericData.EnumSymbol(writerSchema.getField("color").schema(), "RED"));
    nulls.put("local", 0L);
    nulls.put(
        "amount", new GenericData.Fixed(writerSchema.getField("amount").schema(), new byte[6]));
    nulls.put("ratio", 1f);
    nulls.put("day", 0);
    nulls.put("mixed", 3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<>(writerSchema))) {
      writer.create(writerSchema, out);
      writer.append(record);
      writer.append(nulls);
    }
    byte[] file = out.toByteArray();

    Schema wanted =
        Schema.builder()
            .addField("id", ColumnType.BIGINT.fieldType())
            .addNullableField("name", ColumnType.STRING.fieldType())
            .addField("color", ColumnType.STRING.fieldType())
            .addNullableField("ts", ColumnType.TIMESTAMP_LTZ.fieldType())
            .addField("local", ColumnType.TIMESTAMP.fieldType())
            .addField("amount", ColumnType.decimal(12, 3))
            .addField("ratio", ColumnType.DOUBLE.fieldType())
            .addField("day", ColumnType.DATE.fieldType())
            .addNullableField("mixed", ColumnType.BIGINT.fieldType())
            .addNullableField("absent", ColumnType.STRING.fieldType())
            .build();
    List<Row> back = readAll(format(Map.of()), file, wanted);
    assertEquals(
        Row.withSchema(wanted)
            .addValues(
                7L,
                "ünïcode",
                "GREEN",
                new Instant(-2L),
                LocalDateTime.of(1970, 1, 1, 0, 0, 1, 0),
                new BigDecimal("-123.456"),
                0.25,
                LocalDate.ofEpochDay(19000),
                5L,
                null)
            .build(),
        back.get(0));
    assertEquals(
        Row.withSchema(wanted)
            .addValues(
                8L,
                null,
                "RED",
                null,
                LocalDateTime.of(1970, 1, 1, 0, 0),
                new BigDecimal("0.000"),
                1.0,
                LocalDate.ofEpochDay(0),
                3L,
                null)
            .build(),
        back.get(1));

    Schema incompatible = Schema.builder().addField("ID", ColumnType.DATE.fieldType()).build();
    IOException e =
        assertThrows(IOException.class, () -> readAll(format(Map.of()), file, incompatible));
    assertTrue(e.getMessage().contains("'ID'"), e.getMessage());
  }
}
