package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.publish.DurablePublish;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import dev.filetables.transforms.sink.segment.SegmentFilesTestSupport;
import dev.filetables.transforms.sink.segment.SegmentKind;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming sink's writer and publisher on the Direct runner with TestStream, which controls
 * processing time: rolling by inactivity and rollover, one file per partition and commit interval,
 * hidden until published, state cleared, end of input, watermark hold.
 */
class StreamingSinkTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addField("dt", ColumnType.STRING.fieldType())
          .build();

  /** A minute boundary, so fixed one-minute windows start here. */
  private static final Instant T0 = new Instant(1_590_000_000_000L);

  @TempDir Path dir;

  /** When the writer combines segment files (the default unless a test sets another). */
  private SegmentCombiner combiner = new SegmentCombiner(SegmentCombiner.DEFAULT_MAX_FILES);

  // ---- fixtures

  private TableSpec table(String... options) {
    Map<String, String> map = new HashMap<>();
    map.put(TableOptions.CONNECTOR, "filesystem");
    map.put(TableOptions.PATH, dir.resolve("t").toString());
    map.put(TableOptions.FORMAT, "csv");
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    return TableSpec.builder()
        .setName("s")
        .setSchema(SCHEMA)
        .setPartitionKeys(List.of("dt"))
        .setOptions(TableOptions.of(map))
        .build();
  }

  private static Row row(long id, String dt) {
    return Row.withSchema(SCHEMA).addValues(id, dt).build();
  }

  private static TimestampedValue<Row> at(long id, String dt, Instant timestamp) {
    return TimestampedValue.of(row(id, dt), timestamp);
  }

  private static Pipeline pipeline() {
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    options.setTargetParallelism(2);
    return Pipeline.create(options);
  }

  /** The sink as StreamingWrite builds it, with a probe between writer and publisher. */
  private PCollection<WrittenFile> sink(
      PCollection<Row> input, TableSpec table, long bufferSize, String probe) {
    return sink(input, table, bufferSize, probe, UUID.randomUUID().toString());
  }

  private PCollection<WrittenFile> sink(
      PCollection<Row> input, TableSpec table, long bufferSize, String probe, String uuid) {
    PartFiles files = new PartFiles(table.options().rootPath(), uuid, ".csv");
    boolean byPartition = table.options().shuffleByPartition();
    int writers = table.options().sinkParallelism().orElse(byPartition ? 0 : 1);
    return input
        .apply(ParDo.of(new AssignWritersFn(table, SCHEMA, byPartition, writers, true)))
        .setCoder(KvCoder.of(WriterKeyCoder.of(), RowBatch.BatchCoder.of()))
        .apply(
            ParDo.of(
                new RollingWriterFn(
                    table,
                    files,
                    RollingPolicy.of(table.options(), bufferSize),
                    SegmentKind.FORMAT,
                    0,
                    combiner,
                    false)))
        .setCoder(WrittenFileCoder.of())
        .apply(ParDo.of(new ProbeFn(probe)))
        .setCoder(WrittenFileCoder.of())
        .apply(new DurablePublish(uuid, 0));
  }

  private static final Map<String, Queue<Object>> SEEN = new ConcurrentHashMap<>();

  private static String collector() {
    String id = UUID.randomUUID().toString();
    SEEN.put(id, new ConcurrentLinkedQueue<>());
    return id;
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> seen(String id) {
    return new ArrayList<>((Collection<T>) (Collection<?>) SEEN.get(id));
  }

  /** What the writer emits, checked on the way to the publisher: complete, hidden, not visible. */
  static final class ProbeFn extends DoFn<WrittenFile, WrittenFile> {
    private final String id;

    ProbeFn(String id) {
      this.id = id;
    }

    @ProcessElement
    public void process(@Element WrittenFile file, OutputReceiver<WrittenFile> out)
        throws IOException {
      Path hidden = Path.of(file.path());
      String name = hidden.getFileName().toString();
      assertTrue(PartFileName.isInProgress(name), name);
      assertTrue(Files.exists(hidden), "closed file exists before publishing: " + hidden);
      assertEquals(Files.size(hidden), file.sizeBytes());
      assertFalse(
          Files.exists(hidden.resolveSibling(PartFileName.visibleOf(name))),
          "not visible before publishing: " + name);
      long segments;
      try (Stream<Path> siblings = Files.list(hidden.getParent())) {
        segments =
            siblings
                .filter(
                    p -> p.getFileName().toString().startsWith(SegmentFiles.segmentPrefix(name)))
                .count();
      }
      SEEN.get(id).add(KV.of(file, segments));
      out.output(file);
    }
  }

  static final class CollectFn<T> extends DoFn<T, Void> {
    private final String id;

    CollectFn(String id) {
      this.id = id;
    }

    @ProcessElement
    public void process(@Element T element) {
      SEEN.get(id).add(element);
    }
  }

  private static List<Long> ids(WrittenFile file) {
    try (Stream<String> lines = Files.lines(Path.of(file.path()))) {
      return lines
          .map(
              line ->
                  Long.parseLong(
                      line.substring(0, line.indexOf(',') < 0 ? line.length() : line.indexOf(','))))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> hidden(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("."))
          .collect(Collectors.toList());
    }
  }

  private static long counter(WrittenFile file) {
    return PartFileName.parse(Path.of(file.path()).getFileName().toString()).get().counter();
  }

  // ---- tests

  @Test
  void rollsByInactivityThenByRolloverCountedFromEachFilesOwnOpening() throws Exception {
    TableSpec table =
        table(
            TableOptions.SHUFFLE_BY_PARTITION, "true",
            TableOptions.ROLLING_ROLLOVER_INTERVAL, "10 min",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 min",
            TableOptions.ROLLING_CHECK_INTERVAL, "1 s");
    TestStream.Builder<Row> stream =
        TestStream.create(RowCoder.of(SCHEMA))
            .addElements(at(0, "a", T0), at(1, "a", T0))
            .advanceProcessingTime(Duration.standardSeconds(30))
            .addElements(at(2, "a", T0))
            // nothing for 2 minutes: inactivity closes {0, 1, 2}
            .advanceProcessingTime(Duration.standardMinutes(2))
            .addElements(at(3, "a", T0));
    // a row every 55 s: never inactive; the file opened with row 3 rolls 10 min later
    for (int i = 4; i <= 16; i++) {
      stream =
          stream.advanceProcessingTime(Duration.standardSeconds(55)).addElements(at(i, "a", T0));
    }
    Pipeline pipeline = pipeline();
    String probe = collector();
    String published = collector();
    sink(pipeline.apply(stream.advanceWatermarkToInfinity()), table, 1 << 20, probe)
        .apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    List<WrittenFile> files = seen(published);
    files.sort((a, b) -> Long.compare(ids(a).get(0), ids(b).get(0)));
    assertEquals(3, files.size(), files.toString());
    assertEquals(List.of(0L, 1L, 2L), ids(files.get(0)), "closed by inactivity");
    // row 3 opened the file at p; rows 4..13 came at p + 55 s .. p + 550 s; rollover at p + 600 s
    assertEquals(
        List.of(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L), ids(files.get(1)), "rolled over");
    assertEquals(List.of(14L, 15L, 16L), ids(files.get(2)), "closed at the end of the input");
    // each file started from fresh state: new counters, in order
    assertTrue(counter(files.get(0)) < counter(files.get(1)));
    assertTrue(counter(files.get(1)) < counter(files.get(2)));
    assertEquals(List.of(), hidden(dir.resolve("t")));
  }

  @Test
  void publishesOneFilePerPartitionAndWriterPerCommitIntervalAndNoEmptyFiles() throws Exception {
    // latency-oriented: roll after 10 s open or idle; a commit every 12 s of processing time
    TableSpec table =
        table(
            TableOptions.SINK_PARALLELISM, "2",
            TableOptions.ROLLING_ROLLOVER_INTERVAL, "10 s",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "10 s",
            TableOptions.ROLLING_CHECK_INTERVAL, "1 s");
    List<List<String>> partitionsPerInterval =
        List.of(List.of("a", "b", "c"), List.of("a"), List.of(), List.of("b", "c"));
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    long id = 0;
    Map<String, Integer> intervalsWithData = new HashMap<>();
    for (List<String> partitions : partitionsPerInterval) {
      for (String dt : partitions) {
        intervalsWithData.merge(dt, 1, Integer::sum);
        // 10 rows in one bundle: round robin gives both writers 5
        List<TimestampedValue<Row>> rows = new ArrayList<>();
        for (int k = 0; k < 10; k++, id++) {
          rows.add(at(id, dt, T0.plus(Duration.millis(id))));
        }
        stream =
            stream.addElements(
                rows.get(0), rows.subList(1, rows.size()).toArray(new TimestampedValue[0]));
      }
      stream = stream.advanceProcessingTime(Duration.standardSeconds(12));
    }
    Pipeline pipeline = pipeline();
    String probe = collector();
    String published = collector();
    sink(pipeline.apply(stream.advanceWatermarkToInfinity()), table, 1 << 20, probe)
        .apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    List<WrittenFile> files = seen(published);
    assertEquals(id, files.stream().mapToLong(WrittenFile::rowCount).sum());
    Map<String, Long> filesPerPartitionAndWriter =
        files.stream()
            .collect(
                Collectors.groupingBy(
                    f ->
                        f.partitionPath()
                            + "/"
                            + PartFileName.parse(Path.of(f.path()).getFileName().toString())
                                .get()
                                .writer(),
                    Collectors.counting()));
    for (Map.Entry<String, Integer> partition : intervalsWithData.entrySet()) {
      for (String writer : List.of("0", "1")) {
        assertEquals(
            (long) partition.getValue(),
            filesPerPartitionAndWriter.get("dt=" + partition.getKey() + "/" + writer),
            "one file per interval with data for " + partition.getKey() + " writer " + writer);
      }
    }
    for (WrittenFile file : files) {
      List<Long> ids = ids(file);
      assertEquals(file.rowCount(), ids.size());
      assertTrue(ids.size() > 0, "no empty files");
      // all rows of a file come from one interval (ids of an interval are consecutive)
      assertTrue(ids.get(ids.size() - 1) - ids.get(0) < 30, ids.toString());
    }
  }

  @Test
  void closedFilesStayHiddenUntilPublishedAndSegmentsGoAway() throws Exception {
    TableSpec table = table(TableOptions.SHUFFLE_BY_PARTITION, "true");
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    for (int i = 0; i < 200; i++) {
      stream = stream.addElements(at(i, i % 2 == 0 ? "even" : "odd", T0));
    }
    Pipeline pipeline = pipeline();
    String probe = collector();
    String published = collector();
    // a 200-byte buffer: each file is merged from several segments
    sink(pipeline.apply(stream.advanceWatermarkToInfinity()), table, 200, probe)
        .apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    List<KV<WrittenFile, Long>> beforePublish = seen(probe);
    assertEquals(2, beforePublish.size());
    for (KV<WrittenFile, Long> closed : beforePublish) {
      assertTrue(closed.getValue() > 1, "segments on disk until publishing: " + closed);
    }
    List<WrittenFile> files = seen(published);
    assertEquals(2, files.size());
    for (WrittenFile file : files) {
      Path visible = Path.of(file.path());
      assertTrue(Files.exists(visible));
      assertTrue(visible.getFileName().toString().startsWith("part-"));
      assertEquals(100, ids(file).size());
      assertEquals(new TreeSet<>(ids(file)), new TreeSet<>(ids(file)), "in order");
    }
    assertEquals(List.of(), hidden(dir.resolve("t")), "no hidden file and no segment is left");
  }

  @Test
  void segmentFilesOfAFileOpenOverManyBundlesStayBoundedAndRowsStayInOrder() throws Exception {
    combiner = new SegmentCombiner(3);
    TableSpec table = table(TableOptions.SHUFFLE_BY_PARTITION, "true");
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    for (int i = 0; i < 120; i++) {
      stream = stream.addElements(at(i, "a", T0)); // an element per bundle
    }
    Pipeline pipeline = pipeline();
    String probe = collector();
    String published = collector();
    // a 20-byte buffer: about a segment per row, one file (default rolling: 128 MB, 30 min)
    sink(pipeline.apply(stream.advanceWatermarkToInfinity()), table, 20, probe)
        .apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    List<KV<WrittenFile, Long>> closed = seen(probe);
    assertEquals(1, closed.size());
    long segmentFiles = closed.get(0).getValue();
    assertTrue(
        segmentFiles >= 1 && segmentFiles <= 3, "segment files at the roll: " + segmentFiles);
    List<WrittenFile> files = seen(published);
    assertEquals(1, files.size());
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < 120; i++) {
      expected.add(i);
    }
    assertEquals(expected, ids(files.get(0)), "every row once, in order");
    assertEquals(List.of(), hidden(dir.resolve("t")), "no hidden file and no segment is left");
  }

  @Test
  void endOfInputClosesEveryOpenFile() throws Exception {
    TableSpec table =
        table(
            TableOptions.SINK_PARALLELISM, "3",
            TableOptions.SHUFFLE_BY_PARTITION, "true",
            TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 h",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 h");
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    for (int i = 0; i < 50; i++) {
      stream = stream.addElements(at(i, "p" + (i % 5), T0.plus(Duration.standardSeconds(i))));
    }
    Pipeline pipeline = pipeline();
    String published = collector();
    sink(pipeline.apply(stream.advanceWatermarkToInfinity()), table, 1 << 20, collector())
        .apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    List<WrittenFile> files = seen(published);
    assertEquals(5, files.size(), "one file per partition, closed when the input ended");
    Set<Long> all = new TreeSet<>();
    for (WrittenFile file : files) {
      all.addAll(ids(file));
      assertEquals(10, file.rowCount());
      // the file's timestamps cover its rows
      List<Long> ids = ids(file);
      assertEquals(T0.plus(Duration.standardSeconds(ids.get(0))), file.minTimestamp());
      assertEquals(T0.plus(Duration.standardSeconds(ids.get(ids.size() - 1))), file.maxTimestamp());
    }
    assertEquals(50, all.size());
  }

  @Test
  void watermarkIsHeldWhileAFileIsOpenAndReleasedWhenItCloses() throws Exception {
    TableSpec table =
        table(
            TableOptions.SHUFFLE_BY_PARTITION, "true",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 min",
            TableOptions.ROLLING_CHECK_INTERVAL, "1 s");
    TestStream<Row> stream =
        TestStream.create(RowCoder.of(SCHEMA))
            .addElements(at(1, "a", T0.plus(Duration.standardSeconds(5))), at(2, "a", T0))
            // the input watermark passes the rows while their file is still open...
            .advanceWatermarkTo(T0.plus(Duration.standardHours(1)))
            // ...until inactivity closes it
            .advanceProcessingTime(Duration.standardMinutes(2))
            // a late row: once the hold is released, the output watermark is at T0 + 1 h
            .addElements(at(3, "a", T0.plus(Duration.standardMinutes(10))))
            .advanceProcessingTime(Duration.standardMinutes(2))
            .advanceWatermarkToInfinity();
    Pipeline pipeline = pipeline();
    String panes = collector();
    sink(pipeline.apply(stream), table, 1 << 20, collector())
        .apply(
            Window.<WrittenFile>into(FixedWindows.of(Duration.standardMinutes(1)))
                .withAllowedLateness(Duration.standardDays(1))
                .discardingFiredPanes())
        .apply(WithKeys.of("all"))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenFileCoder.of()))
        .apply(GroupByKey.create())
        .apply(ParDo.of(new PaneFn(panes)));
    pipeline.run().waitUntilFinish();

    List<String> seen = seen(panes);
    seen.sort(null);
    assertEquals(
        List.of(
            T0 + " ON_TIME [1, 2] min " + T0,
            T0.plus(Duration.standardMinutes(10))
                + " LATE [3] min "
                + T0.plus(Duration.standardMinutes(10))),
        seen);
  }

  // ---- leftovers of failed attempts

  /** A hidden part file and a segment of writer 0, as a failed attempt would leave them. */
  static void leaveFilesOfAFailedAttempt(Path partitionDir, String uuid) throws IOException {
    Files.createDirectories(partitionDir);
    long counter = System.currentTimeMillis() + 3_600_000; // opened "later" than anything known
    String part = PartFileName.hidden(uuid, "0", counter, ".csv");
    Files.writeString(partitionDir.resolve(part), "99,x\n");
    Files.writeString(partitionDir.resolve(SegmentFiles.segmentName(part, 0)), "98,x\n");
  }

  /** Rows with a negative id are markers: they make a failed attempt's leftovers appear. */
  static final class LeftoversFn extends DoFn<Row, Void> {
    private final String root;
    private final String uuid;

    LeftoversFn(Path root, String uuid) {
      this.root = root.toString();
      this.uuid = uuid;
    }

    @ProcessElement
    public void process(@Element Row row) throws IOException {
      if (row.getInt64("id") < 0) {
        leaveFilesOfAFailedAttempt(Path.of(root, "dt=" + row.getString("dt")), uuid);
      }
    }
  }

  private PCollection<WrittenFile> sinkWithLeftovers(
      Pipeline pipeline, TestStream<Row> stream, TableSpec table, String uuid) {
    PCollection<Row> input = pipeline.apply(stream);
    input.apply("Leftovers", ParDo.of(new LeftoversFn(table.options().rootPath(), uuid)));
    PCollection<Row> rows =
        input
            .apply("Rows", org.apache.beam.sdk.transforms.Filter.by(r -> r.getInt64("id") >= 0))
            .setRowSchema(SCHEMA);
    return sink(rows, table, 1 << 20, collector(), uuid);
  }

  private static long hiddenOf(Path root, String uuid) throws IOException {
    return hidden(root).stream().filter(p -> p.getFileName().toString().contains(uuid)).count();
  }

  @Test
  void leftoversOfAFailedAttemptAreDeletedWhenTheWriterOpensOrClosesAFile() throws Exception {
    TableSpec table =
        table(
            TableOptions.SHUFFLE_BY_PARTITION, "true",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "10 s",
            TableOptions.ROLLING_CHECK_INTERVAL, "1 s");
    Path root = dir.resolve("t");
    String uuid = UUID.randomUUID().toString();
    String otherWrite = UUID.randomUUID().toString();
    // before the job: leftovers in 'opened', and a file of another write, which is not ours to
    // touch
    leaveFilesOfAFailedAttempt(root.resolve("dt=opened"), uuid);
    leaveFilesOfAFailedAttempt(root.resolve("dt=opened"), otherWrite);
    TestStream<Row> stream =
        TestStream.create(RowCoder.of(SCHEMA))
            .addElements(at(1, "opened", T0), at(2, "closed", T0)) // 'opened': open deletes them
            .addElements(at(-1, "closed", T0)) // leftovers appear while 'closed' has a file open
            .advanceProcessingTime(Duration.standardSeconds(15)) // inactivity: close deletes them
            .advanceWatermarkToInfinity(); // (no forget timer gets to fire)
    Pipeline pipeline = pipeline();
    String published = collector();
    sinkWithLeftovers(pipeline, stream, table, uuid).apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    assertEquals(2, SegmentFilesTestSupport.rows(seen(published)));
    assertEquals(0, hiddenOf(root, uuid), "leftovers of this write are gone: " + hidden(root));
    assertEquals(2, hiddenOf(root, otherWrite), "another write's files stay");
  }

  @Test
  void leftoversAppearingAfterTheLastFileAreDeletedBeforeTheWriterForgetsItsCounter()
      throws Exception {
    TableSpec table =
        table(
            TableOptions.SHUFFLE_BY_PARTITION, "true",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "10 s",
            TableOptions.ROLLING_CHECK_INTERVAL, "1 s");
    Path root = dir.resolve("t");
    String uuid = UUID.randomUUID().toString();
    TestStream<Row> stream =
        TestStream.create(RowCoder.of(SCHEMA))
            .addElements(at(1, "idle", T0))
            .advanceProcessingTime(Duration.standardSeconds(15)) // closed by inactivity
            .addElements(at(-1, "idle", T0)) // leftovers appear; no row for 'idle' ever again
            .advanceProcessingTime(Duration.standardMinutes(3)) // the forget timer cleans up
            .advanceWatermarkToInfinity();
    Pipeline pipeline = pipeline();
    String published = collector();
    sinkWithLeftovers(pipeline, stream, table, uuid).apply(ParDo.of(new CollectFn<>(published)));
    pipeline.run().waitUntilFinish();

    assertEquals(1, SegmentFilesTestSupport.rows(seen(published)));
    assertEquals(0, hiddenOf(root, uuid), "leftovers of this write are gone: " + hidden(root));
  }

  /** Records window start, pane timing, the files' row ids and min timestamp. */
  static final class PaneFn extends DoFn<KV<String, Iterable<WrittenFile>>, Void>
      implements Serializable {
    private final String id;

    PaneFn(String id) {
      this.id = id;
    }

    @ProcessElement
    public void process(
        @Element KV<String, Iterable<WrittenFile>> files, BoundedWindow window, PaneInfo pane) {
      for (WrittenFile file : files.getValue()) {
        List<Long> ids = ids(file);
        ids.sort(null);
        SEEN.get(id)
            .add(
                ((IntervalWindow) window).start()
                    + " "
                    + pane.getTiming()
                    + " "
                    + ids
                    + " min "
                    + file.minTimestamp());
      }
    }
  }
}
