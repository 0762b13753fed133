package dev.filetables.pipelines;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code demo [--rows N] [--output DIR] [--seed S]}: generates {@link OrdersDataset orders} in
 * parallel and writes them as a dt/hour-partitioned Parquet table, then prints what was written.
 */
@Command(
    name = "demo",
    header = "Writes the demo orders table (or streams it through Kafka with --kafka).",
    description = {
      "Generates N synthetic orders (default 1,200,000, over two days) and writes them as a dt/hour-partitioned"
          + " Parquet table DIR/orders (default ./demo-output/orders, replaced if it is a previous demo table),"
          + " with its definition in DIR/orders.sql; prints a summary.",
      "With --kafka: starts a local Kafka broker, produces N orders (default 100,000) as JSON and streams them"
          + " into the hourly Parquet table DIR/orders_from_kafka with partition-time commits and _SUCCESS files"
          + " on an embedded Flink cluster; prints what it committed and stops."
    })
final class DemoCommand implements Callable<Integer> {
  static final long DEFAULT_ROWS = 1_200_000;
  static final String DEFAULT_OUTPUT = "demo-output";
  static final long DEFAULT_SEED = 42;

  @ParentCommand private FileTablesCli cli;

  @Option(
      names = "--rows",
      paramLabel = "<N>",
      description = "how many orders, e.g. 200k or 1.2m (default: 1,200,000; with --kafka 100,000)")
  private String rowsText;

  @Option(
      names = "--output",
      paramLabel = "<dir>",
      description = "where the table and its definition go (default: demo-output)")
  private String outputText = DEFAULT_OUTPUT;

  @Option(
      names = "--seed",
      paramLabel = "<S>",
      description = "seed of the generated data (default: 42)")
  private String seedText;

  @Option(
      names = "--kafka",
      description = "through a local Kafka broker into an hourly table (see above)")
  private boolean kafka;

  @Mixin private RunnerArgs runner;

