package dev.filetables.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.internal.TimeValues;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.testing.AllTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The orc format: the shared contract, and what orc-core itself (its own reader and writer, used
 * directly, through Hadoop's local file system) makes of FileTables' files and FileTables of
 * orc-core's.
 */
class OrcFormatTest extends BulkFormatContractTest {

  /** Options that end a stripe about every 100 rows. */
  static final Map<String, String> SMALL_STRIPES =
      Map.of("stripe.size", "1024", "rows.between.memory.checks", "100");

  /** Flink's ORC schema of {@link AllTypes#SCHEMA}. */
  private static final String ALL_TYPES_ORC =
      "struct<id:bigint,s:string,s_nn:string,b:boolean,i:int,l:bigint,f:float,d:double,"
          + "dec9:decimal(9,2),dec18:decimal(18,4),dec38:decimal(38,10),dec_nn:decimal(5,0),"
          + "day:date,ts:timestamp,ts_nn:timestamp,ltz:timestamp,i_nn:int>";

  /** A fixed zone away from UTC (no daylight saving time, so no wall-clock gaps). */
  private static final TimeZone PLUS_FIVE = TimeZone.getTimeZone("Etc/GMT-5");

  private static final long FIVE_HOURS = 5 * 3600_000L;

  @TempDir Path dir;

  @Override
  FileFormat format(Map<String, String> options) {
    return OrcFormat.create(options);
  }

  @Override
  Map<String, String> smallUnitOptions() {
    return SMALL_STRIPES;
  }

  @Override
  int unitCount(byte[] file) throws IOException {
    return stripes(file);
  }

  @Override
  List<Row> storable(List<Row> rows) {
    return AllTypes.storableInOrc(rows);
  }

  /** orc-core's own reader of the bytes, through Hadoop's local file system. */
  static Reader orcCore(byte[] file) throws IOException {
    Path tmp = Files.createTempFile("filetables-orc-test", ".orc");
    tmp.toFile().deleteOnExit();
    Files.write(tmp, file);
    return OrcFile.createReader(
        new org.apache.hadoop.fs.Path(tmp.toUri()), OrcFile.readerOptions(new Configuration()));
  }

  static int stripes(byte[] file) throws IOException {
    try (Reader reader = orcCore(file)) {
      return reader.getStripes().size();
    }
  }

  static String compression(byte[] file) throws IOException {
    try (Reader reader = orcCore(file)) {
      return reader.getCompressionKind().name();
    }
  }

  @Test
  void writesFlinksOrcTypesWithOrcCoresDefaults() throws IOException {
    byte[] file =
        write(format(Map.of()), AllTypes.SCHEMA, AllTypes.storableInOrc(AllTypes.specialRows()));
    try (Reader reader = orcCore(file)) {
      assertEquals(ALL_TYPES_ORC, reader.getSchema().toString());
      assertEquals(CompressionKind.ZLIB, reader.getCompressionKind());
      assertEquals(AllTypes.specialRows().size(), reader.getNumberOfRows());
      assertEquals(10_000, reader.getRowIndexStride());
    }
  }

  /**
   * orc-core's reader, as Flink and Hive use it (no UTC option, the JVM's zone: here UTC+5), sees
   * every value written: timestamps keep their wall-clock time, TIMESTAMP_LTZ is the instant's
   * wall-clock time in UTC (Flink's reading of an ORC timestamp into TIMESTAMP_LTZ), decimals keep
   * their digits, nulls stay null.
   */
  @Test
  void orcCoresOwnReaderSeesEveryValueInAnyTimeZone() throws IOException {
    List<Row> rows = new ArrayList<>(AllTypes.specialRows());
    rows.addAll(AllTypes.randomRows(500, 42));
    rows = AllTypes.storableInOrc(rows);
    byte[] file = write(format(SMALL_STRIPES), AllTypes.SCHEMA, rows);
    TimeZone original = TimeZone.getDefault();
    TimeZone.setDefault(PLUS_FIVE);
    try (Reader reader = orcCore(file);
        RecordReader records = reader.rows()) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch();
      int k = 0;
      while (records.nextBatch(batch)) {
        for (int r = 0; r < batch.size; r++, k++) {
          Row expected = rows.get(k);
          for (int c = 0; c < AllTypes.SCHEMA.getFieldCount(); c++) {
            Schema.Field field = AllTypes.SCHEMA.getField(c);
            assertEquals(
                expectedAsOrcCoreReadsIt(field, expected.getValue(c)),
                orcCoreValue(batch.cols[c], r, reader.getSchema().getChildren().get(c)),
                "row " + k + ", column " + field.getName());
          }
        }
      }
      assertEquals(rows.size(), k);
    } finally {
      TimeZone.setDefault(original);
    }
  }

  /** A value of {@link AllTypes} as the orc-core reader in UTC+5 gives it (see below). */
  private static Object expectedAsOrcCoreReadsIt(Schema.Field field, Object value) {
    if (value == null) {
      return null;
    }
    switch (ColumnType.of(field.getType())) {
      case DATE:
        return ((LocalDate) value).toEpochDay();
      case TIMESTAMP:
        // the same wall-clock time in UTC+5: 5 hours earlier as an instant
        return TimeValues.epochMillis((LocalDateTime) value) - FIVE_HOURS;
      case TIMESTAMP_LTZ:
        return TimeValues.epochMillis(value) - FIVE_HOURS;
      case BOOLEAN:
        return (Boolean) value ? 1L : 0L;
      case INT:
        return ((Integer) value).longValue();
      case FLOAT:
        return (double) (Float) value;
      default:
        return value;
    }
  }

  /** A value as orc-core's vectors hold it: epoch days, millis of the local wall clock, ... */
  private static Object orcCoreValue(ColumnVector vector, int row, TypeDescription type) {
    int r = vector.isRepeating ? 0 : row;
    if (!vector.noNulls && vector.isNull[r]) {
      return null;
    }
    if (vector instanceof TimestampColumnVector) {
      return ((TimestampColumnVector) vector).getTime(r);
    }
    if (vector instanceof LongColumnVector) {
      return ((LongColumnVector) vector).vector[r];
    }
    if (vector instanceof DoubleColumnVector) {
      return ((DoubleColumnVector) vector).vector[r];
    }
    if (vector instanceof DecimalColumnVector) {
      return ((DecimalColumnVector) vector)
          .vector[r]
          .getHiveDecimal()
          .bigDecimalValue()
          .setScale(type.getScale());
    }
    BytesColumnVector bytes = (BytesColumnVector) vector;
    return new String(bytes.vector[r], bytes.start[r], bytes.length[r], StandardCharsets.UTF_8);
  }

  /**
   * A file orc-core wrote directly, of every type of {@link AllTypes} with nulls, typed as Flink
   * types them and filled as Flink's vectorizer fills them, by a writer in the JVM's zone (UTC+5,
   * not UTC): FileTables reads every row as it was.
   */
  @Test
  void readsEveryTypeOfAFileOrcCoreWroteInAnotherTimeZone() throws IOException {
    List<Row> rows = new ArrayList<>(AllTypes.specialRows());
    rows.addAll(AllTypes.randomRows(500, 9));
    TypeDescription schema = TypeDescription.fromString(ALL_TYPES_ORC);
    Path file = dir.resolve("orc-core.orc");
    TimeZone original = TimeZone.getDefault();
    TimeZone.setDefault(PLUS_FIVE);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (Row row : rows) {
        int r = batch.size++;
        for (int c = 0; c < AllTypes.SCHEMA.getFieldCount(); c++) {
          setOrcCoreValue(batch.cols[c], r, AllTypes.SCHEMA.getField(c), row.getValue(c));
        }
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      writer.addRowBatch(batch);
    } finally {
      TimeZone.setDefault(original);
    }
    assertEquals(rows, readAll(format(Map.of()), Files.readAllBytes(file), AllTypes.SCHEMA));
  }

  private static void setOrcCoreValue(ColumnVector vector, int r, Schema.Field field, Object v) {
    if (v == null) {
      vector.noNulls = false;
      vector.isNull[r] = true;
      return;
    }
    switch (ColumnType.of(field.getType())) {
      case STRING:
        ((BytesColumnVector) vector).setVal(r, ((String) v).getBytes(StandardCharsets.UTF_8));
        break;
      case BOOLEAN:
        ((LongColumnVector) vector).vector[r] = (Boolean) v ? 1 : 0;
        break;
      case INT:
      case BIGINT:
        ((LongColumnVector) vector).vector[r] = ((Number) v).longValue();
        break;
      case FLOAT:
      case DOUBLE:
        ((DoubleColumnVector) vector).vector[r] = ((Number) v).doubleValue();
        break;
      case DECIMAL:
        ((DecimalColumnVector) vector).set(r, HiveDecimal.create((BigDecimal) v));
        break;
      case DATE:
        ((LongColumnVector) vector).vector[r] = ((LocalDate) v).toEpochDay();
        break;
      case TIMESTAMP:
        localMillis((TimestampColumnVector) vector, r, TimeValues.epochMillis((LocalDateTime) v));
        break;
      case TIMESTAMP_LTZ:
        localMillis((TimestampColumnVector) vector, r, TimeValues.epochMillis(v));
        break;
      default:
        throw new AssertionError(field);
    }
  }

  /** The wall clock of {@code utcMillis} (read in UTC) as an instant in UTC+5. */
  private static void localMillis(TimestampColumnVector vector, int r, long utcMillis) {
    long millis = utcMillis - FIVE_HOURS;
    vector.time[r] = millis;
    vector.nanos[r] = (int) Math.floorMod(millis, 1000L) * 1_000_000;
  }

  /** Types of other writers: narrower integers, varchar and char, instants, binary, nesting. */
  @Test
  void readsTheTypesOfOtherWriters() throws IOException {
    TypeDescription schema =
        TypeDescription.fromString(
            "struct<tiny:tinyint,small:smallint,v:varchar(10),c:char(3),"
                + "at:timestamp with local time zone,wide:decimal(12,4),fl:float,"
                + "bin:binary,nested:struct<x:int>,big:bigint>");
    Path file = dir.resolve("foreign.orc");
    long millis = -86_400_000L * 365 + 123; // 1969-01-01T00:00:00.123Z
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      batch.size = 2;
      ((LongColumnVector) batch.cols[0]).vector[0] = -7;
      ((LongColumnVector) batch.cols[1]).vector[0] = 300;
      ((BytesColumnVector) batch.cols[2]).setVal(0, "grüße".getBytes(StandardCharsets.UTF_8));
      ((BytesColumnVector) batch.cols[3]).setVal(0, "ab".getBytes(StandardCharsets.UTF_8));
      ((TimestampColumnVector) batch.cols[4]).time[0] = millis;
      ((TimestampColumnVector) batch.cols[4]).nanos[0] = 123_000_000;
      ((DecimalColumnVector) batch.cols[5]).set(0, HiveDecimal.create(new BigDecimal("12.3456")));
      ((DoubleColumnVector) batch.cols[6]).vector[0] = 1.5f;
      ((BytesColumnVector) batch.cols[7]).setVal(0, new byte[] {1, 2});
      ((LongColumnVector) ((StructColumnVector) batch.cols[8]).fields[0]).vector[0] = 1;
      ((LongColumnVector) batch.cols[9]).vector[0] = 1L << 40;
      for (ColumnVector vector : batch.cols) {
        vector.noNulls = false;
        vector.isNull[1] = true;
      }
      writer.addRowBatch(batch);
    }
    byte[] bytes = Files.readAllBytes(file);
    Schema wanted =
        Schema.builder()
            .addNullableField("tiny", ColumnType.INT.fieldType())
            .addNullableField("SMALL", ColumnType.BIGINT.fieldType()) // case differs
            .addNullableField("v", ColumnType.STRING.fieldType())
            .addNullableField("c", ColumnType.STRING.fieldType())
            .addNullableField("at", ColumnType.TIMESTAMP_LTZ.fieldType())
            .addNullableField("wide", ColumnType.decimal(12, 2))
            .addNullableField("fl", ColumnType.DOUBLE.fieldType())
            .build();
    List<Row> back = readAll(format(Map.of()), bytes, wanted);
    assertEquals(
        Row.withSchema(wanted)
            .addValues(-7, 300L, "grüße", "ab", new Instant(millis), new BigDecimal("12.35"), 1.5)
            .build(),
        back.get(0));
    for (Object value : back.get(1).getValues()) {
      assertNull(value);
    }

    // an instant read as TIMESTAMP: its wall-clock time in UTC
    Schema local =
        Schema.builder().addNullableField("at", ColumnType.TIMESTAMP.fieldType()).build();
    assertEquals(
        LocalDateTime.of(1969, 1, 1, 0, 0, 0, 123_000_000),
        readAll(format(Map.of()), bytes, local).get(0).getValue("at"));

    for (String column : List.of("bin", "nested")) {
      Schema incompatible =
          Schema.builder().addNullableField(column, ColumnType.STRING.fieldType()).build();
      IOException e =
          assertThrows(IOException.class, () -> readAll(format(Map.of()), bytes, incompatible));
      assertTrue(e.getMessage().contains("'" + column + "'"), e.getMessage());
    }
    Schema narrow = Schema.builder().addNullableField("big", ColumnType.INT.fieldType()).build();
    try (var channel = new SeekableInMemoryByteChannel(bytes);
        RowReader reader =
            format(Map.of())
                .createReader(channel, bytes.length, ByteRange.of(0, bytes.length), narrow)) {
      BadRecordException e = assertThrows(BadRecordException.class, reader::next);
      assertTrue(e.getMessage().contains("'big'"), e.getMessage());
      assertTrue(e.readerCanContinue());
      assertNull(reader.next().getValue("big"));
      assertNull(reader.next());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"NONE", "zlib", "SNAPPY", "LZO", "LZ4", "ZSTD"})
  void everyOfferedCodecWorks(String codec) throws IOException {
    FileFormat format = format(Map.of("compress", codec));
    List<Row> rows = AllTypes.randomRows(300, 5);
    byte[] file = write(format, AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
    assertEquals(codec.toUpperCase(java.util.Locale.ROOT), compression(file));
  }

  @Test
  void writerOptionsAreApplied() throws IOException {
    FileFormat format =
        format(
            Map.of(
                "compress", "NONE",
                "row.index.stride", "1000",
                "bloom.filter.columns", "s,l",
                "bloom.filter.fpp", "0.05",
                "block.padding", "false",
                "encoding.strategy", "compression",
                "dictionary.key.threshold", "0",
                "compress.size", "64 kb"));
    List<Row> rows = AllTypes.randomRows(3000, 5);
    byte[] file = write(format, AllTypes.SCHEMA, rows);
    assertEquals(rows, readAll(format, file, AllTypes.SCHEMA));
    try (Reader reader = orcCore(file)) {
      assertEquals(CompressionKind.NONE, reader.getCompressionKind());
      assertEquals(1000, reader.getRowIndexStride());
    }
  }

  @Test
  void badOptionValuesNameTheKeyTheValueAndWhatIsAllowed() {
    TableDefinitionException codec =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("compress", "BROTLI")));
    for (String part : List.of("'orc.compress'", "BROTLI", "NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD")) {
      assertTrue(codec.getMessage().contains(part), codec.getMessage());
    }
    TableDefinitionException typo =
        assertThrows(TableDefinitionException.class, () -> format(Map.of("stripe.sise", "1")));
    assertTrue(typo.getMessage().contains("Did you mean 'orc.stripe.size'"), typo.getMessage());
    for (Map<String, String> bad :
        List.of(
            Map.of("bloom.filter.fpp", "1"),
            Map.of("row.index.stride", "10"),
            Map.of("block.padding", "yes"),
            Map.of("write.format", "0.13"),
            Map.of("stripe.size", "-5"),
            Map.of("rows.between.memory.checks", "0"),
            Map.of("compression.strategy", "fast"))) {
      TableDefinitionException e =
          assertThrows(TableDefinitionException.class, () -> format(bad), bad.toString());
      String key = "orc." + bad.keySet().iterator().next();
      assertTrue(e.getMessage().contains(key), e.getMessage());
    }
  }

  /** ORC-645: what orc-core would read back a second late is refused, and the file stays valid. */
  @Test
  void timestampsInTheSecondBeforeTheEpochAreBadRecords() throws IOException {
    Schema schema =
        Schema.builder()
            .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
            .addNullableField("ltz", ColumnType.TIMESTAMP_LTZ.fieldType())
            .build();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    LocalDateTime lastSecond = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 500_000_000);
    List<Row> stored =
        List.of(
            Row.withSchema(schema)
                .addValues(lastSecond.minusSeconds(1), new Instant(-1000))
                .build(),
            Row.withSchema(schema).addValues(lastSecond.plusSeconds(1), new Instant(0)).build());
    try (RowWriter writer = format(Map.of()).createWriter(out, schema)) {
      writer.write(stored.get(0));
      BadRecordException ts =
          assertThrows(
              BadRecordException.class,
              () -> writer.write(Row.withSchema(schema).addValues(lastSecond, null).build()));
      assertTrue(
          ts.getMessage().contains("'ts'") && ts.getMessage().contains("ORC-645"), ts.getMessage());
      BadRecordException ltz =
          assertThrows(
              BadRecordException.class,
              () -> writer.write(Row.withSchema(schema).addValues(null, new Instant(-1)).build()));
      assertTrue(ltz.getMessage().contains("'ltz'"), ltz.getMessage());
      writer.write(stored.get(1));
    }
    assertEquals(stored, readAll(format(Map.of()), out.toByteArray(), schema));
  }

  @Test
  void zeroByteFileIsNotAnOrcFile() {
    IOException e =
        assertThrows(
            IOException.class, () -> readAll(format(Map.of()), new byte[0], AllTypes.SCHEMA));
    assertTrue(e.getMessage().contains("0 bytes"), e.getMessage());
  }

  @Test
  void truncatedOrCorruptFooterFailsAtOpen() throws IOException {
    byte[] file = write(format(Map.of()), AllTypes.SCHEMA, AllTypes.randomRows(200, 3));
    byte[] truncated = Arrays.copyOf(file, file.length / 2);
    assertThrows(Exception.class, () -> readAll(format(Map.of()), truncated, AllTypes.SCHEMA));
    byte[] corrupt = file.clone();
    corrupt[corrupt.length - 1] = (byte) 0xFF; // the postscript's length
    assertThrows(Exception.class, () -> readAll(format(Map.of()), corrupt, AllTypes.SCHEMA));
  }

  /** Damaged compressed stripe data fails the read instead of decoding into other values. */
  @Test
  void corruptStripeFailsTheRead() throws IOException {
    List<Row> rows = AllTypes.randomRows(3000, 4);
    byte[] file = write(format(SMALL_STRIPES), AllTypes.SCHEMA, rows);
    byte[] corrupt = file.clone();
    for (int i = corrupt.length / 3; i < corrupt.length / 3 + 256; i++) {
      corrupt[i] = (byte) 0xFF;
    }
    Exception e =
        assertThrows(Exception.class, () -> readAll(format(Map.of()), corrupt, AllTypes.SCHEMA));
    // a failure of the file from that stripe on, not a record the reader could skip
    assertTrue(!(e instanceof BadRecordException), e.toString());
  }
}
