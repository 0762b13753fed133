package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.tests.streaming.StreamingScenarios.FailureOutcome;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, point 1: native Flink 1.19 SQL reads what the streaming sink wrote, in every format of
 * Flink's connector that FileTables writes (JSON, CSV, Avro, Parquet, ORC), rolled files as well as
 * auto-compacted ones, after a Flink-runner job with task failures. Each table must read in Flink
 * as exactly the rows written (a multiset: nothing missing, doubled or altered), as it must for the
 * product's own reader and DuckDB/Avro/orc-core ({@link ExactlyOnceCheck}). Issue 20 added ORC
 * (Flink's flink-orc reading FileTables' ORC files).
 */
class NativeFlinkReadsStreamingOutputTest {
  private static final Logger LOG =
      LoggerFactory.getLogger(NativeFlinkReadsStreamingOutputTest.class);
  private static final long ROWS = 6_000;
  private static final double ROWS_PER_SECOND = 1_500;
  private static final Orders ORDERS = Orders.withPartitions(4);
  private static final List<String> FORMATS = List.of("json", "csv", "avro", "parquet", "orc");

  @TempDir Path dir;

  @Test
  void nativeFlinkReadsEveryRowOnceFromRolledAndCompactedFilesInEveryFormat(TestInfo test)
      throws Exception {
    List<SinkUnderTest> sinks = new ArrayList<>();
    for (String format : FORMATS) {
      sinks.add(
          StreamingTables.fileTable(
              dir,
              "rolled_" + format,
              format,
              Map.of(
                  TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 s",
                  TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
                  TableOptions.ROLLING_CHECK_INTERVAL, "500 ms")));
      sinks.add(StreamingTables.compacted(dir, "compacted_" + format, format, Map.of()));
    }
    long seed = FailureSeeds.seed(test);
    FailureOutcome outcome =
        StreamingScenarios.runWithFailures(
            dir, sinks, ORDERS, ROWS, ROWS_PER_SECOND, 2, seed, Duration.ofSeconds(240));
    outcome.assertFailuresInjectedAndRestarted(0, seed);
    assertTrue(outcome.run.finishedByItself, outcome.run.toString());

    Map<String, Integer> expected = IndependentReader.expected(ORDERS, ROWS);
    for (SinkUnderTest sink : sinks) {
      String table = sink.table.name();
      ExactlyOnceCheck check = outcome.checks.get(table);
      assertEquals(List.of(), check.exactlyOnceProblems(), check + "; seed " + seed);
      assertEquals(List.of(), check.contents.inProgressFiles(), table + ": hidden files left");
      if (table.startsWith("compacted_")) {
        assertTrue(
            check.contents.files().stream()
                .anyMatch(f -> CompactedFileName.isCompacted(f.path().getFileName().toString())),
            table + ": no merged file");
      }
      IndependentReader.Verdict flink =
          IndependentReader.compare(expected, NativeFlinkReader.rows(sink.table));
      List<String> problems = new ArrayList<>(flink.extraProblems(NativeFlinkReader.NAME));
      problems.addAll(flink.missingProblems(NativeFlinkReader.NAME));
      assertEquals(
          List.of(),
          problems,
          table + " in " + check.contents.files().size() + " files; seed " + seed);
      LOG.info(
          "{}: native Flink read all {} rows once from {} files",
          table,
          ROWS,
          check.contents.files().size());
    }
  }
}