  /** Every other {@code --name=value}: Beam/Flink pipeline options. */
  @Unmatched private List<String> pipelineArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    runner.pipelineArgs("demo", pipelineArgs); // usage errors before any work
    long seed = seedText == null ? DEFAULT_SEED : Counts.parse("seed", seedText, Long.MIN_VALUE);
    Path output = TablePaths.of(outputText).toAbsolutePath().normalize();
    if (kafka) {
      if (!runner.none() || !pipelineArgs.isEmpty()) {
        throw new CliException(
            "demo --kafka runs on its own embedded Flink cluster; it takes no runner options");
      }
      long rows = rowsText == null ? KafkaDemo.DEFAULT_ROWS : Counts.parse("rows", rowsText, 1);
      return KafkaDemo.run(rows, seed, output, cli.context());
    }
    long rows = rowsText == null ? DEFAULT_ROWS : Counts.parse("rows", rowsText, 1);
    return run(rows, seed, output, cli.context());
  }

  private int run(long rows, long seed, Path output, CliContext context) throws Exception {
    Path tableDir = output.resolve(OrdersDataset.TABLE_NAME);
    Path ddlFile = output.resolve(OrdersDataset.TABLE_NAME + ".sql");

    // Options first: a bad runner option should fail before anything is deleted.
    PipelineOptions options =
        RunnerOptions.create(
            RunnerOptions.effectiveArgs(runner, "demo", pipelineArgs, context.presets()));

    clearPreviousDemo(tableDir);
    Files.createDirectories(output);
    Files.writeString(ddlFile, OrdersDataset.ddl(tableDir.toString()), StandardCharsets.UTF_8);
    TableSpec table = TableFiles.load(ddlFile.toString());
    Schema schema = table.physicalSchema();
    if (!schema.getFieldNames().equals(OrdersDataset.SCHEMA.getFieldNames())
        || !schema.equivalent(OrdersDataset.SCHEMA)) {
      throw new IllegalStateException(
          "the demo DDL parses to " + schema + ", not the generator's " + OrdersDataset.SCHEMA);
    }

    Pipeline pipeline = Pipeline.create(options);
    String runId = RowCounter.newRun();
    pipeline
        .apply("OrderNumbers", GenerateSequence.from(0).to(rows))
        .apply("GenerateOrders", ParDo.of(new GenerateOrdersFn(rows, seed, schema)))
        .setRowSchema(schema)
        .apply("CountRows", RowCounter.of(runId))
        .apply("WriteOrders", FileTableIO.write(table))
        .apply("Summarize", WriteSummary.count());

    PrintStream err = context.err();
    err.println(
        "filetables demo: writing "
            + Human.count(rows)
            + " orders to "
            + tableDir
            + " on "
            + RunnerOptions.describe(options)
            + " ...");
    PipelineRun run = PipelineRun.execute(pipeline, context, runId, Optional.of(tableDir));
    WriteSummary summary = WriteSummary.from(run.result);
    if (summary.rows != rows) {
      context.note(
          "warning: generated "
              + Human.count(rows)
              + " rows but the sink reports "
              + Human.count(summary.rows)
              + " written");
    }

    PrintStream out = context.out();
    Path cwd = Path.of("").toAbsolutePath();
    String ddlShown =
        ddlFile.startsWith(cwd) ? cwd.relativize(ddlFile).toString() : ddlFile.toString();
    out.println("FileTables demo: orders table written");
    out.println("  table       " + tableDir + "  (Parquet, PARTITIONED BY dt, hour)");
    out.println("  runner      " + RunnerOptions.describe(options));
    out.println("  partitions  " + Human.count(summary.partitions));
    out.println("  files       " + Human.count(summary.files));
    out.println("  rows        " + Human.count(summary.rows));
    out.println(
        "  bytes       " + Human.count(summary.bytes) + " (" + Human.bytes(summary.bytes) + ")");
    out.println("  elapsed     " + Human.duration(run.elapsedMillis));
    out.println("  rows/s      " + Human.rate(summary.rows, run.elapsedMillis));
    out.println("  table DDL   " + ddlFile);
    out.println("Query it next, e.g.:");
    out.println(
        "  "
            + System.getProperty("filetables.launcher", "bin/filetables")
            + " query "
            + ddlShown
            + " --where \"dt='2020-05-20' AND hour='12'\" --limit 5");
    return 0;
  }

  /**
   * Deletes a previous demo table, but only one that looks like ours: nothing but {@code dt=...}
   * directories and hidden/underscore entries. Anything else is left alone and reported.
   */
  static void clearPreviousDemo(Path tableDir) throws IOException {
    if (!Files.exists(tableDir)) {
      return;
    }
    if (!Files.isDirectory(tableDir)) {
      throw new CliException(
          "refusing to overwrite "
              + tableDir
              + ": it is a file, not a demo table (choose another --output)");
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(tableDir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        boolean partitionDir = Files.isDirectory(entry) && name.startsWith("dt=");
        boolean hidden = name.startsWith(".") || name.startsWith("_");
        if (!partitionDir && !hidden) {
          throw new CliException(
              "refusing to delete "
                  + tableDir
                  + ": it holds '"
                  + name
                  + "', so it does not look like a demo table (remove it yourself or choose another --output)");
        }
      }
    }
    try (Stream<Path> paths = Files.walk(tableDir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }

  /** Sequence number → order row (rows in the table's own schema object). */
  static final class GenerateOrdersFn extends DoFn<Long, Row> {
    private static final long serialVersionUID = 1L;
    private final long total;
    private final long seed;
    private final Schema schema;

    GenerateOrdersFn(long total, long seed, Schema schema) {
      this.total = total;
      this.seed = seed;
      this.schema = schema;
    }

    @ProcessElement
    public void process(@Element Long index, OutputReceiver<Row> out) {
      Row order = OrdersDataset.order(index, total, seed);
      out.output(Row.withSchema(schema).attachValues(order.getValues()));
    }
  }
}
