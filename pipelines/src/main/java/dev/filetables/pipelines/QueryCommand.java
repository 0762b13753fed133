package dev.filetables.pipelines;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
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
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Top;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
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
  /**
   * Above this many bytes of results, rows print in arrival order instead of being sorted in
   * memory.
   */
  static final long SORT_IN_MEMORY_LIMIT = 64L << 20;

  /** Largest --limit kept by the pipeline's Top (which holds the N rows in memory per worker). */
  private static final long TOP_LIMIT = 100_000;

  private static final Coder<List<String>> CELLS_CODER =
      ListCoder.of(NullableCoder.of(StringUtf8Coder.of()));

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
    List<String> names = table.schema().getFieldNames();
    List<ColumnType> types = RowCells.types(table.schema());
    PrintStream out = context.out();

    Path results = Files.createTempDirectory(tempParent(options), "filetables-query-");
    try {
      Pipeline pipeline = Pipeline.create(options);
      String runId = RowCounter.newRun();
      CellOrder order = CellOrder.ascending(types);
      PCollection<List<String>> cells =
          pipeline
              .apply(
                  "ReadTable",
                  where.isPresent()
                      ? FileTableIO.read(table).withPartitionFilter(where.get())
                      : FileTableIO.read(table))
              .apply("CountRows", RowCounter.of(runId))
              .apply("ToCells", ParDo.of(new ToCellsFn(types)))
              .setCoder(CELLS_CODER);
      boolean topInPipeline = limit.isPresent() && limit.get() <= TOP_LIMIT;
      if (topInPipeline) {
        cells =
            cells
                .apply("FirstRows", Top.of(limit.get().intValue(), order.reverse()))
                .apply("Unnest", Flatten.iterables())
                .setCoder(CELLS_CODER);
      }
      cells
          .apply("Encode", MapElements.into(TypeDescriptors.strings()).via(CellsLine::encode))
          .apply(
              "WriteResults",
              TextIO.write().to(results.resolve("rows").toString()).withSuffix(".json"));
      PipelineRun run = PipelineRun.execute(pipeline, context, runId, Optional.empty());
      BadDataSummary.report(run.result, table, context);

      String header = format.header(names);
      if (header != null) {
        out.print(header + format.lineSeparator());
      }
      long max = limit.orElse(Long.MAX_VALUE);
      long printed = 0;
      List<Path> files = resultFiles(results);
      if (topInPipeline || totalSize(files) <= SORT_IN_MEMORY_LIMIT) {
        List<List<String>> rows = new ArrayList<>();
        for (Path f : files) {
          try (Stream<String> lines = Files.lines(f, StandardCharsets.UTF_8)) {
            lines.forEach(line -> rows.add(CellsLine.decode(line)));
          }
        }
        rows.sort(order);
        for (List<String> row : rows) {
          if (printed++ >= max || out.checkError()) {
            break;
          }
          out.print(format.record(names, types, row) + format.lineSeparator());
        }
      } else {
        context.note(
            "printing rows unsorted: the result is too large to sort in memory (use --limit N for the first N rows in order)");
        outer:
        for (Path f : files) {
          try (BufferedReader reader = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
              if (printed++ >= max || out.checkError()) {
                break outer;
              }
              out.print(
                  format.record(names, types, CellsLine.decode(line)) + format.lineSeparator());
            }
          }
        }
      }
      out.flush();
      return 0;
    } finally {
      deleteRecursively(results);
    }
  }

  /**
   * Where result files go: Beam's {@code --tempLocation} if it is a local directory, else
   * java.io.tmpdir.
   */
  private static Path tempParent(PipelineOptions options) throws IOException {
    String location = options.getTempLocation();
    if (location == null || location.isBlank()) {
      return Path.of(System.getProperty("java.io.tmpdir"));
    }
    Path parent =
        location.startsWith("file:") ? Path.of(java.net.URI.create(location)) : Path.of(location);
    Files.createDirectories(parent);
    return parent;
  }

  private static List<Path> resultFiles(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "rows*")) {
      for (Path entry : entries) {
        if (Files.isRegularFile(entry)) {
          files.add(entry);
        }
      }
    }
    files.sort(Comparator.naturalOrder());
    return files;
  }

  private static long totalSize(List<Path> files) throws IOException {
    long total = 0;
    for (Path f : files) {
      total += Files.size(f);
    }
    return total;
  }

  private static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a leftover temporary directory is not worth failing a query for
    }
  }

  /** Row → display cells. */
  private static final class ToCellsFn extends DoFn<Row, List<String>> {
    private static final long serialVersionUID = 1L;
    private final List<ColumnType> types;

    ToCellsFn(List<ColumnType> types) {
      this.types = List.copyOf(types);
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<List<String>> out) {
      out.output(RowCells.of(row, types));
    }
  }
}
