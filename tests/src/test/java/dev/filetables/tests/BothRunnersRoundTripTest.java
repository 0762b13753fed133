package dev.filetables.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.testing.AllTypes;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same write → read of all five formats on the Direct runner and on a local Flink cluster
 * (batch, parallelism 2): both give back exactly the input rows. Two pipelines per runner (write
 * all tables, then read all tables) keep the Flink start-up cost down. The tables also cover the
 * three writer layouts: csv with {@code sink.parallelism=3}, json with {@code
 * sink.shuffle-by-partition.enable}, avro, parquet and orc with the default per-bundle writers.
 */
class BothRunnersRoundTripTest {
  private static final List<String> FORMATS = List.of("csv", "json", "avro", "parquet", "orc");
  private static final Map<String, Map<String, String>> SINK_OPTIONS =
      Map.of(
          "csv", Map.of(TableOptions.SINK_PARALLELISM, "3"),
          "json", Map.of(TableOptions.SHUFFLE_BY_PARTITION, "true"),
          "avro", Map.of(),
          "parquet", Map.of(),
          "orc", Map.of());
  private static final List<String> DT_VALUES =
      Arrays.asList("2020-05-20", "a/b", "x=y", "100%", "with space", "ünïcødé ✓", "null", null);
  private static final List<Integer> HOUR_VALUES = Arrays.asList(7, 23, null);

  /** The shared "all types" table, partitioned by {@code dt STRING, hour INT}. */
  private static final Schema SCHEMA =
      Schema.builder()
          .addFields(AllTypes.SCHEMA.getFields())
          .addNullableField("dt", FieldType.STRING)
          .addNullableField("hour", FieldType.INT32)
          .build();

  @TempDir Path dir;

  @Test
  void directAndFlinkWriteAndReadTheSameRows() throws Exception {
    List<Row> input = rows(240);
    Map<String, List<Row>> direct = writeThenRead(directOptions(), dir.resolve("direct"), input);
    Map<String, List<Row>> flink = writeThenRead(flinkOptions(), dir.resolve("flink"), input);

    Map<List<Object>, Integer> expected = multiset(input);
    for (String format : FORMATS) {
      assertEquals(expected, multiset(direct.get(format)), "Direct runner, " + format);
      assertEquals(expected, multiset(flink.get(format)), "Flink runner, " + format);
    }
    for (String runner : List.of("direct", "flink")) {
      Path base = dir.resolve(runner);
      filesPerPartition(base.resolve("csv"))
          .forEach(
              (partition, files) -> assertTrue(files.size() <= 3, runner + " csv " + partition));
      assertEquals(
          Set.of("0", "1", "2"),
          visibleFiles(base.resolve("csv")).stream()
              .map(BothRunnersRoundTripTest::writerId)
              .collect(Collectors.toSet()),
          runner + ": sink.parallelism=3 writer ids");
      filesPerPartition(base.resolve("json"))
          .forEach(
              (partition, files) -> assertEquals(1, files.size(), runner + " json " + partition));
    }
    // Flink batch: one bundle per task, so the default sink writes at most one file per
    // (partition, task) — at most 2 with parallelism 2
    for (String format : List.of("avro", "parquet", "orc")) {
      filesPerPartition(dir.resolve("flink").resolve(format))
          .forEach((partition, files) -> assertTrue(files.size() <= 2, partition + ": " + files));
    }
  }

  private static Map<Path, List<Path>> filesPerPartition(Path root) throws IOException {
    Map<Path, List<Path>> byPartition =
        visibleFiles(root).stream().collect(Collectors.groupingBy(Path::getParent));
    assertEquals(DT_VALUES.size() * HOUR_VALUES.size(), byPartition.size(), root.toString());
    return byPartition;
  }

  /** The writer id of {@code part-<uuid>-<writer>-<counter><ext>} (a uuid is 36 characters). */
  private static String writerId(Path file) {
    String rest = file.getFileName().toString().substring("part-".length() + 36 + 1);
    return rest.substring(0, rest.indexOf('-'));
  }

