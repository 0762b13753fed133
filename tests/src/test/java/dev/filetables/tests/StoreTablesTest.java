package dev.filetables.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.tests.stores.StoreViews;
import dev.filetables.transforms.FileTableIO;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batch tables on the real S3 server and the real HDFS: FileTables writes them on the Flink runner
 * (two parallel writers) with partition values that need escaping, DuckDB reads the files the store
 * holds (no FileTables code in between) and FileTables reads them back, pruned and whole, on the
 * Direct runner: the same rows as the input, as multisets, and no in-progress file visible.
 */
class StoreTablesTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addNullableField("name", ColumnType.STRING.fieldType())
          .addNullableField("amount", ColumnType.decimal(10, 2))
          .addNullableField("ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("dt", ColumnType.STRING.fieldType())
          .addNullableField("region", ColumnType.STRING.fieldType())
          .build();

  private static final String[] REGIONS = {"eu/west", "a=b", "100%", "us east", "zürich €", null};

  private static StorageServers servers;

  @TempDir Path scratch;

  @BeforeAll
  static void startServers() throws Exception {
    servers = StorageServers.shared();
  }

  static Stream<String> stores() {
    return Stream.of("s3", "hdfs");
  }

  @ParameterizedTest
  @MethodSource("stores")
  void writtenOnFlinkReadByDuckDbAndByFileTables(String store) throws Exception {
    servers.makeDefault();
    String root = servers.root(store) + "/batch/orders-" + UUID.randomUUID();
    TableSpec table = table(root);
    List<Row> input = rows(300);

    Pipeline write =
        Pipeline.create(
            options("--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2"));
    write.apply(Create.of(input).withRowSchema(SCHEMA)).apply(FileTableIO.write(table));
    write.run().waitUntilFinish();

    Path local = StoreViews.localView(servers, root, scratch);
    try (Stream<Path> files = Files.walk(local)) {
      List<Path> hidden =
          files
              .filter(p -> p.getFileName().toString().startsWith("."))
              .collect(Collectors.toList());
      assertEquals(List.of(), hidden, "no in-progress file is left");
    }
    if (store.equals("s3")) {
      assertEquals(List.of(), servers.openUploads(root), "no upload is left open");
    }
    List<String> expected = canonical(input);
    assertEquals(expected, duckDb(local), store + ": DuckDB reads the store's files");
    assertEquals(
        expected,
        canonical(
            ReadBack.rows(table, "DirectRunner", servers.pipelineArgs().toArray(new String[0]))),
        store + ": FileTables reads the table back");
    assertTrue(Files.isDirectory(TablePaths.of(root)));
  }

  private static TableSpec table(String root) {
    return TableSpec.builder()
        .setName("orders")
        .setSchema(SCHEMA)
        .setPartitionKeys(List.of("dt", "region"))
        .setOptions(
            TableOptions.of(
                Map.of(
                    "connector", "filesystem",
                    "path", root,
                    "format", "parquet",
                    "partition.default-name", "NULL")))
        .build();
  }

  private static PipelineOptions options(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(servers.pipelineArgs());
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).create();
  }

  private static List<Row> rows(int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(
          Row.withSchema(SCHEMA)
              .addValues(
                  (long) i,
                  i % 7 == 0 ? null : "näme-" + i,
                  i % 11 == 0 ? null : new BigDecimal(i * 37 - 500).movePointLeft(2),
                  LocalDateTime.of(2020, 5, 20, i % 24, i % 60, 7),
                  "2020-05-" + (20 + i % 3),
                  REGIONS[i % REGIONS.length])
              .build());
    }
    return rows;
  }

  private static List<String> duckDb(Path local) throws Exception {
    return DuckDbParquet.sortedRows(
        local,
        "id, name, amount, ts, dt, region",
        rs -> {
          String region = rs.getString("region");
          return line(
              rs.getObject("id"),
              rs.getObject("name"),
              rs.getObject("amount"),
              rs.getObject("ts", LocalDateTime.class),
              rs.getObject("dt"),
              "NULL".equals(region) ? null : region);
        });
  }

  private static List<String> canonical(List<Row> rows) {
    return rows.stream()
        .map(
            r ->
                line(
                    r.getValue("id"),
                    r.getValue("name"),
                    r.getValue("amount"),
                    r.getValue("ts"),
                    r.getValue("dt"),
                    r.getValue("region")))
        .sorted()
        .collect(Collectors.toList());
  }

  private static String line(Object... values) {
    List<String> out = new ArrayList<>();
    for (Object v : values) {
      if (v == null) {
        out.add("∅");
      } else if (v instanceof BigDecimal) {
        out.add(((BigDecimal) v).setScale(2).toPlainString());
      } else if (v instanceof Number) {
        out.add(Long.toString(((Number) v).longValue()));
      } else if (v instanceof LocalDate) {
        out.add(v.toString());
      } else {
        out.add(String.valueOf(v));
      }
    }
    return out.toString();
  }
}
