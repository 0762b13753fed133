package dev.filetables.pipelines;

import dev.filetables.io.table.ColumnType;
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
import java.util.stream.Stream;
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

/**
 * Rows a command prints ({@code query}, the SELECTs of {@code sql}): each row becomes a line of
 * display strings written to a temporary directory (the Beam {@code --tempLocation} when set),
 * which the CLI reads back after the run, sorts (by all columns: see {@link CellOrder}) and prints.
 * With a limit N the pipeline itself keeps only the first N rows in that order, so a small sample
 * of a big table stays cheap.
 */
final class QueryResults {
  /**
   * Above this many bytes of results, rows print in arrival order instead of being sorted in
   * memory.
   */
  static final long SORT_IN_MEMORY_LIMIT = 64L << 20;

  /** Largest limit kept by the pipeline's Top (which holds the N rows in memory per worker). */
  private static final long TOP_LIMIT = 100_000;

  private static final Coder<List<String>> CELLS_CODER =
      ListCoder.of(NullableCoder.of(StringUtf8Coder.of()));

  private final Path directory;
  private final List<String> names;
  private final List<ColumnType> types;
  private final Optional<Long> limit;
  private final boolean topInPipeline;

  private QueryResults(
      Path directory, List<String> names, List<ColumnType> types, Optional<Long> limit) {
    this.directory = directory;
    this.names = names;
    this.types = types;
    this.limit = limit;
    this.topInPipeline = limit.isPresent() && limit.get() <= TOP_LIMIT;
  }

  /** Adds the steps that keep {@code rows} for printing (at most {@code limit} of them). */
  static QueryResults collect(PCollection<Row> rows, PipelineOptions options, Optional<Long> limit)
      throws IOException {
    Path directory = Files.createTempDirectory(tempParent(options), "filetables-query-");
    List<ColumnType> types = RowCells.types(rows.getSchema());
    QueryResults results =
        new QueryResults(directory, rows.getSchema().getFieldNames(), types, limit);
    CellOrder order = CellOrder.ascending(types);
    PCollection<List<String>> cells =
        rows.apply("ToCells", ParDo.of(new ToCellsFn(types))).setCoder(CELLS_CODER);
    if (results.topInPipeline) {
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
            TextIO.write().to(directory.resolve("rows").toString()).withSuffix(".json"));
    return results;
  }

  /** After the run: prints the kept rows (header first, for formats that have one). */
  void print(CliContext context, OutputFormat format) throws IOException {
    PrintStream out = context.out();
    CellOrder order = CellOrder.ascending(types);
    String header = format.header(names);
    if (header != null) {
      out.print(header + format.lineSeparator());
    }
    long max = limit.orElse(Long.MAX_VALUE);
    long printed = 0;
    List<Path> files = resultFiles(directory);
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
            out.print(format.record(names, types, CellsLine.decode(line)) + format.lineSeparator());
          }
        }
      }
    }
    out.flush();
  }

  /** Removes the temporary directory. */
  void delete() {
    deleteRecursively(directory);
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
