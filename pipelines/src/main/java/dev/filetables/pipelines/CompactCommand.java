package dev.filetables.pipelines;

import dev.filetables.io.compaction.OfflineCompaction;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.Durations;
import dev.filetables.io.table.MemorySizes;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableMaintenance;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code compact <table.sql> [--where <predicate>] [--target-size 128MB] [--grace 5min]
 * [--dry-run]}: merges the small visible files of a table's partitions ({@link OfflineCompaction})
 * and prints before/after file counts and sizes.
 *
 * <p>It runs in this process, partitions in parallel on a small thread pool, not as a Beam
 * pipeline: the work per partition is a listing, a byte/row-group copy and a few renames on the
 * local file system, which a thread does at disk speed; a Beam job would add seconds of start-up
 * and serialization for no parallelism a thread pool does not already give on one machine, and the
 * protocol's steps must be ordered per partition anyway.
 */
@Command(
    name = "compact",
    header = "Merges the small files of a table's partitions.",
    description = {
      "Merges the small visible files of each matching partition into files of about the target size,"
          + " atomically for FileTables readers. When it returns every reader (DuckDB, Spark, Flink) sees"
          + " each row once: the replaced files are moved to hidden names, kept for FileTables readers"
          + " that listed them before and deleted by a later run once --grace has passed (0: deleted at"
          + " once). Prints file counts and sizes before and after. Runs in this process (no runner); one"
          + " compaction per table at a time."
    })
final class CompactCommand implements Callable<Integer> {
  static final Duration DEFAULT_GRACE = Duration.ofMinutes(5);

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
      description = "only partitions matching it, e.g. \"dt='2020-05-20'\"")
  private String where;

  @Option(
      names = "--target-size",
      paramLabel = "<size>",
      description = "size of merged files, e.g. 128MB (default: the table's compaction.file-size)")
  private String targetSize;

  @Option(
      names = "--grace",
      paramLabel = "<duration>",
      description =
          "how long replaced files are kept, hidden, for FileTables readers that listed them before"
              + " (default: 5 min; 0: deleted at once)")
  private String graceText;

  @Option(names = "--dry-run", description = "only report what would be merged")
  private boolean dryRun;

  /** Store settings such as {@code --endpoint=<url> --awsRegion=<region>} for S3 tables. */
  @Unmatched private List<String> storeArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    RunnerOptions.create(storeArgs);
    return run(cli.context());
  }

  private int run(CliContext context) throws Exception {
    TableSpec table = TableFiles.load(TableFiles.required(tableFile, "compact"));
    TableOptions options = table.options();
    long target = targetSize == null ? options.compactionFileSize() : size(targetSize);
    Duration grace = graceText == null ? DEFAULT_GRACE : duration(graceText);
    PartitionFilter filter =
        where == null
            ? PartitionFilter.all()
            : PartitionFilter.parse(where, table.schema(), table.partitionKeys());
    long started = System.nanoTime();
    List<OfflineCompaction.Result> results =
        FileTableMaintenance.compact(table, filter, target, grace, dryRun);
    long millis = (System.nanoTime() - started) / 1_000_000;
    print(context.out(), table, results, target, grace, dryRun, millis);
    return 0;
  }

  private static void print(
      PrintStream out,
      TableSpec table,
      List<OfflineCompaction.Result> results,
      long target,
      Duration grace,
      boolean dryRun,
      long millis) {
    int filesBefore = 0;
    int filesAfter = 0;
    long bytesBefore = 0;
    long bytesAfter = 0;
    int groups = 0;
    int retired = 0;
    int deleted = 0;
    int touched = 0;
    for (OfflineCompaction.Result r : results) {
      filesBefore += r.filesBefore();
      filesAfter += r.filesAfter();
      bytesBefore += r.bytesBefore();
      bytesAfter += r.bytesAfter();
      groups += r.groups();
      retired += r.retired();
      deleted += r.deleted();
      touched += r.groups() > 0 ? 1 : 0;
    }
    out.printf(
        "%s table `%s`: %d partition(s), %d with files to merge (target %s)%n",
        dryRun ? "Dry run, nothing changed:" : "Compacted",
        table.name(),
        results.size(),
        touched,
        Human.bytes(target));
    out.printf("  before: %s, %s%n", Human.count(filesBefore, "file"), Human.bytes(bytesBefore));
    out.printf(
        "  after:  %s, %s%s%n",
        Human.count(filesAfter, "file"), Human.bytes(bytesAfter), dryRun ? " (estimated)" : "");
    if (!dryRun) {
      out.printf(
          "  %d merge(s) in %s; %d replaced file(s) %s; %d leftover or expired file(s) deleted%n",
          groups,
          Human.duration(millis),
          retired,
          grace.isZero()
              ? "deleted"
              : "hidden (kept "
                  + Human.duration(grace.toMillis())
                  + " for FileTables readers that listed them, then deleted by a later run)",
          deleted);
    }
  }

  private static long size(String value) {
    try {
      return MemorySizes.parse(value);
    } catch (TableDefinitionException e) {
      throw CliException.usage("--target-size: " + e.getMessage());
    }
  }

  private static Duration duration(String value) {
    try {
      return Durations.parse(value);
    } catch (TableDefinitionException e) {
      throw CliException.usage("--grace: " + e.getMessage());
    }
  }
}
