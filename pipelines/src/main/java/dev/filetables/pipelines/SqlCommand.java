package dev.filetables.pipelines;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.sql.InsertJob;
import dev.filetables.pipelines.sql.SelectJob;
import dev.filetables.pipelines.sql.SqlJob;
import dev.filetables.pipelines.sql.SqlScript;
import dev.filetables.pipelines.sql.SqlScriptException;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code sql <script.sql>}: runs a Flink SQL script on Beam SQL ({@link SqlScript}); its jobs run
 * one after the other on the chosen runner: consecutive INSERTs as one job, each SELECT as one,
 * printed as {@code query} prints.
 */
@Command(
    name = "sql",
    header = "Runs a Flink SQL script: CREATE TABLE, SET, INSERT INTO ... SELECT, SELECT.",
    description = {
      "Runs the script's statements on Beam SQL with Flink's time functions and session time zone"
          + " (SET 'table.local-time-zone' = '...'; default: the JVM's zone). Consecutive INSERT"
          + " statements run as one job; a SELECT prints its rows as 'query' does (sorted).",
      "A job that reads a watched directory or a Kafka table is a streaming job: it runs until"
          + " stopped (Ctrl-C, --stop-after), with the same runner defaults as 'run'."
    })
final class SqlCommand implements Callable<Integer> {
  @ParentCommand private FileTablesCli cli;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<script.sql>",
      description = "the SQL script")
  private String scriptFile;

  @Option(
      names = "--format",
      paramLabel = "jsonl|csv",
      description = "how SELECT rows print (default: jsonl)")
  private String formatText = "jsonl";

  @Option(
      names = "--stop-after",
      paramLabel = "<duration>",
      description = "stop a streaming job after this long, e.g. \"10 min\"")
  private String stopAfterText;

  @Mixin private RunnerArgs runner;

  /** Every other {@code --name=value}: Beam/Flink pipeline options. */
  @Unmatched private List<String> pipelineArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    runner.pipelineArgs("sql", pipelineArgs); // usage errors before any work
    CliContext context = cli.context();
    if (scriptFile == null) {
      throw CliException.usage("'sql' needs a SQL script file");
    }
    OutputFormat format = OutputFormat.of(formatText);
    Optional<Duration> stopAfter =
        Optional.ofNullable(stopAfterText).map(SqlCommand::stopAfterDuration);
    List<String> args = RunnerOptions.effectiveArgs(runner, "sql", pipelineArgs, context.presets());
    RunnerOptions.create(args); // configures the stores a table may live on, before DDL is read
    Path file = Path.of(scriptFile);
    if (!Files.isRegularFile(file)) {
      throw new CliException("SQL script not found: " + scriptFile);
    }
    SqlScript script;
    try {
      script = SqlScript.load(file);
    } catch (SqlScriptException e) {
      throw new CliException(e.getMessage(), e);
    }
    for (SqlJob job : script.jobs()) {
      if (job instanceof InsertJob) {
        insert((InsertJob) job, args, stopAfter, context);
      } else {
        select((SelectJob) job, args, format, context);
      }
    }
    return 0;
  }

  private static Duration stopAfterDuration(String text) {
    try {
      return dev.filetables.io.table.Durations.parse(text);
    } catch (RuntimeException e) {
      throw CliException.usage("invalid --stop-after '" + text + "': " + e.getMessage());
    }
  }

  private static void insert(
      InsertJob job, List<String> args, Optional<Duration> stopAfter, CliContext context)
      throws Exception {
    boolean streaming = job.unbounded();
    PipelineOptions options =
        RunnerOptions.create(streaming ? RunCommand.withStreamingDefaults(args) : args);
    List<TableSpec> sinks = job.sinks();
    List<String> writeUuids = new ArrayList<>();
    for (int i = 0; i < sinks.size(); i++) {
      writeUuids.add(streaming ? UUID.randomUUID().toString() : null);
    }
    Pipeline pipeline = Pipeline.create(options);
    List<PCollection<WrittenFile>> written;
    try {
      written = job.expand(pipeline, writeUuids::get);
    } catch (SqlScriptException e) {
      throw new CliException(e.getMessage(), e);
    }
    PCollectionList.of(written)
        .apply("AllWrittenFiles", Flatten.pCollections())
        .apply("Summarize", WriteSummary.count());
    context.note(
        "running "
            + job.describe()
            + (streaming ? " (streaming)" : "")
            + " on "
            + RunnerOptions.describe(options));
    String runId = RowCounter.newRun();
    PipelineRun run =
        PipelineRun.execute(
            pipeline, context, runId, Optional.empty(), streaming ? stopAfter : Optional.empty());
    if (streaming && run.finishedByItself) {
      for (int i = 0; i < sinks.size(); i++) {
        PublishLeftoversCommand.afterJob(
            sinks.get(i), writeUuids.get(i), PipelineResult.State.DONE, context.out());
      }
    }
    WriteSummary summary = WriteSummary.from(run.result);
    context
        .out()
        .println(
            job.describe()
                + ": wrote "
                + summary.counts()
                + " in "
                + Human.duration(run.elapsedMillis));
  }

  private static void select(
      SelectJob job, List<String> args, OutputFormat format, CliContext context) throws Exception {
    PipelineOptions options = RunnerOptions.create(args);
    Pipeline pipeline = Pipeline.create(options);
    QueryResults results;
    try {
      results = QueryResults.collect(job.expand(pipeline), options, Optional.empty());
    } catch (SqlScriptException e) {
      throw new CliException(e.getMessage(), e);
    }
    try {
      PipelineRun.execute(pipeline, context, RowCounter.newRun(), Optional.empty());
      results.print(context, format);
    } finally {
      results.delete();
    }
  }
}
