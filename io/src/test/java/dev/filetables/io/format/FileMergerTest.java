package dev.filetables.io.format;

import static dev.filetables.io.testing.AllTypes.SCHEMA;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.parquet.ChannelInputFile;
import dev.filetables.io.testing.AllTypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Merging files of each format: all rows of all inputs come back, in order, and units are copied.
 */
class FileMergerTest {
  static {
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
  }

  @TempDir Path dir;

  private static FileFormat format(String name) {
    return FileFormats.forName(name, Map.of());
  }

  /** Three segments as the streaming sink writes them: special rows, then random batches. */
  private List<List<Row>> segments() {
    return List.of(AllTypes.specialRows(), AllTypes.randomRows(300, 7), AllTypes.randomRows(1, 8));
  }

  private Path writeFile(FileFormat format, String name, List<Row> rows) throws IOException {
    Path file = dir.resolve(name);
    try (RowWriter writer = format.createWriter(Files.newOutputStream(file), SCHEMA)) {
      for (Row row : storable(format, rows)) {
        writer.write(row);
      }
    }
    return file;
  }

  /** The rows as the format can store them (ORC: {@link AllTypes#storableInOrc}). */
  private static List<Row> storable(FileFormat format, List<Row> rows) {
    return format.name().equals("orc") ? AllTypes.storableInOrc(rows) : rows;
  }

  private static byte[] merge(FileMerger merger, List<Path> inputs) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    merger.merge(inputs, out);
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void mergedFileHoldsAllRowsOfAllInputsInOrder(String name) throws IOException {
    FileFormat format = format(name);
    List<Path> inputs = new ArrayList<>();
    List<Row> expected = new ArrayList<>();
    int i = 0;
    for (List<Row> rows : segments()) {
      Path input = writeFile(format, "seg-" + i++, rows);
      inputs.add(input);
      // what the format reads back from each input (row formats may normalise some values)
      expected.addAll(BulkFormatContractTest.readAll(format, Files.readAllBytes(input), SCHEMA));
    }
    byte[] merged = merge(FileMergers.of(format, SCHEMA), inputs);
    assertEquals(expected, BulkFormatContractTest.readAll(format, merged, SCHEMA));

    // and the merged file still splits into ranges that read every row exactly once
    List<Row> byRanges = new ArrayList<>();
    try (SeekableInMemoryByteChannel channel = new SeekableInMemoryByteChannel(merged)) {
      for (ByteRange range : format.split(channel, merged.length, 700)) {
        byRanges.addAll(BulkFormatContractTest.read(format, merged, range, SCHEMA));
      }
    }
    assertEquals(expected, byRanges);
  }

  /**
   * Formats whose inputs are split into several blocks or row groups, so that a placement has to
   * hold several units of its input.
   */
  private static FileFormat smallUnits(String name) {
    switch (name) {
      case "avro":
        return FileFormats.forName("avro", Map.of("sync-interval", "1000"));
      case "parquet":
        return FileFormats.forName(
            "parquet", Map.of("block.size", "1024", "page.row.count.limit", "20"));
      case "orc":
        return FileFormats.forName("orc", OrcFormatTest.SMALL_STRIPES);
      default:
        return format(name);
    }
  }

