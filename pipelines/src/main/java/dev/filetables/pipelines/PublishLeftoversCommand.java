package dev.filetables.pipelines;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableMaintenance;
import dev.filetables.transforms.PublishedLeftovers;
import dev.filetables.transforms.sink.publish.EndOfInputIntents.RecoveredPartition;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.PipelineResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code publish-leftovers <table.sql> [--write-uuid <uuid>] [--dry-run]}: the post-job publish of
 * a streaming write ({@link FileTableMaintenance#publishLeftovers}) for a job that has ended; and
 * {@link #afterJob}, which every command that runs a streaming write and waits for it calls once
 * the job is {@code DONE}.
 */
@Command(
    name = "publish-leftovers",
    header = "Publishes what a finished streaming write left hidden.",
    description = {
      "After a streaming write job has ended for good (never while it runs or may still be restored from a"
          + " savepoint taken before its input ended): publishes the files the end of its finite input left"
          + " hidden (end-of-input intents whose final-checkpoint publish did not run), deletes hidden files of"
          + " aborted attempts, and runs the commit policies of those partitions. run, demo --kafka and job"
          + " orders-stream do this themselves after their job is DONE."
    })
final class PublishLeftoversCommand implements Callable<Integer> {
  @ParentCommand private FileTablesCli cli;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "<table.sql>",
      description = "the table's definition")
  private String tableFile;

  @Option(
      names = "--write-uuid",
      paramLabel = "<uuid>",
      description = "only this write (default: every write with intents)")
  private String writeUuidText;

  @Option(names = "--dry-run", description = "only report what would be published")
  private boolean dryRun;

  /** Store settings such as {@code --endpoint=<url> --awsRegion=<region>} for S3 tables. */
  @Unmatched private List<String> storeArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    RunnerOptions.create(storeArgs);
    return run(cli.context());
  }

  private int run(CliContext context) throws Exception {
    TableSpec table = TableFiles.load(TableFiles.required(tableFile, "publish-leftovers"));
    Optional<String> writeUuid = Optional.ofNullable(writeUuidText);
    // a real run also checks that nothing of the write is left hidden (and fails naming it if so)
    PublishedLeftovers result =
        dryRun
            ? FileTableMaintenance.publishLeftovers(table, writeUuid.orElse(null), true)
            : FileTableMaintenance.finishWrite(table, writeUuid.orElse(null));
    PrintStream out = context.out();
    for (RecoveredPartition partition : result.partitions()) {
      out.println("  write " + partition.writeUuid() + ", " + partition);
    }
    out.println(result.summary());
    return 0;
  }

  /**
   * After a streaming write job ended: publishes what the end of its input left hidden (nothing,
   * normally), prints one line if there was anything, and fails ({@link
   * dev.filetables.transforms.UnpublishedFilesException}, naming the files) if hidden files of the
   * write are still left: the command must not report success then. Only for a job that ended by
   * itself ({@code DONE}): a job stopped any other way may still be restored, and a cancelled one
   * has no end of input. Harmless on runners that never leave anything (Direct).
   */
  static void afterJob(
      TableSpec table, String writeUuid, PipelineResult.State state, PrintStream out)
      throws Exception {
    if (state != PipelineResult.State.DONE) {
      return;
    }
    PublishedLeftovers result = FileTableMaintenance.finishWrite(table, writeUuid);
    if (!result.isEmpty()) {
      out.println(
          "the job's final checkpoint did not publish everything; "
              + result.summary()
              + " (write "
              + writeUuid
              + ")");
    }
  }
}