  private Map<String, List<Row>> writeThenRead(PipelineOptions options, Path base, List<Row> input)
      throws IOException {
    Map<String, TableSpec> tables = new LinkedHashMap<>();
    for (String format : FORMATS) {
      tables.put(format, table(base.resolve(format), format));
    }

    Pipeline write = Pipeline.create(options);
    PCollection<Row> rows = write.apply(Create.of(input).withRowSchema(SCHEMA));
    Map<String, String> writtenIds = new HashMap<>();
    tables.forEach(
        (format, table) -> {
          String id = newCollector();
          writtenIds.put(format, id);
          rows.apply("Write " + format, FileTableIO.write(table))
              .apply("Collect written " + format, ParDo.of(new CollectFn<WrittenFile>(id)));
        });
    write.run().waitUntilFinish();

    for (String format : FORMATS) {
      Path root = base.resolve(format);
      List<WrittenFile> written = collected(writtenIds.get(format));
      assertEquals(input.size(), written.stream().mapToLong(WrittenFile::rowCount).sum(), format);
      assertEquals(
          written.stream().map(f -> Path.of(f.path())).sorted().collect(Collectors.toList()),
          visibleFiles(root),
          format + ": published files are the visible files");
      assertEquals(List.of(), hiddenFiles(root), format + ": no in-progress file remains");
    }

    Pipeline read = Pipeline.create(options);
    Map<String, String> readIds = new HashMap<>();
    tables.forEach(
        (format, table) -> {
          String id = newCollector();
          readIds.put(format, id);
          read.apply("Read " + format, FileTableIO.read(table))
              .apply("Collect read " + format, ParDo.of(new CollectFn<Row>(id)));
        });
    read.run().waitUntilFinish();

    Map<String, List<Row>> result = new HashMap<>();
    readIds.forEach((format, id) -> result.put(format, collected(id)));
    return result;
  }

  private static TableSpec table(Path root, String format) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(TableOptions.CONNECTOR, "filesystem");
    options.put(TableOptions.PATH, root.toString());
    options.put(TableOptions.FORMAT, format);
    options.putAll(SINK_OPTIONS.get(format));
    return TableSpec.builder()
        .setName("events_" + format)
        .setSchema(SCHEMA)
        .setPartitionKeys(List.of("dt", "hour"))
        .setOptions(TableOptions.of(options))
        .build();
  }

  private static PipelineOptions directOptions() {
    PipelineOptions options = PipelineOptionsFactory.create();
    options.setRunner(DirectRunner.class);
    return options;
  }

  private static PipelineOptions flinkOptions() {
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(2);
    return options;
  }

  /** Random rows of all types ({@link AllTypes#randomRows}), in every (dt, hour) partition. */
  private static List<Row> rows(int count) {
    List<Row> data = AllTypes.randomRows(count, 20200229L);
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(
          Row.withSchema(SCHEMA)
              .addValues(data.get(i).getValues())
              .addValues(
                  DT_VALUES.get(i % DT_VALUES.size()), HOUR_VALUES.get(i % HOUR_VALUES.size()))
              .build());
    }
    return rows;
  }

  /** Row values by column name (decimals by numeric value) → count. */
  private static Map<List<Object>, Integer> multiset(Collection<Row> rows) {
    Map<List<Object>, Integer> counts = new HashMap<>();
    for (Row row : rows) {
      List<Object> key = new ArrayList<>();
      for (String column : SCHEMA.getFieldNames()) {
        Object value = row.getValue(column);
        key.add(value instanceof BigDecimal ? ((BigDecimal) value).stripTrailingZeros() : value);
      }
      counts.merge(key, 1, Integer::sum);
    }
    return counts;
  }

  private static List<Path> files(Path root, boolean hidden) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().startsWith(".") == hidden)
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static List<Path> visibleFiles(Path root) throws IOException {
    return files(root, false);
  }

  private static List<Path> hiddenFiles(Path root) throws IOException {
    return files(root, true);
  }

  // Outputs are gathered in this JVM: the Direct runner and Flink's [local] cluster both run here.
  private static final Map<String, Queue<Object>> COLLECTED = new ConcurrentHashMap<>();

  private static String newCollector() {
    String id = UUID.randomUUID().toString();
    COLLECTED.put(id, new ConcurrentLinkedQueue<>());
    return id;
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> collected(String id) {
    return new ArrayList<>((Collection<T>) (Collection<?>) COLLECTED.get(id));
  }

  private static final class CollectFn<T> extends DoFn<T, Void> {
    private final String id;

    CollectFn(String id) {
      this.id = id;
    }

    @ProcessElement
    public void processElement(@Element T element) {
      COLLECTED.get(id).add(element);
    }
  }
}
