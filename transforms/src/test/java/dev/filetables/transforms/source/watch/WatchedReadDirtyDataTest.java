package dev.filetables.transforms.source.watch;

import static dev.filetables.transforms.source.watch.WatchedReadDirectTest.await;
import static dev.filetables.transforms.source.watch.WatchedReadDirectTest.pipeline;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.JvmCollector;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRangeReader;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watched source under {@code source.bad-records}: bad lines, undecodable bytes, BOM + CRLF, a
 * cut last record, truncated and empty Parquet files among good ones. Only {@code fail} stops the
 * stream; {@code skip} counts, {@code dead-letter} writes each bad record once, with provenance.
 */
@Tag("slow")
class WatchedReadDirtyDataTest {
  @TempDir Path dir;

  private TableSpec table(String format, String options) {
    return DdlParser.parse(
        "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve("landing")
            + "', 'format' = '"
            + format
            + "', 'source.monitor-interval' = '200 ms'"
            + options
            + ")");
  }

  private String deadLetterOptions() {
    return ", 'source.bad-records' = 'dead-letter', 'source.bad-records.dead-letter.path' = '"
        + dir.resolve("dead")
        + "'";
  }

  /** Writes {@code bytes} under a hidden name, then renames it into the landing directory. */
  private Path place(String name, byte[] bytes) throws Exception {
    Path target = dir.resolve("landing").resolve(name);
    Files.createDirectories(target.getParent());
    Path hidden = target.resolveSibling("." + name + ".inprogress");
    Files.write(hidden, bytes);
    Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
    return target;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static final byte[] GBK_LINE =
      "{\"id\": 5, \"msg\": \"中文\"}\n".getBytes(Charset.forName("GBK"));

  /** Rows 4 and 6; line 2 is GBK in a UTF-8 feed, line 3 does not parse. */
  private static byte[] badLines() {
    return concat(
        utf8("{\"id\": 4, \"msg\": \"ok\"}\n"), GBK_LINE, utf8("{\"id\": x}\n{\"id\": 6}\n"));
  }

  /** Rows 7 and 8: a UTF-8 byte order mark and CRLF line ends, no bad record. */
  private static byte[] bomCrlf() {
    return concat(
        new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
        utf8("{\"id\": 7}\r\n{\"id\": 8, \"msg\": \"m\"}\r\n"));
  }

  /** Row 9, then a record cut in the middle (a truncated copy). */
  private static byte[] cut() {
    return utf8("{\"id\": 9}\n{\"id\": 10, \"ms");
  }

  /**
   * Rows 100.. of which every 10th line is bad: long enough for the runner to checkpoint inside it.
   */
  private static byte[] many(int lines) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      text.append(i % 10 == 9 ? "{\"id\": \"bad " + i + "\"}\n" : "{\"id\": " + (100 + i) + "}\n");
    }
    return utf8(text.toString());
  }

  private static Set<Long> manyIds(int lines) {
    return LongStream.range(0, lines)
        .filter(i -> i % 10 != 9)
        .map(i -> 100 + i)
        .boxed()
        .collect(Collectors.toSet());
  }

  private static long counter(PipelineResult result, String name) {
    return WatchedReadDirectTest.counter(result, FileRangeReader.NAMESPACE, name);
  }

  /** The ids read; fails if any row was read twice (rows compare as a multiset, not a set). */
  private static Set<Long> ids(List<Row> rows) {
    List<Long> all = rows.stream().map(r -> r.getInt64("id")).collect(Collectors.toList());
    Set<Long> ids = new TreeSet<>(all);
    assertEquals(ids.size(), all.size(), "a row read more than once: " + all);
    return ids;
  }

  private static Set<Long> union(Set<Long> a, long... more) {
    Set<Long> all = new TreeSet<>(a);
    Arrays.stream(more).forEach(all::add);
    return all;
  }

  /** Starts a watched read of {@code table} collecting its rows. */
  private static PipelineResult watch(TableSpec table, String collector) {
    Pipeline p = pipeline();
    p.apply(FileTableIO.read(table).withWatchShards(2))
        .apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    return p.run();
  }

  private static void cancel(PipelineResult result) {
    try {
      result.cancel();
      result.waitUntilFinish(Duration.standardSeconds(10));
    } catch (Exception | AssertionError alreadyFailed) {
      // the fail-mode test's pipeline has ended already
    }
  }

  @Test
  void deadLetterWritesEveryBadRecordOnceWithProvenanceAndTheStreamGoesOn() throws Exception {
    TableSpec table = table("json", deadLetterOptions());
    place("good.json", utf8("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n"));
    String collector = JvmCollector.newCollector();
    PipelineResult result = watch(table, collector);
    Path bad;
    Path truncated;
    Path manyFile;
    try {
      await(result, () -> JvmCollector.collected(collector).size() >= 3, "the good file");
      bad = place("bad.json", badLines());
      place("bom.json", bomCrlf());
      truncated = place("cut.json", cut());
      place("empty.json", new byte[0]);
      manyFile = place("many.json", many(600));
      place("after.json", utf8("{\"id\": 11}\n"));
      Set<Long> expected = union(manyIds(600), 1, 2, 3, 4, 6, 7, 8, 9, 11);
      await(
          result,
          () -> JvmCollector.<Row>collected(collector).size() >= expected.size(),
          "all good rows");
      List<Row> rows = JvmCollector.collected(collector);
      assertEquals(expected, ids(rows));
      assertEquals(expected.size(), rows.size(), "every row once");
      int deadLetters = 2 + 1 + 60;
      await(
          result,
          () -> counter(result, FileRangeReader.DEAD_LETTERS) >= deadLetters,
          "the dead-letter metric");
      assertEquals(deadLetters, counter(result, FileRangeReader.DEAD_LETTERS));
      assertEquals(deadLetters, counter(result, FileRangeReader.BAD_RECORDS));
      // the dead-letter sink rolls its file after 1 min without rows; it is then published
      Path ddl = Files.writeString(dir.resolve("dead_letters.sql"), DeadLetterTable.ddl(table));
      TableSpec deadTable = DdlParser.parseFile(ddl);
      long deadline = System.nanoTime() + 150_000_000_000L;
      List<Row> dead = List.of();
      while (dead.size() < deadLetters && System.nanoTime() < deadline) {
        Thread.sleep(2000);
        dead = readBounded(deadTable);
      }
      assertEquals(deadLetters, dead.size(), "each bad record dead-lettered once: " + dead);
      Set<String> distinct =
          dead.stream()
              .map(r -> r.getString("source_file") + ":" + r.getInt64("line_number"))
              .collect(Collectors.toSet());
      assertEquals(deadLetters, distinct.size(), "no dead letter twice");
      assertEquals(
          dev.filetables.transforms.DuckDbDeadLetters.keysOf(dead),
          dev.filetables.transforms.DuckDbDeadLetters.rows(deadTable.options().rootPath()),
          "DuckDB reads the dead-letter table as FileTables does");

      Row gbk = find(dead, bad, 2);
      assertEquals("record", gbk.getString("kind"));
      assertNull(gbk.getString("raw_text"), "not UTF-8: base64 only");
      // a JSON record's raw bytes are its line without the line end
      assertArrayEquals(
          Arrays.copyOf(GBK_LINE, GBK_LINE.length - 1),
          Base64.getDecoder().decode(gbk.getString("raw_base64")));
      assertTrue(
          gbk.getString("error_message").contains("not valid UTF-8"),
          gbk.getString("error_message"));
      assertEquals(
          (long) utf8("{\"id\": 4, \"msg\": \"ok\"}\n").length, gbk.getInt64("byte_offset"));
      assertEquals("{\"id\": x}", find(dead, bad, 3).getString("raw_text"));
      assertEquals("{\"id\": 10, \"ms", find(dead, truncated, 2).getString("raw_text"));
      assertEquals("{\"id\": \"bad 9\"}", find(dead, manyFile, 10).getString("raw_text"));
    } finally {
      cancel(result);
    }
  }

  private static Row find(List<Row> dead, Path file, long line) {
    return dead.stream()
        .filter(
            r ->
                r.getString("source_file").equals(file.toString())
                    && r.getInt64("line_number") == line)
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError("no dead letter for " + file + " line " + line + " in " + dead));
  }

  private static List<Row> readBounded(TableSpec table) {
    if (!Files.exists(table.options().rootPath())) {
      return List.of();
    }
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    Pipeline p = Pipeline.create(options);
    String collector = JvmCollector.newCollector();
    p.apply(FileTableIO.read(table)).apply(ParDo.of(new JvmCollector.CollectFn<>(collector)));
    p.run().waitUntilFinish();
    return JvmCollector.collected(collector);
  }

  @Test
  void skipCountsBadRecordsAndReadsOn() throws Exception {
    TableSpec table = table("json", ", 'source.bad-records' = 'skip'");
    place("bad.json", badLines());
    place("cut.json", cut());
    String collector = JvmCollector.newCollector();
    PipelineResult result = watch(table, collector);
    try {
      await(
          result,
          () -> JvmCollector.collected(collector).size() >= 3,
          "the good rows of the dirty files");
      place("bom.json", bomCrlf());
      await(result, () -> JvmCollector.collected(collector).size() >= 5, "the file after them");
      assertEquals(Set.of(4L, 6L, 7L, 8L, 9L), ids(JvmCollector.collected(collector)));
      await(result, () -> counter(result, FileRangeReader.BAD_RECORDS) >= 3, "the skip metric");
      assertEquals(3, counter(result, FileRangeReader.BAD_RECORDS));
      assertEquals(0, counter(result, FileRangeReader.DEAD_LETTERS));
    } finally {
      cancel(result);
    }
  }

  private byte[] parquet(TableSpec table, long... ids) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = bytes;
        RowWriter writer = FileFormats.of(table.options()).createWriter(out, table.fileSchema())) {
      for (long id : ids) {
        writer.write(Row.withSchema(table.fileSchema()).addValues(id, "n" + id).build());
      }
    }
    return bytes.toByteArray();
  }

  @Test
  void truncatedAndEmptyParquetFilesAreBadFilesAndTheGoodOnesAreRead() throws Exception {
    TableSpec table = table("parquet", ", 'source.bad-records' = 'skip'");
    place("part-good.parquet", parquet(table, 1, 2, 3));
    byte[] broken = parquet(table, 10, 11, 12);
    place("part-truncated.parquet", Arrays.copyOf(broken, broken.length / 2));
    place("part-empty.parquet", new byte[0]);
    String collector = JvmCollector.newCollector();
    PipelineResult result = watch(table, collector);
    try {
      await(result, () -> JvmCollector.collected(collector).size() >= 3, "the good file");
      place("part-later.parquet", parquet(table, 4, 5));
      await(
          result,
          () -> JvmCollector.collected(collector).size() >= 5,
          "the file after the broken ones");
      assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), ids(JvmCollector.collected(collector)));
      await(result, () -> counter(result, FileRangeReader.BAD_FILES) >= 2, "the bad-files metric");
      assertEquals(2, counter(result, FileRangeReader.BAD_FILES));
    } finally {
      cancel(result);
    }
  }

  @Test
  void failIsTheDefaultAndNamesFileLineAndTheOption() throws Exception {
    TableSpec table = table("json", "");
    place("good.json", utf8("{\"id\": 1}\n"));
    Path bad = place("bad.json", badLines());
    String collector = JvmCollector.newCollector();
    PipelineResult result = watch(table, collector);
    try {
      AssertionError failed =
          assertThrows(
              AssertionError.class,
              () -> await(result, () -> false, "the bad record fails the job"));
      StringBuilder text = new StringBuilder();
      for (Throwable t = failed; t != null; t = t.getCause()) {
        text.append(t).append('\n');
      }
      for (String part :
          List.of(bad.toString(), "line 2", "'source.bad-records'", "'skip'", "'dead-letter'")) {
        assertTrue(text.toString().contains(part), "expected <" + part + "> in: " + text);
      }
    } finally {
      cancel(result);
    }
  }
}
