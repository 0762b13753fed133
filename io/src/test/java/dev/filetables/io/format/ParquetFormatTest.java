package dev.filetables.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.format.parquet.ChannelInputFile;
import dev.filetables.io.format.parquet.StreamOutputFile;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.testing.AllTypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParquetFormatTest extends BulkFormatContractTest {

  @Override
  FileFormat format(Map<String, String> options) {
    return ParquetFormat.create(options);
  }

  @Override
  Map<String, String> smallUnitOptions() {
    return Map.of("block.size", "8192", "page.size", "1024", "dictionary.page.size", "1024");
  }

  @Override
  int unitCount(byte[] file) throws IOException {
    return footer(file).getBlocks().size();
  }

  private static ParquetMetadata footer(byte[] file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            new ChannelInputFile(new SeekableInMemoryByteChannel(file), file.length))) {
      return reader.getFooter();
    }
  }

  @Test
  void writesTheDocumentedParquetSchema() throws IOException {
    byte[] file = write(format(Map.of()), AllTypes.SCHEMA, AllTypes.specialRows());
    ParquetMetadata footer = footer(file);
    MessageType expected =
        MessageTypeParser.parseMessageType(
            "message filetables_schema {\n"
                + "  required int64 id;\n"
                + "  optional binary s (STRING);\n"
                + "  required binary s_nn (STRING);\n"
                + "  optional boolean b;\n"
                + "  optional int32 i;\n"
                + "  optional int64 l;\n"
                + "  optional float f;\n"
                + "  optional double d;\n"
                + "  optional int32 dec9 (DECIMAL(9,2));\n"
                + "  optional int64 dec18 (DECIMAL(18,4));\n"
                + "  optional fixed_len_byte_array(16) dec38 (DECIMAL(38,10));\n"
                + "  required int32 dec_nn (DECIMAL(5,0));\n"
                + "  optional int32 day (DATE);\n"
                + "  optional int64 ts (TIMESTAMP(MILLIS,false));\n"
                + "  required int64 ts_nn (TIMESTAMP(MILLIS,false));\n"
                + "  optional int64 ltz (TIMESTAMP(MILLIS,true));\n"
                + "  required int32 i_nn;\n"
                + "}");
    assertEquals(expected, footer.getFileMetaData().getSchema());
    assertEquals("SNAPPY", footer.getBlocks().get(0).getColumns().get(0).getCodec().name());
    // parquet-avro must derive its Avro schema from the Parquet one (bytes-decimal would not match)
    assertFalse(footer.getFileMetaData().getKeyValueMetaData().containsKey("parquet.avro.schema"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"UNCOMPRESSED", "snappy", "GZIP", "ZSTD", "LZ4_RAW", "none"})
  void everyOfferedCodecWorks(String codec) throws IOException {
    FileFormat format = format(Map.of("compression", codec, "compression.codec.zstd.level", "5"));
    List<Row> rows = AllTypes.randomRows(300, 5);
    assertEquals(rows, readAll(format, write(format, AllTypes.SCHEMA, rows), AllTypes.SCHEMA));
  }

  @Test
  void writerOptionsAreApplied() throws IOException {
    FileFormat format =
        format(
            Map.of(
                "writer.version",
                "v2",
                "enable.dictionary",
                "false",
                "page.row.count.limit",
                "100"));
    List<Row> rows = AllTypes.randomRows(1000, 5);
    byte[] file = write(format, AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
  }

  @Test
  void badOptionValuesAreRejected() {
    TableDefinitionException codec =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("compression", "LZO")));
    assertTrue(codec.getMessage().contains("SNAPPY"), codec.getMessage());
    TableDefinitionException typo =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("block.sise", "1")));
    assertTrue(typo.getMessage().contains("Did you mean 'parquet.block.size'"), typo.getMessage());
    assertThrows(TableDefinitionException.class, () -> format(Map.of("enable.dictionary", "yes")));
    assertThrows(TableDefinitionException.class, () -> format(Map.of("page.size", "-5")));
    assertThrows(TableDefinitionException.class, () -> format(Map.of("writer.version", "v3")));
  }

  /** A file as another tool writes it: INT96, MICROS/NANOS timestamps, narrow/wide encodings. */
  private static byte[] foreignFile(MessageType type, List<Group> groups) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new StreamOutputFile(out))
            .withType(type)
            .withConf(new org.apache.hadoop.conf.Configuration(false))
            .build()) {
      for (Group group : groups) {
        writer.write(group);
      }
    }
    return out.toByteArray();
  }

  @Test
  void readsFilesOfOtherWriters() throws IOException {
    MessageType type =
        MessageTypeParser.parseMessageType(
            "message spark_schema {\n"
                + "  optional int96 ts96;\n"
                + "  optional int96 ltz96;\n"
                + "  optional int64 ts_micros (TIMESTAMP(MICROS,false));\n"
                + "  optional int64 ltz_micros (TIMESTAMP(MICROS,true));\n"
                + "  optional int64 ts_nanos (TIMESTAMP(NANOS,true));\n"
                + "  optional int64 ltz_millis_local (TIMESTAMP(MILLIS,false));\n"
                + "  required binary name (UTF8);\n"
                + "  optional int32 small_id;\n"
                + "  optional int64 int_from_long;\n"
                + "  optional binary dec_bin (DECIMAL(20,3));\n"
                + "  optional fixed_len_byte_array(5) dec_fixed (DECIMAL(10,2));\n"
                + "  optional int32 dec_int (DECIMAL(4,1));\n"
                + "  optional int64 dec_wider_scale (DECIMAL(12,4));\n"
                + "  optional float as_double;\n"
                + "  optional int32 day (DATE);\n"
                + "  optional group nested { optional int32 x; }\n"
                + "}");
    long millis = -86_400_000L * 365 + 123; // 1969-01-01T00:00:00.123
    SimpleGroupFactory factory = new SimpleGroupFactory(type);
    Group g = factory.newGroup();
    g.add("ts96", Binary.fromConstantByteArray(TimeValues.millisToInt96(millis)));
    g.add("ltz96", Binary.fromConstantByteArray(TimeValues.millisToInt96(millis)));
    g.add("ts_micros", millis * 1000 + 999); // sub-milli part is dropped
    g.add("ltz_micros", millis * 1000);
    g.add("ts_nanos", millis * 1_000_000 + 5);
    g.add("ltz_millis_local", millis);
    g.add("name", "grüße");
    g.add("small_id", 7);
    g.add("int_from_long", 42L);
    g.add(
        "dec_bin",
        Binary.fromConstantByteArray(new BigInteger("-12345678901234567").toByteArray()));
    g.add(
        "dec_fixed",
        Binary.fromConstantByteArray(
            new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x85}));
    g.add("dec_int", -15);
    g.add("dec_wider_scale", 123456L);
    g.add("as_double", 1.5f);
    g.add("day", -1);
    g.addGroup("nested").add("x", 1);
    Group empty = factory.newGroup();
    empty.add("name", "");
    byte[] file = foreignFile(type, List.of(g, empty));

    Schema wanted =
        Schema.builder()
            .addNullableField("day", ColumnType.DATE.fieldType())
            .addField("name", ColumnType.STRING.fieldType())
            .addNullableField("ts96", ColumnType.TIMESTAMP.fieldType())
            .addNullableField("ltz96", ColumnType.TIMESTAMP_LTZ.fieldType())
            .addNullableField("ts_micros", ColumnType.TIMESTAMP.fieldType())
            .addNullableField("ltz_micros", ColumnType.TIMESTAMP_LTZ.fieldType())
            .addNullableField("ts_nanos", ColumnType.TIMESTAMP.fieldType())
            .addNullableField("ltz_millis_local", ColumnType.TIMESTAMP_LTZ.fieldType())
            .addNullableField("small_id", ColumnType.BIGINT.fieldType())
            .addNullableField("int_from_long", ColumnType.INT.fieldType())
            .addNullableField("dec_bin", ColumnType.decimal(20, 3))
            .addNullableField("dec_fixed", ColumnType.decimal(10, 2))
            .addNullableField("dec_int", ColumnType.decimal(4, 1))
            .addNullableField("dec_wider_scale", ColumnType.decimal(12, 2))
            .addNullableField("as_double", ColumnType.DOUBLE.fieldType())
            .build();
    FileFormat utc = format(Map.of("utc-timezone", "true"));
    List<Row> back = readAll(utc, file, wanted);
    LocalDateTime local = LocalDateTime.of(1969, 1, 1, 0, 0, 0, 123_000_000);
    assertEquals(
        Row.withSchema(wanted)
            .addValues(
                LocalDate.of(1969, 12, 31),
                "grüße",
                local,
                new Instant(millis),
                local,
                new Instant(millis),
                local,
                new Instant(millis),
                7L,
                42,
                new BigDecimal("-12345678901234.567"),
                new BigDecimal("-1.23"),
                new BigDecimal("-1.5"),
                new BigDecimal("12.35"), // 12.3456 rounded half-up to scale 2
                1.5)
            .build(),
        back.get(0));
    Row second = back.get(1);
    assertEquals("", second.getString("name"));
    for (int i = 0; i < wanted.getFieldCount(); i++) {
      if (i != 1) {
        assertNull(second.getValue(i), wanted.getField(i).getName());
      }
    }

    // Flink's default reads INT96 as an instant shown in the JVM's zone
    Row flinkDefault = readAll(format(Map.of()), file, wanted).get(0);
    assertEquals(
        LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(millis), ZoneId.systemDefault()),
        flinkDefault.getValue("ts96"));
    assertEquals(new Instant(millis), flinkDefault.getValue("ltz96"));

    Schema incompatible =
        Schema.builder().addNullableField("name", ColumnType.INT.fieldType()).build();
    IOException e = assertThrows(IOException.class, () -> readAll(utc, file, incompatible));
    assertTrue(e.getMessage().contains("'name'") && e.getMessage().contains("INT"), e.getMessage());
    Schema nested = Schema.builder().addNullableField("nested", ColumnType.INT.fieldType()).build();
    assertThrows(IOException.class, () -> readAll(utc, file, nested));
  }

  @Test
  void valueOutOfRangeOfNarrowerColumnIsABadRecord() throws IOException {
    MessageType type = MessageTypeParser.parseMessageType("message m { required int64 v; }");
    SimpleGroupFactory factory = new SimpleGroupFactory(type);
    Group small = factory.newGroup();
    small.add("v", 5L);
    Group big = factory.newGroup();
    big.add("v", 1L << 40);
    byte[] file = foreignFile(type, List.of(small, big, small));
    Schema wanted = Schema.builder().addField("v", ColumnType.INT.fieldType()).build();
    try (var channel = new SeekableInMemoryByteChannel(file);
        RowReader reader =
            format(Map.of())
                .createReader(channel, file.length, ByteRange.of(0, file.length), wanted)) {
      assertEquals(5, reader.next().getInt32("v"));
      BadRecordException e = assertThrows(BadRecordException.class, reader::next);
      assertTrue(
          e.getMessage().contains("row 1") && e.getMessage().contains("'v'"), e.getMessage());
      assertEquals(5, reader.next().getInt32("v"));
    }
  }
}
