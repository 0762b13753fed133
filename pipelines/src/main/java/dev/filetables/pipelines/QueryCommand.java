package dev.filetables.pipelines;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code query <table.sql> [--where ...] [--format jsonl|csv] [--limit N]}: prints a table's rows.
 *
 * <p>The read runs on the chosen runner; each row becomes a line of display strings written to a
 * temporary directory (the Beam {@code --tempLocation} when set), which the CLI reads back, sorts
 * (by all columns: see {@link CellOrder}) and prints. With {@code --limit N} the pipeline itself
 * keeps only the first N rows in that order, so a small sample of a big table stays cheap.
 */
@Command(
    name = "query",
    header = "Prints a table's rows.",
    description = {
      "Prints the table's rows (partition and metadata columns included), sorted by all columns:"
          + " jsonl (default) = one JSON object per line; csv = header + RFC 4180 rows."
    })
final class QueryCommand implements Callable<Integer> {
  @ParentCommand private FileTablesCli cli;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<table.sql>",
      description = "the table's definition")
  private String tableFile;

  @Option(
      names = "--where",
      paramLabel = "<predicate>",
      description = "only partitions matching it, e.g. \"dt='2020-05-20' AND hour='12'\"")
  private String whereText;

  @Option(
      names = "--format",
      paramLabel = "jsonl|csv",
      description = "output format (default: jsonl)")
  private String formatText = "jsonl";

  @Option(
      names = "--limit",
      paramLabel = "<N>",
      description = "at most N rows (the first N in sorted order)")
  private String limitText;

  @Mixin private RunnerArgs runner;

  /** Every other {@code --name=value}: Beam/Flink pipeline options. */
  @Unmatched private List<String> pipelineArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    runner.pipelineArgs("query", pipelineArgs); // usage errors before any work
    return run(cli.context());
  }

  private int run(CliContext context) throws Exception {
    String file = TableFiles.required(tableFile, "query");
    OutputFormat format = OutputFormat.of(formatText);
    Optional<Long> limit = Optional.ofNullable(limitText).map(v -> Counts.parse("limit", v, 0));
    Optional<String> where = Optional.ofNullable(whereText);
    // Options first: they configure the stores a DDL file or table may live on (S3's --endpoint).
    PipelineOptions options =
        RunnerOptions.create(
            RunnerOptions.effectiveArgs(runner, "query", pipelineArgs, context.presets()));
    TableSpec declared = TableFiles.load(file);
    TableSpec table = TableFiles.bounded(declared);
    if (table != declared) {
      context.note("query reads the table once; its source.monitor-interval is not used here");
    }
    TableSpec snapshot = table;
    table = TableFiles.withoutDeadLetters(snapshot);
    if (table != snapshot) {
      context.note(
          "query skips bad records and does not write them to the dead-letter table (run does)");
    }
    Pipeline pipeline = Pipeline.create(options);
    String runId = RowCounter.newRun();
    PCollection<Row> rows =
        pipeline
            .apply(
                "ReadTable",
                where.isPresent()
                    ? FileTableIO.read(table).withPartitionFilter(where.get())
                    : FileTableIO.read(table))
            .apply("CountRows", RowCounter.of(runId));
    QueryResults results = QueryResults.collect(rows, options, limit);
    try {
      PipelineRun run = PipelineRun.execute(pipeline, context, runId, Optional.empty());
      BadDataSummary.report(run.result, table, context);
      results.print(context, format);
      return 0;
    } finally {
      results.delete();
    }
  }
}
