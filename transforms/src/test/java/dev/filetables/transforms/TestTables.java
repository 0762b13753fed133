package dev.filetables.transforms;

import dev.filetables.io.table.MetadataColumn;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.testing.AllTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * Shared fixtures: tables of every column type ({@link AllTypes}), deterministic rows, collecting
 * outputs.
 */
final class TestTables {
  private TestTables() {}

  /**
   * Partition values that need escaping or look like null; null itself means the default partition.
   */
  static final List<String> DT_VALUES =
      Arrays.asList(
          "2020-05-20", "a/b", "x=y", "100%", "with space", "ünïcødé ✓", "null", "NULL", null);

  static final List<Integer> HOUR_VALUES = Arrays.asList(0, 12, null);

  /** Data columns of every supported type: the shared "all types" table of the tests. */
  static final Schema DATA_COLUMNS = AllTypes.SCHEMA;

  /** Data columns plus partition columns {@code dt STRING, hour INT}. */
  static final Schema PHYSICAL =
      Schema.builder()
          .addFields(DATA_COLUMNS.getFields())
          .addNullableField("dt", FieldType.STRING)
          .addNullableField("hour", FieldType.INT32)
          .build();

  static Map<String, String> options(Path root, String format, String... keyValues) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(TableOptions.CONNECTOR, "filesystem");
    options.put(TableOptions.PATH, root.toString());
    options.put(TableOptions.FORMAT, format);
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return options;
  }

  /** The two-level table {@code PARTITIONED BY (dt, hour)}. */
  static TableSpec partitioned(Path root, String format, String... options) {
    return TableSpec.builder()
        .setName("events_" + format)
        .setSchema(PHYSICAL)
        .setPartitionKeys(List.of("dt", "hour"))
        .setOptions(TableOptions.of(options(root, format, options)))
        .build();
  }

  static TableSpec unpartitioned(Path root, String format, String... options) {
    return TableSpec.builder()
        .setName("plain_" + format)
        .setSchema(DATA_COLUMNS)
        .setOptions(TableOptions.of(options(root, format, options)))
        .build();
  }

  /** {@code table} with extra metadata columns appended to its schema. */
  static TableSpec withMetadata(TableSpec table, List<MetadataColumn> columns) {
    Schema.Builder schema = Schema.builder().addFields(table.schema().getFields());
    for (MetadataColumn column : columns) {
      schema.addField(column.columnName(), column.key().type().fieldType());
    }
    return table.toBuilder().setSchema(schema.build()).setMetadataColumns(columns).build();
  }

  /**
   * {@code count} deterministic rows of {@code schema} (PHYSICAL or DATA_COLUMNS): random data
   * columns ({@link AllTypes#randomRows}), and partition values such that every (dt, hour)
   * combination occurs.
   */
  static List<Row> rows(Schema schema, int count) {
    List<Row> data = AllTypes.randomRows(count, 20200520L);
    if (schema.equals(DATA_COLUMNS)) {
      return data;
    }
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(
          Row.withSchema(schema)
              .addValues(data.get(i).getValues())
              .addValues(
                  DT_VALUES.get(i % DT_VALUES.size()),
                  HOUR_VALUES.get(i / DT_VALUES.size() % HOUR_VALUES.size()))
              .build());
    }
    return rows;
  }

  /**
   * Direct runner with 2 workers: still several bundles, far fewer tiny files than one per core.
   */
  static PipelineOptions directOptions() {
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    options.setTargetParallelism(2);
    return options;
  }

  /** Row → count, comparing the named columns by value (decimals by numeric value). */
  static Map<List<Object>, Integer> multiset(Collection<Row> rows, List<String> columns) {
    Map<List<Object>, Integer> counts = new HashMap<>();
    for (Row row : rows) {
      List<Object> key = new ArrayList<>(columns.size());
      for (String column : columns) {
        Object value = row.getValue(column);
        key.add(value instanceof BigDecimal ? ((BigDecimal) value).stripTrailingZeros() : value);
      }
      counts.merge(key, 1, Integer::sum);
    }
    return counts;
  }

  // ---- files

  static List<Path> allFiles(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> hiddenFiles(Path root) {
    return allFiles(root).stream()
        .filter(p -> p.getFileName().toString().startsWith("."))
        .collect(Collectors.toList());
  }

  static List<Path> visibleFiles(Path root) {
    return allFiles(root).stream()
        .filter(p -> p.getFileName().toString().startsWith("part-"))
        .collect(Collectors.toList());
  }

  /** Visible part files grouped by their directory relative to {@code root}. */
  static Map<String, List<Path>> filesByPartition(Path root) {
    return visibleFiles(root).stream()
        .collect(
            Collectors.groupingBy(
                p -> root.relativize(p.getParent()).toString(), Collectors.toList()));
  }

  /** The uuid of a visible part file name {@code part-<uuid>-<writer>-<counter><ext>}. */
  static String writeUuid(Path file) {
    return file.getFileName().toString().substring(5, 5 + 36);
  }

  /** The writer id of a visible part file name. */
  static String writerId(Path file) {
    String rest = file.getFileName().toString().substring(5 + 36 + 1);
    return rest.substring(0, rest.indexOf('-'));
  }

  // ---- collecting pipeline outputs in this JVM (Direct runner and Flink [local])

  static String newCollector() {
    return dev.filetables.transforms.JvmCollector.newCollector();
  }

  static <T> List<T> collected(String id) {
    return dev.filetables.transforms.JvmCollector.collected(id);
  }

  static final class CollectFn<T> extends dev.filetables.transforms.JvmCollector.CollectFn<T> {
    CollectFn(String id) {
      super(id);
    }
  }
}
