package dev.filetables.pipelines;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The {@code filetables} command line: {@code run}, {@code query}, {@code demo}, {@code compact},
 * {@code publish-leftovers}, {@code help}.
 *
 * <p>{@link #run(String[], PrintStream, PrintStream)} does everything but exit, so it can be tested;
 * results go to {@code out}, notes, progress and errors to {@code err}. A failure prints one line,
 * {@code filetables: error: <message>} (plus the stack trace with {@code --verbose}), and returns a
 * non-zero code: 2 for a command line that cannot be understood, 1 for a command that failed.
 */
public final class FileTablesCli {
  static final String USAGE =
      String.join(
          "\n",
          "Usage: filetables [--verbose] <command> [options] [pipeline options]",
          "",
          "Commands:",
          "  run --from <source.sql> --to <sink.sql> [--where <predicate>] [--stop-after <duration>]",
          "      Copies every row of the source table into the sink table. Sink columns are taken from",
          "      source columns of the same name (metadata columns included); source columns the sink",
          "      does not declare are not copied. --where keeps only source partitions matching it.",
          "      A Kafka source ('connector' = 'kafka') streams into the sink until stopped, with",
          "      checkpoints (default every 10 s on Flink; --checkpointingInterval=<ms>).",
          "      A watched source ('source.monitor-interval') copies each new file until stopped; on",
          "      Flink also --finishBundleBeforeCheckpointing=true (its watermark reaches the sink).",
          "      A restart reads every file again unless restored on a cluster (--savepointPath=...).",
          "  query <table.sql> [--where <predicate>] [--format jsonl|csv] [--limit N]",
          "      Prints the table's rows (partition and metadata columns included), sorted by all",
          "      columns: jsonl (default) = one JSON object per line; csv = header + RFC 4180 rows.",
          "      e.g. --where \"dt='2020-05-20' AND hour='12'\"",
          "  demo [--rows N] [--output DIR] [--seed S]",
          "      Generates N synthetic orders (default 1,200,000, over two days) and writes them as a",
          "      dt/hour-partitioned Parquet table DIR/orders (default ./demo-output/orders, replaced if",
          "      it is a previous demo table), with its definition in DIR/orders.sql; prints a summary.",
          "  demo --kafka [--rows N] [--output DIR] [--seed S]",
          "      Starts a local Kafka broker, produces N orders (default 100,000) as JSON and streams",
          "      them into the hourly Parquet table DIR/orders_from_kafka with partition-time commits",
          "      and _SUCCESS files on an embedded Flink cluster; prints what it committed and stops.",
          "  compact <table.sql> [--where <predicate>] [--target-size 128MB] [--grace 5min] [--dry-run]",
          "      Merges the small visible files of each matching partition into files of about the",
          "      target size (default: the table's compaction.file-size), atomically for FileTables",
          "      readers; replaced files are deleted by a later run once --grace has passed (0: at",
          "      once). Prints file counts and sizes before and after; --dry-run only reports.",
          "      Runs in this process (no runner); one compaction per table at a time.",
          "  publish-leftovers <table.sql> [--write-uuid <uuid>] [--dry-run]",
          "      After a streaming write job has ended for good (never while it runs or may still be",
          "      restored from a savepoint taken before its input ended): publishes the files the",
          "      end of its finite input left hidden (end-of-input intents whose final-checkpoint",
          "      publish did not run), deletes hidden files of aborted attempts, and runs the commit",
          "      policies of those partitions. Without --write-uuid: every write with intents.",
          "      run, demo --kafka and job orders-stream do this themselves after their job is DONE.",
          "  help",
          "      Prints this text.",
          "",
          "Runner (every command):",
          "  --runner=FlinkRunner|DirectRunner   where the pipeline runs",
          "  --preset=<name>                     pipeline options from runner-configs/<name>.args",
          "                                      (direct, flink-local, ...); explicit options win",
          "  --<beamOption>=<value>              any Beam or Flink runner option, e.g.",
          "                                      --parallelism=4, --flinkMaster=host:8081",
          "  Default: --preset=flink-local, an embedded Flink mini cluster ([local]) in this JVM with",
          "  parallelism = number of cores. Use --runner=DirectRunner (or --preset=direct) for Beam's",
          "  DirectRunner.",
          "",
          "Other options:",
          "  --verbose   show stack traces and runner logs",
          "  --help      this text",
          "",
          "On a terminal, long jobs show a progress line (rows and files so far).",
          "");

  private final RunnerPresets presets;
  private final boolean terminal;

  public FileTablesCli() {
    this(RunnerPresets.standard(), System.console() != null);
  }

  FileTablesCli(RunnerPresets presets, boolean terminal) {
    this.presets = presets;
    this.terminal = terminal;
  }

  public static void main(String[] args) {
    if (Arrays.asList(args).contains("--verbose") || Arrays.asList(args).contains("-v")) {
      // before any logger exists; system properties override simplelogger.properties
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
      System.setProperty("org.slf4j.simpleLogger.log.org.apache.flink", "warn");
      System.setProperty("org.slf4j.simpleLogger.log.org.apache.beam.runners.flink", "info");
      System.setProperty("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
    }
    PrintStream stdout = System.out;
    // Anything a library prints to System.out goes to stderr: stdout carries only query results.
    System.setOut(System.err);
    int code = new FileTablesCli().run(args, stdout, System.err);
    stdout.flush();
    System.exit(code);
  }

  /** Runs one command; returns the process exit code. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    boolean verbose = Arrays.asList(args).contains("--verbose") || Arrays.asList(args).contains("-v");
    try {
      CommandLine commandLine = CommandLine.parse(args);
      if (commandLine.help() || commandLine.command() == CommandLine.Command.HELP) {
        // bare `filetables` is a mistake worth a non-zero code; asking for help is not
        boolean asked = commandLine.help() || (args.length > 0 && !onlyVerbose(args));
        (asked ? out : err).print(USAGE);
        return asked ? 0 : CliException.USAGE;
      }
      CliContext context = new CliContext(out, err, terminal, presets);
      switch (commandLine.command()) {
        case RUN:
          return RunCommand.run(commandLine, context);
        case QUERY:
          return QueryCommand.run(commandLine, context);
        case DEMO:
          return DemoCommand.run(commandLine, context);
        case COMPACT:
          return CompactCommand.run(commandLine, context);
        case PUBLISH_LEFTOVERS:
          return PublishLeftoversCommand.run(commandLine, context);
        default:
          throw new AssertionError(commandLine.command());
      }
    } catch (CliException e) {
      return fail(e, e.exitCode(), verbose, err);
    } catch (Throwable e) {
      return fail(e, CliException.FAILURE, verbose, err);
    }
  }

  private static boolean onlyVerbose(String[] args) {
    return Arrays.stream(args).allMatch(a -> a.equals("--verbose") || a.equals("-v"));
  }

  private static int fail(Throwable failure, int code, boolean verbose, PrintStream err) {
    err.println("filetables: error: " + ErrorMessages.oneLine(failure));
    if (verbose) {
      failure.printStackTrace(err);
    }
    err.flush();
    return code;
  }
}
