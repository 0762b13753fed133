package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.transforms.FileTableIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The independent readers can fail: on a table FileTables wrote (Direct runner, every format), each
 * of them (DuckDB / Avro's reader, and native Flink SQL) reads exactly the rows written, and it
 * reports a doubled file, a lost file and an altered row. Hidden files (in-progress names) are not
 * read.
 */
class IndependentReaderTest {
  private static final Orders ORDERS = Orders.withPartitions(3);
  private static final int ROWS = 300;

  @TempDir Path dir;

  private TableSpec written(String format) {
    TableSpec table =
        Orders.table(
            "orders_" + format,
            StreamingScenarios.tablePath(dir, "orders_" + format).toString(),
            format,
            Map.of());
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      rows.add(ORDERS.row(id));
    }
    Pipeline pipeline = Pipeline.create(PipelineOptionsFactory.create());
    pipeline.apply(Create.of(rows).withRowSchema(Orders.SCHEMA)).apply(FileTableIO.write(table));
    pipeline.run().waitUntilFinish();
    return table;
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "csv", "parquet", "avro"})
  void readsExactlyTheRowsWrittenAndSeesEveryKindOfDamage(String format) throws Exception {
    TableSpec table = written(format);
    Path root = CommitTables.root(table);
    List<Path> files = IndependentReader.visibleFiles(root, "." + format);
    assertTrue(files.size() >= 3, "one file per partition at least: " + files);

    ExactlyOnceCheck clean = ExactlyOnceCheck.of(table, ORDERS, ROWS);
    assertEquals(List.of(), clean.exactlyOnceProblems(), clean.toString());

    for (Reader reader : List.<Reader>of(IndependentReader::rows, NativeFlinkReader::rows)) {
      seesEveryKindOfDamage(table, files.get(0), reader);
    }
  }

  /** A reader of whole-row keys with their counts. */
  private interface Reader {
    Map<String, Integer> rows(TableSpec table) throws Exception;
  }

  private static void seesEveryKindOfDamage(TableSpec table, Path first, Reader reader)
      throws Exception {
    Map<String, Integer> expected = IndependentReader.expected(ORDERS, ROWS);
    IndependentReader.Verdict clean = IndependentReader.compare(expected, reader.rows(table));
    assertEquals(
        0,
        clean.missing + clean.extra,
        "the table as written: " + clean.missingExamples + clean.extraExamples);

    // a hidden copy is not read; a visible copy doubles rows
    Path hidden = first.resolveSibling("." + first.getFileName() + ".inprogress");
    Files.copy(first, hidden);
    assertEquals(0, IndependentReader.compare(expected, reader.rows(table)).extra);
    Files.delete(hidden);
    Path copy = first.resolveSibling("copy-" + first.getFileName());
    Files.copy(first, copy);
    IndependentReader.Verdict doubled = IndependentReader.compare(expected, reader.rows(table));
    assertTrue(
        doubled.extra > 0 && doubled.missing == 0,
        "doubled file not seen: " + doubled.extraExamples);
    Files.delete(copy);

    // a lost file
    byte[] kept = Files.readAllBytes(first);
    Files.delete(first);
    IndependentReader.Verdict lost = IndependentReader.compare(expected, reader.rows(table));
    assertTrue(lost.missing > 0 && lost.extra == 0, "lost file not seen");
    Files.write(first, kept);

    // an altered row: one row too few of the expected ones, one unexpected
    IndependentReader.Verdict altered =
        IndependentReader.compare(IndependentReader.expected(ORDERS, ROWS - 1), reader.rows(table));
    assertEquals(1, altered.extra, "the row beyond the expected ones is extra");
  }
}
