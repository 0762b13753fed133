package dev.filetables.pipelines;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.PublishedLeftovers;
import dev.filetables.transforms.sink.compact.EndOfInputIntents.RecoveredPartition;
import java.io.PrintStream;
import java.util.Optional;
import org.apache.beam.sdk.PipelineResult;

/**
 * {@code publish-leftovers <table.sql> [--write-uuid <uuid>] [--dry-run]}: the post-job publish of
 * a streaming write ({@link FileTableIO#publishLeftovers}) for a job that has ended; and {@link
 * #afterJob}, which every command that runs a streaming write and waits for it calls once the job
 * is {@code DONE}.
 */
final class PublishLeftoversCommand {
  private PublishLeftoversCommand() {}

  static int run(CommandLine commandLine, CliContext context) throws Exception {
    TableSpec table = TableFiles.load(commandLine.positionals().get(0));
    Optional<String> writeUuid = commandLine.option("write-uuid");
    boolean dryRun = commandLine.flag("dry-run");
    // a real run also checks that nothing of the write is left hidden (and fails naming it if so)
    PublishedLeftovers result =
        dryRun
            ? FileTableIO.publishLeftovers(table, writeUuid.orElse(null), true)
            : FileTableIO.finishWrite(table, writeUuid.orElse(null));
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
      TableSpec table, String writeUuid, PipelineResult.State state, PrintStream out) throws Exception {
    if (state != PipelineResult.State.DONE) {
      return;
    }
    PublishedLeftovers result = FileTableIO.finishWrite(table, writeUuid);
    if (!result.isEmpty()) {
      out.println(
          "the job's final checkpoint did not publish everything; " + result.summary()
              + " (write " + writeUuid + ")");
    }
  }
}
