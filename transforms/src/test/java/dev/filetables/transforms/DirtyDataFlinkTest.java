package dev.filetables.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRangeReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dead letters on the Flink runner ({@code [local]} mini-cluster, batch). */
@Tag("cluster")
class DirtyDataFlinkTest {
  @TempDir Path dir;

  private static FlinkPipelineOptions flink() {
    FlinkPipelineOptions options = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(2);
    return options;
  }

  @Test
  void deadLettersAreWrittenAndReadBackOnFlink() throws Exception {
    Path root = dir.resolve("t");
    Files.createDirectories(root);
    StringBuilder good = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      good.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\"}\r\n");
    }
    Files.writeString(root.resolve("part-1.json"), "\uFEFF" + good, StandardCharsets.UTF_8);
    Files.writeString(
        root.resolve("part-2.json"),
        "{\"id\":1000}\n{\"id\":\"many\"}\nnot json at all\n{\"id\":1001}\n",
        StandardCharsets.UTF_8);
    Files.write(root.resolve("part-3.json"), new byte[] {'{', (byte) 0xC3, '}', '\n'});
    TableSpec table =
        TableSpec.builder()
            .setName("landing")
            .setSchema(DirtyDataReadTest.SCHEMA)
            .setOptions(
                TableOptions.of(
                    Map.of(
                        "connector", "filesystem",
                        "path", root.toString(),
                        "format", "json",
                        "source.bad-records", "dead-letter",
                        "source.bad-records.dead-letter.path", dir.resolve("dead").toString())))
            .build();

    DirtyDataReadTest.Read read =
        DirtyDataReadTest.read(FileTableIO.read(table).withTargetSplitSize(1000), flink());

    Set<Long> expected = new TreeSet<>();
    for (long i = 0; i < 500; i++) {
      expected.add(i);
    }
    expected.add(1000L);
    expected.add(1001L);
    assertEquals(expected, read.ids());
    assertEquals(3, read.counter(FileRangeReader.DEAD_LETTERS));

    Path ddl = Files.writeString(dir.resolve("dead.sql"), DeadLetterTable.ddl(table));
    List<Row> dead =
        DirtyDataReadTest.read(FileTableIO.read(DdlParser.parseFile(ddl)), flink()).rows();
    assertEquals(
        List.of("part-2.json:2", "part-2.json:3", "part-3.json:1"),
        dead.stream()
            .map(
                r ->
                    Path.of(r.getString("source_file")).getFileName()
                        + ":"
                        + r.getInt64("line_number"))
            .sorted()
            .collect(Collectors.toList()));
    assertEquals(
        DuckDbDeadLetters.keysOf(dead),
        DuckDbDeadLetters.rows(dir.resolve("dead")),
        "DuckDB reads the dead-letter table as FileTables does");
  }
}