  /** What the format reads from {@code file}'s range {@code range}. */
  private static List<Row> readRange(FileFormat format, byte[] file, ByteRange range)
      throws IOException {
    return BulkFormatContractTest.read(format, file, range, SCHEMA);
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json", "avro", "parquet", "orc"})
  void placementsReadEachInputsRowsAloneAlsoAfterAnotherMerge(String name) throws IOException {
    FileFormat format = smallUnits(name);
    FileMerger merger = FileMergers.of(format, SCHEMA);
    List<List<Row>> inputRows =
        List.of(
            AllTypes.randomRows(300, 1),
            List.of(),
            AllTypes.specialRows(),
            AllTypes.randomRows(7, 2));
    List<Path> inputs = new ArrayList<>();
    List<List<Row>> expected = new ArrayList<>();
    for (int i = 0; i < inputRows.size(); i++) {
      Path input = writeFile(format, name + "-in-" + i, inputRows.get(i));
      inputs.add(input);
      expected.add(BulkFormatContractTest.readAll(format, Files.readAllBytes(input), SCHEMA));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<InputPlacement> placements = merger.mergePlaced(inputs, out).orElseThrow();
    byte[] merged = out.toByteArray();
    assertEquals(inputs.size(), placements.size());
    if (name.equals("parquet")) {
      assertTrue(parquetRowGroups(merged) > inputs.size(), "inputs of several row groups");
    } else if (name.equals("avro")) {
      assertTrue(avroBlocks(merged) > inputs.size(), "inputs of several blocks");
    } else if (name.equals("orc")) {
      assertTrue(OrcFormatTest.stripes(merged) > inputs.size(), "inputs of several stripes");
    }
    for (int i = 0; i < inputs.size(); i++) {
      assertEquals(
          expected.get(i), readRange(format, merged, placements.get(i).rows()), "input " + i);
    }

    // the merged file merged again behind another file: its inputs' rows move with its bytes
    Path first = Files.write(dir.resolve(name + "-merged"), merged);
    Path before = writeFile(format, name + "-before", AllTypes.randomRows(40, 3));
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    List<InputPlacement> outer = merger.mergePlaced(List.of(before, first), again).orElseThrow();
    byte[] twice = again.toByteArray();
    assertEquals(
        BulkFormatContractTest.readAll(format, Files.readAllBytes(before), SCHEMA),
        readRange(format, twice, outer.get(0).rows()));
    long shift = outer.get(1).shift();
    for (int i = 0; i < inputs.size(); i++) {
      ByteRange rows = placements.get(i).rows();
      ByteRange moved = ByteRange.of(rows.start() + shift, rows.end() + shift);
      assertEquals(expected.get(i), readRange(format, twice, moved), "input " + i + ", moved");
    }
  }

  @Test
  void aMergerThatReEncodesCannotPlaceItsInputs() throws IOException {
    FileFormat csv = format("csv");
    Path a = writeFile(csv, "a", AllTypes.randomRows(5, 1));
    FileMerger rewriting = new RewritingMerger(csv, SCHEMA);
    assertTrue(rewriting.mergePlaced(List.of(a, a), new ByteArrayOutputStream()).isEmpty());
  }

  @Test
  void bulkFormatsKeepTheirRowsExactly() throws IOException {
    for (String name : List.of("avro", "parquet", "orc")) {
      FileFormat format = format(name);
      List<Path> inputs = new ArrayList<>();
      List<Row> expected = new ArrayList<>();
      int i = 0;
      for (List<Row> rows : segments()) {
        inputs.add(writeFile(format, name + "-" + i++, rows));
        expected.addAll(storable(format, rows));
      }
      assertEquals(
          expected,
          BulkFormatContractTest.readAll(
              format, merge(FileMergers.of(format, SCHEMA), inputs), SCHEMA),
          name);
    }
  }

  @Test
  void rowFormatsAreConcatenatedByteForByte() throws IOException {
    FileFormat format = format("csv");
    Path a = writeFile(format, "a", AllTypes.specialRows());
    Path b = writeFile(format, "b", AllTypes.randomRows(20, 1));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(Files.readAllBytes(a));
    expected.write(Files.readAllBytes(b));
    assertArrayEquals(expected.toByteArray(), merge(FileMergers.of(format, SCHEMA), List.of(a, b)));
  }

  @Test
  void parquetRowGroupsAreCopiedNotRewritten() throws IOException {
    FileFormat format = format("parquet");
    List<Path> inputs = new ArrayList<>();
    int groups = 0;
    for (int i = 0; i < 3; i++) {
      Path input = writeFile(format, "p" + i, AllTypes.randomRows(50, i));
      inputs.add(input);
      groups += parquetRowGroups(Files.readAllBytes(input));
    }
    byte[] merged = merge(FileMergers.of(format, SCHEMA), inputs);
    assertEquals(groups, parquetRowGroups(merged));
  }

  @Test
  void orcStripesAreCopiedNotRewritten() throws IOException {
    FileFormat format = FileFormats.forName("orc", OrcFormatTest.SMALL_STRIPES);
    List<Path> inputs = new ArrayList<>();
    List<Row> expected = new ArrayList<>();
    int stripes = 0;
    for (int i = 0; i < 3; i++) {
      List<Row> rows = AllTypes.randomRows(200, i);
      Path input = writeFile(format, "o" + i, rows);
      inputs.add(input);
      expected.addAll(rows);
      stripes += OrcFormatTest.stripes(Files.readAllBytes(input));
    }
    assertTrue(stripes > 3, "the inputs have several stripes each");
    byte[] merged = merge(FileMergers.of(format, SCHEMA), inputs);
    assertEquals(stripes, OrcFormatTest.stripes(merged));
    assertEquals(expected, BulkFormatContractTest.readAll(format, merged, SCHEMA));
  }

  @Test
  void orcInputsOfAnotherLayoutAreRewrittenWithTheTablesOptions() throws IOException {
    FileFormat zlib = FileFormats.forName("orc", OrcFormatTest.SMALL_STRIPES);
    Map<String, String> zstdOptions = new java.util.HashMap<>(OrcFormatTest.SMALL_STRIPES);
    zstdOptions.put("compress", "ZSTD");
    FileFormat zstd = FileFormats.forName("orc", zstdOptions);
    List<Row> first = AllTypes.randomRows(200, 1);
    List<Row> second = AllTypes.specialRows();
    Path a = writeFile(zlib, "zlib", first);
    Path b = writeFile(zstd, "zstd", second);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // the table's format now writes without splitting into small stripes
    FileFormat table = format("orc");
    assertTrue(FileMergers.of(table, SCHEMA).mergePlaced(List.of(a, b), out).isEmpty());
    byte[] merged = out.toByteArray();
    List<Row> expected = new ArrayList<>(first);
    expected.addAll(AllTypes.storableInOrc(second));
    assertEquals(expected, BulkFormatContractTest.readAll(table, merged, SCHEMA));
    assertEquals(1, OrcFormatTest.stripes(merged), "rewritten into the table's stripes");
    assertEquals("ZLIB", OrcFormatTest.compression(merged));
  }

  @Test
  void avroBlocksAreCopiedNotRewritten() throws IOException {
    FileFormat format = FileFormats.forName("avro", Map.of("sync-interval", "1000"));
    List<Path> inputs = new ArrayList<>();
    int blocks = 0;
    for (int i = 0; i < 3; i++) {
      Path input = writeFile(format, "a" + i, AllTypes.randomRows(100, i));
      inputs.add(input);
      blocks += avroBlocks(Files.readAllBytes(input));
    }
    assertTrue(blocks > 3, "the inputs have several blocks each");
    byte[] merged = merge(FileMergers.of(format, SCHEMA), inputs);
    assertEquals(blocks, avroBlocks(merged));
  }

  @Test
  void singleInputMergesIntoAnEquivalentFile() throws IOException {
    for (String name : List.of("csv", "json", "avro", "parquet", "orc")) {
      FileFormat format = format(name);
      Path only = writeFile(format, name, AllTypes.randomRows(10, 3));
      byte[] merged = merge(FileMergers.of(format, SCHEMA), List.of(only));
      assertEquals(
          BulkFormatContractTest.readAll(format, Files.readAllBytes(only), SCHEMA),
          BulkFormatContractTest.readAll(format, merged, SCHEMA),
          name);
    }
  }

  @Test
  void avroRejectsInputsOfAnotherCodec() throws IOException {
    Path snappy = writeFile(format("avro"), "snappy", AllTypes.randomRows(5, 1));
    Path deflate =
        writeFile(
            FileFormats.forName("avro", Map.of("codec", "deflate")),
            "deflate",
            AllTypes.randomRows(5, 2));
    IOException e =
        assertThrows(
            IOException.class,
            () -> merge(FileMergers.of(format("avro"), SCHEMA), List.of(snappy, deflate)));
    assertTrue(e.getMessage().contains("codec"), e.getMessage());
  }

  @Test
  void otherFormatsAreMergedByRewriting() throws IOException {
    // a format FileMergers does not know, that can read what it writes: csv behind a wrapper
    FileFormat csv = format("csv");
    FileFormat wrapped =
        new FileFormat() {
          @Override
          public String name() {
            return "wrapped";
          }

          @Override
          public String extension() {
            return ".w";
          }

          @Override
          public RowWriter createWriter(OutputStream out, Schema fileSchema) throws IOException {
            return csv.createWriter(out, fileSchema);
          }

          @Override
          public List<ByteRange> split(
              java.nio.channels.SeekableByteChannel file, long fileSize, long targetRangeSize)
              throws IOException {
            return csv.split(file, fileSize, targetRangeSize);
          }

          @Override
          public RowReader createReader(
              java.nio.channels.SeekableByteChannel file,
              long fileSize,
              ByteRange range,
              Schema fileSchema)
              throws IOException {
            return csv.createReader(file, fileSize, range, fileSchema);
          }
        };
    FileMerger merger = FileMergers.of(wrapped, SCHEMA);
    assertTrue(merger instanceof RewritingMerger);
    Path a = writeFile(wrapped, "a", AllTypes.randomRows(5, 1));
    Path b = writeFile(wrapped, "b", AllTypes.randomRows(5, 2));
    List<Row> expected =
        new ArrayList<>(BulkFormatContractTest.readAll(csv, Files.readAllBytes(a), SCHEMA));
    expected.addAll(BulkFormatContractTest.readAll(csv, Files.readAllBytes(b), SCHEMA));
    assertEquals(
        expected, BulkFormatContractTest.readAll(csv, merge(merger, List.of(a, b)), SCHEMA));
  }

  private static int parquetRowGroups(byte[] file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            new ChannelInputFile(new SeekableInMemoryByteChannel(file), file.length))) {
      return reader.getFooter().getBlocks().size();
    }
  }

  /** Number of data blocks, counted by their record counts (exact, unlike sync positions). */
  private static int avroBlocks(byte[] file) throws IOException {
    int blocks = 0;
    try (DataFileStream<Object> stream =
        new DataFileStream<>(new java.io.ByteArrayInputStream(file), new GenericDatumReader<>())) {
      while (stream.hasNext()) {
        long records = stream.getBlockCount();
        for (long i = 0; i < records; i++) {
          stream.next();
        }
        blocks++;
      }
    }
    return blocks;
  }
}
