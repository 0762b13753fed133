package dev.filetables.pipelines;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code filetables} command line, one front for every command: {@code run}, {@code query},
 * {@code sql}, {@code demo}, {@code compact}, {@code publish-leftovers}, {@code bench}, {@code
 * job}, {@code help}. Parsing, per-command help and usage errors are picocli's; each command is a
 * class with its options as fields.
 *
 * <p>{@link #run(String[], PrintStream, PrintStream)} does everything but exit, so it can be
 * tested; results go to {@code out}, notes, progress and errors to {@code err}. A failure prints
 * one line, {@code filetables: error: <message>} (plus the stack trace with {@code --verbose}), and
 * returns a non-zero code: 2 for a command line that cannot be understood, 1 for a command that
 * failed.
 */
@Command(
    name = "filetables",
    // every command gets --help (and --version), and its help lists the global --verbose
    scope = ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    usageHelpWidth = 100,
    versionProvider = FileTablesCli.Version.class,
    synopsisSubcommandLabel = "<command>",
    description = "Partitioned file tables (Flink's filesystem connector options) on Apache Beam.",
    subcommands = {
      RunCommand.class,
      QueryCommand.class,
      SqlCommand.class,
      DemoCommand.class,
      CompactCommand.class,
      PublishLeftoversCommand.class,
      BenchCommand.class,
      JobCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Runner (run, query, sql, demo):",
      "  --runner=FlinkRunner|DirectRunner   where the pipeline runs",
      "  --preset=<name>                     pipeline options from runner-configs/<name>.args",
      "                                      (direct, flink-local, flink-cluster); explicit options win",
      "  --<beamOption>=<value>              any Beam or Flink runner option, e.g.",
      "                                      --parallelism=4, --flinkMaster=host:8081",
      "  Default: --preset=flink-local, an embedded Flink mini cluster ([local]) in this JVM with",
      "  parallelism = number of cores. Use --runner=DirectRunner (or --preset=direct) for Beam's",
      "  DirectRunner.",
      "",
      "'filetables help <command>' describes a command. On a terminal, long jobs show a progress line."
    })
public final class FileTablesCli implements Callable<Integer> {
  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT,
      description = "show stack traces and runner logs")
  boolean verbose;

  private final RunnerPresets presets;
  private final boolean terminal;
  private CliContext context;

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

  /** Where the running command prints; set before it runs. */
  CliContext context() {
    return context;
  }

  /** No command given: the usage, on stderr, and a usage exit code. */
  @Override
  public Integer call() {
    CommandLine.usage(this, context.err());
    return CliException.USAGE;
  }

  /** Runs one command; returns the process exit code. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    boolean verboseAnywhere =
        Arrays.asList(args).contains("--verbose") || Arrays.asList(args).contains("-v");
    context = new CliContext(out, err, terminal, presets);
    CommandLine cli = commandLine(this);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setParameterExceptionHandler(
        (e, given) ->
            fail(CliException.usage(usageMessage(e)), CliException.USAGE, verboseAnywhere, err));
    cli.setExecutionExceptionHandler(
        (e, commandLine, parsed) ->
            fail(
                e,
                e instanceof CliException ? ((CliException) e).exitCode() : CliException.FAILURE,
                verboseAnywhere,
                err));
    try {
      return cli.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The parser for {@code command}, set up as every caller needs it. */
  static CommandLine commandLine(FileTablesCli command) {
    CommandLine cli = new CommandLine(command);
    // bench and job hand every argument after the name to the program they run
    for (String passThrough : List.of("bench", "job")) {
      cli.getSubcommands().get(passThrough).setUnmatchedOptionsArePositionalParams(true);
    }
    // a command's header is its line in the list of commands; its own help starts with "Usage:"
    for (CommandLine sub : cli.getSubcommands().values()) {
      List<String> sections = new java.util.ArrayList<>(sub.getHelpSectionKeys());
      sections.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER);
      sub.setHelpSectionKeys(sections);
    }
    return cli;
  }

  /** picocli's message, except for the two mistakes people make before a command. */
  private static String usageMessage(ParameterException e) {
    if (e instanceof UnmatchedArgumentException
        && e.getCommandLine().getCommandSpec().parent() == null) {
      List<String> unmatched = ((UnmatchedArgumentException) e).getUnmatched();
      String first = unmatched.isEmpty() ? "" : unmatched.get(0);
      String commands = String.join(", ", e.getCommandLine().getSubcommands().keySet());
      return first.startsWith("-")
          ? "expected a command (" + commands + ") before '" + first + "'"
          : "unknown command '" + first + "'; commands: " + commands;
    }
    boolean topLevel = e.getCommandLine().getCommandSpec().parent() == null;
    return e.getMessage()
        + (topLevel ? "" : " (see 'filetables help " + e.getCommandLine().getCommandName() + "')");
  }

  private static int fail(Throwable failure, int code, boolean verbose, PrintStream err) {
    err.println("filetables: error: " + ErrorMessages.oneLine(failure));
    if (verbose) {
      failure.printStackTrace(err);
    }
    err.flush();
    return code;
  }

  /** {@code --version}: the project version from the jar's manifest, when there is one. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = FileTablesCli.class.getPackage().getImplementationVersion();
      return new String[] {"filetables " + (version == null ? "(development build)" : version)};
    }
  }
}
