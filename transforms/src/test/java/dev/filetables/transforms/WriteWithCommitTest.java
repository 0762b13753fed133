package dev.filetables.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileTableIO#write} wires the partition commit and the partition deriver: partitions come
 * from the event-time column, and every partition of a bounded input gets its success file at the
 * end.
 */
class WriteWithCommitTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addField("log_ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("dt", ColumnType.STRING.fieldType())
          .addNullableField("hour", ColumnType.STRING.fieldType())
          .build();

  @TempDir Path dir;

  @Test
  void derivedPartitionsAreWrittenAndCommittedWithSuccessFiles() throws Exception {
    Path root = dir.resolve("logs");
    TableSpec table =
        TableSpec.builder()
            .setName("logs")
            .setSchema(SCHEMA)
            .setPartitionKeys(List.of("dt", "hour"))
            .setOptions(
                TableOptions.of(
                    "path", root.toString(),
                    "format", "json",
                    "partition.time-extractor.timestamp-pattern", "$dt $hour:00:00",
                    "sink.partition-derive.time-column", "log_ts",
                    "sink.partition-commit.trigger", "partition-time",
                    "sink.partition-commit.policy.kind", "success-file"))
            .build();
    List<Row> rows = new ArrayList<>();
    LocalDateTime start = LocalDateTime.of(2020, 5, 20, 22, 30);
    for (int i = 0; i < 40; i++) {
      // dt/hour given wrong on purpose: the deriver replaces them from log_ts
      rows.add(
          Row.withSchema(SCHEMA).addValues((long) i, start.plusMinutes(5L * i), "x", null).build());
    }

    Pipeline p = Pipeline.create(TestTables.directOptions());
    p.apply(Create.of(rows).withRowSchema(SCHEMA)).apply(FileTableIO.write(table));
    p.run().waitUntilFinish();

    Set<String> partitions;
    try (Stream<Path> dt = Files.list(root)) {
      partitions =
          dt.flatMap(
                  d -> {
                    try {
                      return Files.list(d);
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .map(h -> root.relativize(h).toString())
              .collect(Collectors.toCollection(TreeSet::new));
    }
    assertEquals(
        Set.of(
            "dt=2020-05-20/hour=22",
            "dt=2020-05-20/hour=23",
            "dt=2020-05-21/hour=00",
            "dt=2020-05-21/hour=01"),
        partitions);
    for (String partition : partitions) {
      assertTrue(
          Files.exists(root.resolve(partition).resolve("_SUCCESS")),
          "no _SUCCESS in committed partition " + partition);
    }
    List<Row> read = new ArrayList<>();
    // the rows read back carry the derived partition values
    for (Row r : FileTableIOTest.read(FileTableIO.read(table))) {
      read.add(r);
      LocalDateTime ts = r.getLogicalTypeValue("log_ts", LocalDateTime.class);
      assertEquals(ts.toLocalDate().toString(), r.getString("dt"));
      assertEquals(String.format("%02d", ts.getHour()), r.getString("hour"));
    }
    assertEquals(40, read.size());
  }
}
