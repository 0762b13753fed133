package dev.filetables.pipelines;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * {@code run --from <source.sql> --to <sink.sql> [--where ...]}: copies a table into another; a Kafka
 * source table ({@code 'connector' = 'kafka'}) streams into the sink until stopped ({@link
 * KafkaRunCommand}).
 */
final class RunCommand {
  private RunCommand() {}

  static int run(CommandLine commandLine, CliContext context) throws Exception {
    String from = commandLine.requiredOption("from");
    String to = commandLine.requiredOption("to");
    Optional<String> where = commandLine.option("where");
    if (TableFiles.isKafka(from)) {
      if (where.isPresent()) {
        throw new CliException("--where selects partitions of a file table; " + from + " is a Kafka table");
      }
      return KafkaRunCommand.run(from, to, commandLine, context);
    }
    TableSpec source = TableFiles.load(from);
    TableSpec sink = TableFiles.load(to);
    Path sourceRoot = source.options().rootPath().toAbsolutePath().normalize();
    Path sinkRoot = sink.options().rootPath().toAbsolutePath().normalize();
    if (sourceRoot.startsWith(sinkRoot) || sinkRoot.startsWith(sourceRoot)) {
      throw new CliException(
          "source and sink directories overlap (" + sourceRoot + ", " + sinkRoot + "); the copy would read its own output");
    }
    ColumnMatch columns = ColumnMatch.between(source, sink);
    if (!columns.dropped().isEmpty()) {
      context.note(
          "not copying source columns "
              + String.join(", ", columns.dropped())
              + ": the sink definition "
              + to
              + " does not declare them");
    }

    PipelineOptions options =
        RunnerOptions.create(RunnerOptions.effectiveArgs(commandLine, context.presets()));
    Pipeline pipeline = Pipeline.create(options);
    String runId = RowCounter.newRun();
    PCollection<WrittenFile> written =
        pipeline
            .apply(
                "ReadSource",
                where.isPresent()
                    ? FileTableIO.read(source).withPartitionFilter(where.get())
                    : FileTableIO.read(source))
            .apply("MatchSinkColumns", columns)
            .apply("CountRows", RowCounter.of(runId))
            .apply("WriteSink", FileTableIO.write(sink));
    written.apply("Summarize", WriteSummary.count());

    context.note(
        "copying " + source.name() + " (" + sourceRoot + ") to " + sink.name() + " (" + sinkRoot + ") on " + RunnerOptions.describe(options));
    PipelineRun run = PipelineRun.execute(pipeline, context, runId, Optional.of(sinkRoot));
    BadDataSummary.report(run.result, source, context);
    WriteSummary summary = WriteSummary.from(run.result);
    context
        .out()
        .println(
            "wrote "
                + Human.count(summary.rows, "row")
                + " to "
                + Human.count(summary.files, "file")
                + " in "
                + Human.count(summary.partitions, "partition")
                + " ("
                + Human.bytes(summary.bytes)
                + ") under "
                + sinkRoot
                + " in "
                + Human.duration(run.elapsedMillis)
                + " ("
                + Human.rate(summary.rows, run.elapsedMillis)
                + " rows/s)");
    return 0;
  }
}
