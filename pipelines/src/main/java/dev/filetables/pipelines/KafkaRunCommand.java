package dev.filetables.pipelines;

import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.kafka.KafkaTableSource;
import dev.filetables.transforms.source.DeadLetterTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.StreamingOptions;

/**
 * {@code run --from <kafka.sql> --to <table.sql>}: streams a Kafka table into a file table until
 * the job is stopped (Ctrl-C, or cancel / stop-with-savepoint on a cluster). Sink columns are
 * matched by name as for file sources; partition columns the sink derives ({@code
 * sink.partition-derive.time-column}) need no source column.
 *
 * <p>On the Flink runner checkpointing is required (files become visible and offsets are committed
 * with checkpoints): without {@code --checkpointingInterval} it is set to {@value
 * #DEFAULT_CHECKPOINT_MILLIS} ms. On Flink the run resumes from its last checkpoint when the same
 * command starts again ({@link ResumableRun}); with {@code --attachedMode=false} on a cluster the
 * command returns once the job is submitted.
 */
final class KafkaRunCommand {
  static final long DEFAULT_CHECKPOINT_MILLIS = 10_000;

  private KafkaRunCommand() {}

  static int run(
      String from,
      String to,
      RunnerArgs runner,
      List<String> pipelineArgs,
      ResumeArgs resume,
      Optional<Duration> stopAfter,
      CliContext context)
      throws Exception {
    KafkaTableSpec source = TableFiles.loadKafka(from);
    TableSpec sink = TableFiles.load(to);
    ColumnMatch columns = ColumnMatch.between(source.name(), source.schema(), sink);
    if (!columns.dropped().isEmpty()) {
      context.note(
          "not copying source columns "
              + String.join(", ", columns.dropped())
              + ": the sink definition "
              + to
              + " does not declare them");
    }

    List<String> args =
        new ArrayList<>(
            RunnerOptions.effectiveArgs(runner, "run", pipelineArgs, context.presets()));
    args.add("--streaming=true");
    boolean flink =
        args.stream()
            .anyMatch(
                a ->
                    a.equals("--runner=" + RunnerOptions.FLINK)
                        || a.equals("--runner=org.apache.beam.runners.flink.FlinkRunner"));
    if (flink && args.stream().noneMatch(a -> a.startsWith("--checkpointingInterval="))) {
      args.add("--checkpointingInterval=" + DEFAULT_CHECKPOINT_MILLIS);
      context.note(
          "checkpointing every "
              + DEFAULT_CHECKPOINT_MILLIS / 1000
              + " s (set --checkpointingInterval=<ms> to change)");
    }
    // the user asked only to submit (a cluster keeps the job), unless the CLI stays with it
    boolean submitOnly = args.contains("--attachedMode=false");
    PipelineOptions options = RunnerOptions.create(args);
    options.as(StreamingOptions.class).setStreaming(true);
    boolean resumable = ResumableRun.supports(options);
    resume.requireResumable(resumable, "a watched or Kafka source on Flink");

    source.deadLetterPath().ifPresent(root -> writeDeadLetterDdl(source, root, context));

    Path sinkRoot = sink.options().rootPath().toAbsolutePath().normalize();
    context.note(
        "streaming Kafka topic "
            + String.join(";", source.topics())
            + " at "
            + source.bootstrapServers()
            + " ("
            + source.startupMode().value()
            + ", group "
            + source.groupId().orElse("none: offsets not committed")
            + ") into "
            + sink.name()
            + " ("
            + sinkRoot
            + ") on "
            + RunnerOptions.describe(options)
            + stopAfter
                .map(d -> " for " + Human.duration(d.toMillis()))
                .orElse("; it runs until stopped (Ctrl-C)"));
    if (resumable) {
      FlinkPipelineOptions flinkOptions = options.as(FlinkPipelineOptions.class);
      boolean embedded = RunnerOptions.LOCAL_MASTER.equals(flinkOptions.getFlinkMaster());
      ResumableRun.Outcome outcome =
          ResumableRun.run(
              new ResumableRun.Request(
                  context,
                  flinkOptions,
                  resume.stateDir(
                      sink.name(),
                      RunDefinition.normalizedPath(sinkRoot.toString()),
                      "kafka " + String.join(";", source.topics())),
                  resume.fresh(),
                  RunDefinition.of(
                      from,
                      to,
                      Optional.empty(),
                      Optional.ofNullable(flinkOptions.getParallelism()).filter(p -> p > 0)),
                  sink,
                  writeUuid -> pipeline(options, source, sink, columns, writeUuid),
                  stopAfter,
                  RowCounter.newRun(),
                  embedded || !submitOnly));
      if (outcome.end == ResumableRun.End.SUBMITTED) {
        context
            .out()
            .println(
                "submitted the Kafka job "
                    + outcome.jobId
                    + " to "
                    + flinkOptions.getFlinkMaster()
                    + " (detached); watch and stop it with Flink's REST API or web UI; the same"
                    + " command resumes it from its latest checkpoint");
        return 0;
      }
      context
          .out()
          .println(
              "the Kafka job "
                  + (outcome.end == ResumableRun.End.FINISHED ? "finished" : "stopped")
                  + " after "
                  + Human.duration(outcome.elapsedMillis)
                  + (outcome.end == ResumableRun.End.FINISHED
                      ? ""
                      : "; start the same command again to resume"));
      return 0;
    }
    // the Direct runner: nothing to resume from
    String writeUuid = UUID.randomUUID().toString(); // known here: the post-job publish needs it
    String runId = RowCounter.newRun();
    PipelineRun run =
        PipelineRun.execute(
            pipeline(options, source, sink, columns, writeUuid),
            context,
            runId,
            Optional.of(sinkRoot),
            stopAfter);
    if (run.finishedByItself) {
      PublishLeftoversCommand.afterJob(sink, writeUuid, PipelineResult.State.DONE, context.out());
    }
    context
        .out()
        .println(
            "the Kafka job "
                + (run.finishedByItself ? "ended" : "stopped")
                + " after "
                + Human.duration(run.elapsedMillis));
    return 0;
  }

  private static Pipeline pipeline(
      PipelineOptions options,
      KafkaTableSpec source,
      TableSpec sink,
      ColumnMatch columns,
      String writeUuid) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("ReadKafka " + source.name(), KafkaTableSource.of(source))
        .apply("MatchSinkColumns", columns)
        .apply("WriteSink", FileTableIO.write(sink).withWriteUuid(writeUuid));
    return pipeline;
  }

  /**
   * A streaming run never ends on its own: the dead-letter table's DDL is written before it starts.
   */
  private static void writeDeadLetterDdl(KafkaTableSpec source, Path root, CliContext context) {
    Path ddl = root.resolve(BadDataSummary.DDL_FILE);
    try {
      Files.createDirectories(root);
      Files.writeString(ddl, DeadLetterTable.ddlOf(DeadLetterTable.forSource(source.name(), root)));
      context.note(
          "bad records of "
              + source.name()
              + " go to the dead-letter table "
              + root
              + "; query it with: bin/filetables query "
              + ddl);
    } catch (IOException e) {
      context.note("could not write " + ddl + ": " + e.getMessage());
    }
  }
}
