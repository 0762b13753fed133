package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bench <name>} reaches the benchmark's main class when the benchmarks are on the class path
 * (as bin/filetables runs the CLI): a benchmark's unknown option is its own error, one line. (Moved
 * from pipelines' CliParsingTest with the benchmarks; same assertions.)
 */
class BenchCommandTest {
  @Test
  void benchmarkOptionsAreCheckedByTheBenchmark() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exitCode =
          new FileTablesCli(new RunnerPresets(List.of(Path.of("../runner-configs"))), false)
              .run(new String[] {"bench", "streaming", "--bogus=1"}, o, e);
    }
    String bogusErr = err.toString(StandardCharsets.UTF_8);
    String bogus =
        "exit "
            + exitCode
            + "\n--- out\n"
            + out.toString(StandardCharsets.UTF_8)
            + "--- err\n"
            + bogusErr;
    assertEquals(1, exitCode, bogus);
    assertEquals(1, bogusErr.lines().count(), bogus);
    assertTrue(bogusErr.startsWith("filetables: error: Unknown arguments [bogus]"), bogus);
  }
}
