package dev.filetables.tests.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.pipelines.FileTablesCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs {@code filetables sql <script> <args>} in this JVM and returns what it printed. */
final class SqlCli {
  private SqlCli() {}

  static String run(String script, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> command = new ArrayList<>(List.of("sql", script));
    command.addAll(List.of(args));
    int code =
        new FileTablesCli()
            .run(
                command.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    String errors = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, "sql " + script + " failed:\n" + errors);
    return out.toString(StandardCharsets.UTF_8);
  }
}
