package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} into an ORC table and {@code query} of it (Direct runner): the ORC table answers a
 * query, partition filter included, exactly as the JSON table it was copied from.
 */
class OrcCliTest {
  @TempDir Path dir;

  private Path ddl(String name, String format) throws Exception {
    Path sql = dir.resolve(name + ".sql");
    Files.writeString(
        sql,
        "CREATE TABLE "
            + name
            + " (id BIGINT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), born DATE, dt STRING)"
            + " PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '"
            + dir.resolve(name)
            + "', 'format' = '"
            + format
            + "')");
    return sql;
  }

  @Test
  void runCopiesIntoOrcAndQueryReadsItBack() throws Exception {
    Path source = ddl("src", "json");
    for (String dt : List.of("2024-01-01", "2024-01-02")) {
      Path partition = Files.createDirectories(dir.resolve("src").resolve("dt=" + dt));
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 50; i++) {
        long id = dt.endsWith("1") ? i : 100 + i;
        lines.append(
            i % 7 == 0
                ? "{\"id\":" + id + ",\"name\":null,\"price\":null,\"ts\":null,\"born\":null}\n"
                : "{\"id\":"
                    + id
                    + ",\"name\":\"n"
                    + id
                    + " ü\",\"price\":"
                    + id
                    + ".25,\"ts\":\"2024-01-0"
                    + (1 + i % 9)
                    + " 10:00:00.123\",\"born\":\"1969-12-3"
                    + (i % 2)
                    + "\"}\n");
      }
      Files.writeString(partition.resolve("part-1.json"), lines);
    }
    Path target = ddl("dst", "orc");

    CliRunner copy =
        CliRunner.run(
            "run", "--from", source.toString(), "--to", target.toString(), "--runner=DirectRunner");
    assertEquals(0, copy.exitCode, copy.toString());
    assertTrue(copy.out.startsWith("wrote 100 rows to "), copy.out);
    try (Stream<Path> files = Files.walk(dir.resolve("dst"))) {
      assertTrue(
          files.anyMatch(p -> p.getFileName().toString().endsWith(".orc")), "no .orc file written");
    }

    assertEquals(query(source), query(target));
    List<String> secondDay = query(target, "--where", "dt = '2024-01-02'");
    assertEquals(query(source, "--where", "dt = '2024-01-02'"), secondDay);
    assertEquals(50, secondDay.size());
  }

  /** The rows a query prints, sorted. */
  private static List<String> query(Path table, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("query", table.toString()));
    args.addAll(List.of(more));
    args.add("--runner=DirectRunner");
    return sortedLines(CliRunner.run(args.toArray(new String[0])));
  }

  private static List<String> sortedLines(CliRunner query) {
    assertEquals(0, query.exitCode, query.toString());
    return query.out.lines().sorted().collect(Collectors.toList());
  }
}
