package dev.filetables.pipelines;

import dev.filetables.io.table.Durations;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.sink.WrittenFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.PCollection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code run --from <source.sql> --to <sink.sql> [--where ...]}: copies a table into another; a
 * Kafka source table ({@code 'connector' = 'kafka'}) streams into the sink until stopped ({@link
 * KafkaRunCommand}).
 */
@Command(
    name = "run",
    header = "Copies a table into another: files, a Kafka topic or a watched directory.",
    description = {
      "Copies every row of the source table into the sink table. Sink columns are taken from source columns"
          + " of the same name (metadata columns included); source columns the sink does not declare are not"
          + " copied.",
      "A Kafka source ('connector' = 'kafka') streams into the sink until stopped, with checkpoints (default"
          + " every 10 s on Flink; --checkpointingInterval=<ms>). A watched source ('source.monitor-interval')"
          + " copies each new file until stopped; on Flink also --finishBundleBeforeCheckpointing=true (its"
          + " watermark reaches the sink).",
      "A streaming run on Flink keeps its state (checkpoints, its write's id) in a directory, by default"
          + " ~/.filetables/runs/<sink>-<hash>: the same command started again after Ctrl-C, kill -9,"
          + " --stop-after or a crash continues from the last completed checkpoint, exactly once."
          + " --fresh starts over; --state-dir chooses the directory."
    })
final class RunCommand implements Callable<Integer> {
  /**
   * Checkpoint interval of a watched run on Flink unless given: sink files appear at checkpoints.
   */
  static final long DEFAULT_WATCH_CHECKPOINT_MILLIS = 10_000;

  @ParentCommand private FileTablesCli cli;

  @Option(
      names = "--from",
      paramLabel = "<source.sql>",
      description = "the source table's definition")
  private String fromFile;

  @Option(names = "--to", paramLabel = "<sink.sql>", description = "the sink table's definition")
  private String toFile;

  @Option(
      names = "--where",
      paramLabel = "<predicate>",
      description = "only source partitions matching it")
  private String whereText;

  @Option(
      names = "--stop-after",
      paramLabel = "<duration>",
      description = "stop a watched run after this long, e.g. \"10 min\"")
  private String stopAfterText;

  @Mixin private ResumeArgs resume;

  @Mixin private RunnerArgs runner;

  /** Every other {@code --name=value}: Beam/Flink pipeline options. */
  @Unmatched private List<String> pipelineArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    runner.pipelineArgs("run", pipelineArgs); // usage errors before any work
    return run(cli.context());
  }

  private static String required(String value, String option) {
    if (value == null) {
      throw CliException.usage("'run' needs --" + option + " <value>");
    }
    return value;
  }

  /**
   * A watched source makes the pipeline unbounded: on Flink the streaming sink publishes files at
   * checkpoints, so checkpointing must be on (10 s unless {@code --checkpointingInterval} is
   * given), and the watcher's watermark reaches the sink (partition-time commits, event-time
   * windows) only when each checkpoint closes the bundle: Beam 2.62's Flink runner emits an
   * operator's watermark only with no bundle open, and the polling watcher always has one ({@code
   * WatchedRead}). So {@code --finishBundleBeforeCheckpointing=true} unless given (the streaming
   * sink closes its segments in {@code @FinishBundle}, which then runs right before each snapshot;
   * the failure suite runs with it).
   */
  static List<String> withStreamingDefaults(List<String> args) {
    Map<String, String> merged = RunnerOptions.merge(args, List.of());
    String runner = merged.containsKey("runner") ? RunnerOptions.valueOf(merged.get("runner")) : "";
    if (RunnerOptions.FLINK.equals(runner)) {
      merged.putIfAbsent(
          "checkpointingInterval", "--checkpointingInterval=" + DEFAULT_WATCH_CHECKPOINT_MILLIS);
      merged.putIfAbsent("streaming", "--streaming=true");
      merged.putIfAbsent(
          "finishBundleBeforeCheckpointing", "--finishBundleBeforeCheckpointing=true");
      // detached: run() returns at once, so the CLI can wait with a limit (--stop-after) and cancel
      merged.putIfAbsent("attachedMode", "--attachedMode=false");
    }
    return new ArrayList<>(merged.values());
  }

  private static Duration duration(String text) {
    try {
      return Durations.parse(text);
    } catch (RuntimeException e) {
      throw CliException.usage("invalid --stop-after '" + text + "': " + e.getMessage());
    }
  }

  /**
   * The copy: read (filtered by {@code where}), match the sink's columns, count, write; a streaming
   * write with {@code writeUuid} (null for a bounded copy, whose id is its own).
   */
  private static Pipeline pipeline(
      PipelineOptions options,
      TableSpec source,
      TableSpec sink,
      Optional<String> where,
      ColumnMatch columns,
      String runId,
      String writeUuid) {
    Pipeline pipeline = Pipeline.create(options);
    FileTableIO.Write write = FileTableIO.write(sink);
    if (writeUuid != null) {
      write = write.withWriteUuid(writeUuid);
    }
    PCollection<WrittenFile> written =
        pipeline
            .apply(
                "ReadSource",
                where.isPresent()
                    ? FileTableIO.read(source).withPartitionFilter(where.get())
                    : FileTableIO.read(source))
            .apply("MatchSinkColumns", columns)
            .apply("CountRows", RowCounter.of(runId))
            .apply("WriteSink", write);
    written.apply("Summarize", WriteSummary.count());
    return pipeline;
  }

  private int run(CliContext context) throws Exception {
    String from = required(fromFile, "from");
    String to = required(toFile, "to");
    Optional<String> where = Optional.ofNullable(whereText);
    // The stores a DDL file or table may live on take their settings (S3's --endpoint) from the
    // pipeline options: set them before anything is read; the job's own options follow below.
    RunnerOptions.create(
        RunnerOptions.effectiveArgs(runner, "run", pipelineArgs, context.presets()));
    if (TableFiles.isKafka(from)) {
      if (where.isPresent()) {
        throw new CliException(
            "--where selects partitions of a file table; " + from + " is a Kafka table");
      }
      Optional<Duration> stopAfter = Optional.ofNullable(stopAfterText).map(RunCommand::duration);
      return KafkaRunCommand.run(from, to, runner, pipelineArgs, resume, stopAfter, context);
    }
    TableSpec source = TableFiles.load(from);
    TableSpec sink = TableFiles.load(to);
    Path sourceRoot = source.options().rootPath().toAbsolutePath().normalize();
    Path sinkRoot = sink.options().rootPath().toAbsolutePath().normalize();
    if (sourceRoot.startsWith(sinkRoot) || sinkRoot.startsWith(sourceRoot)) {
      throw new CliException(
          "source and sink directories overlap ("
              + sourceRoot
              + ", "
              + sinkRoot
              + "); the copy would read its own output");
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

    Optional<Duration> watchInterval = source.options().sourceMonitorInterval();
    Optional<Duration> stopAfter = Optional.ofNullable(stopAfterText).map(RunCommand::duration);
    List<String> args = RunnerOptions.effectiveArgs(runner, "run", pipelineArgs, context.presets());
    if (watchInterval.isPresent()) {
      args = withStreamingDefaults(args);
    }
    PipelineOptions options = RunnerOptions.create(args);
    String runId = RowCounter.newRun();
    boolean resumable = watchInterval.isPresent() && ResumableRun.supports(options);
    resume.requireResumable(resumable, "a watched or Kafka source on Flink");
    if (watchInterval.isEmpty()
        && RunnerOptions.FLINK.equals(options.getRunner().getSimpleName())
        && options.as(FlinkPipelineOptions.class).getSavepointPath() != null) {
      throw CliException.usage(
          "--savepointPath restores a streaming run; a copy of " + source.name() + " is bounded");
    }

    if (watchInterval.isPresent()) {
      context.note(
          "watching "
              + sourceRoot
              + " every "
              + Human.duration(watchInterval.get().toMillis())
              + " and copying each new file to "
              + sink.name()
              + " ("
              + sinkRoot
              + ") on "
              + RunnerOptions.describe(options)
              + stopAfter
                  .map(d -> " for " + Human.duration(d.toMillis()))
                  .orElse(" until stopped (Ctrl-C)"));
    }
    if (resumable) {
      ResumableRun.Outcome outcome =
          ResumableRun.run(
              new ResumableRun.Request(
                  context,
                  options.as(FlinkPipelineOptions.class),
                  resume.stateDir(
                      sink.name(),
                      RunDefinition.normalizedPath(sinkRoot.toString()),
                      "files " + RunDefinition.normalizedPath(sourceRoot.toString())),
                  resume.fresh(),
                  RunDefinition.of(
                      from,
                      to,
                      where,
                      Optional.ofNullable(options.as(FlinkPipelineOptions.class).getParallelism())
                          .filter(p -> p > 0)),
                  sink,
                  writeUuid -> pipeline(options, source, sink, where, columns, runId, writeUuid),
                  stopAfter,
                  runId,
                  true));
      context
          .out()
          .println(
              (outcome.end == ResumableRun.End.FINISHED ? "finished after " : "stopped after ")
                  + Human.duration(outcome.elapsedMillis)
                  + "; files published so far are under "
                  + sinkRoot
                  + (outcome.end == ResumableRun.End.FINISHED
                      ? ""
                      : "; start the same command again to resume"));
      return 0;
    }
    if (watchInterval.isPresent()) {
      // the Direct runner: nothing to resume from
      String writeUuid = UUID.randomUUID().toString();
      Pipeline pipeline = pipeline(options, source, sink, where, columns, runId, writeUuid);
      PipelineRun run =
          PipelineRun.execute(pipeline, context, runId, Optional.of(sinkRoot), stopAfter);
      if (run.finishedByItself) {
        PublishLeftoversCommand.afterJob(sink, writeUuid, PipelineResult.State.DONE, context.out());
      }
      context
          .out()
          .println(
              "stopped after "
                  + Human.duration(run.elapsedMillis)
                  + "; files published so far are under "
                  + sinkRoot);
      return 0;
    }
    Pipeline pipeline = pipeline(options, source, sink, where, columns, runId, null);
    context.note(
        "copying "
            + source.name()
            + " ("
            + sourceRoot
            + ") to "
            + sink.name()
            + " ("
            + sinkRoot
            + ") on "
            + RunnerOptions.describe(options));
    PipelineRun run = PipelineRun.execute(pipeline, context, runId, Optional.of(sinkRoot));
    BadDataSummary.report(run.result, source, context);
    WriteSummary summary = WriteSummary.from(run.result);
    context
        .out()
        .println(
            "wrote "
                + summary.counts()
                + " under "
                + sinkRoot
                + " in "
                + Human.duration(run.elapsedMillis)
                + " ("
                + Human.rate(summary.rows, run.elapsedMillis)
                + " rows/s)");
    return 0;
  }
}
