package dev.filetables.pipelines;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed command line: {@code [--verbose] <command> [positionals] [--option value | --option=value]
 * [--beamOption=value ...]}.
 *
 * <p>Options FileTables knows take their value either after '=' or as the next argument. Every other
 * {@code --name[=value]} is a pipeline option handed to Beam's {@code PipelineOptionsFactory} (which
 * only understands the {@code --name=value} form), so {@code --flinkMaster=host:8081} or
 * {@code --parallelism=4} work without the CLI knowing them.
 */
public final class CommandLine {

  /** The subcommands, with the FileTables options each accepts and how many positionals it takes. */
  enum Command {
    RUN("run", 0, "from", "to", "where", "stop-after", "preset", "runner"),
    QUERY("query", 1, "where", "format", "limit", "preset", "runner"),
    DEMO("demo", 0, "rows", "output", "seed", "preset", "runner", "kafka"),
    COMPACT("compact", 1, "where", "target-size", "grace", "dry-run"),
    PUBLISH_LEFTOVERS("publish-leftovers", 1, "write-uuid", "dry-run"),
    HELP("help", 0);

    final String word;
    final int positionals;
    final Set<String> options;

    Command(String word, int positionals, String... options) {
      this.word = word;
      this.positionals = positionals;
      this.options = Set.of(options);
    }

    static Optional<Command> of(String word) {
      for (Command c : values()) {
        if (c.word.equals(word)) {
          return Optional.of(c);
        }
      }
      return Optional.empty();
    }

    static String words() {
      List<String> words = new ArrayList<>();
      for (Command c : values()) {
        words.add(c.word);
      }
      return String.join(", ", words);
    }
  }

  /** Every option FileTables itself interprets (all take a value). */
  private static final Set<String> VALUE_OPTIONS =
      Set.of(
          "from", "to", "where", "stop-after", "format", "limit", "rows", "output", "seed", "preset",
          "runner", "target-size", "grace", "write-uuid");

  /** Options FileTables interprets that take no value (present = true). */
  private static final Set<String> FLAG_OPTIONS = Set.of("kafka", "dry-run");

  private final Command command;
  private final List<String> positionals;
  private final Map<String, String> options;
  private final List<String> pipelineArgs;
  private final boolean verbose;
  private final boolean help;

  private CommandLine(
      Command command,
      List<String> positionals,
      Map<String, String> options,
      List<String> pipelineArgs,
      boolean verbose,
      boolean help) {
    this.command = command;
    this.positionals = Collections.unmodifiableList(positionals);
    this.options = Collections.unmodifiableMap(options);
    this.pipelineArgs = Collections.unmodifiableList(pipelineArgs);
    this.verbose = verbose;
    this.help = help;
  }

  /** Parses the arguments; a {@link CliException#usage usage error} says what is wrong. */
  public static CommandLine parse(String... args) {
    boolean verbose = false;
    boolean help = false;
    Command command = null;
    List<String> positionals = new ArrayList<>();
    Map<String, String> options = new LinkedHashMap<>();
    List<String> pipelineArgs = new ArrayList<>();

    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--verbose") || arg.equals("-v")) {
        verbose = true;
      } else if (arg.equals("--help") || arg.equals("-h")) {
        help = true;
      } else if (command == null) {
        if (arg.startsWith("-")) {
          throw CliException.usage(
              "expected a command (" + Command.words() + ") before '" + arg + "'");
        }
        command =
            Command.of(arg)
                .orElseThrow(
                    () ->
                        CliException.usage(
                            "unknown command '" + arg + "'; commands: " + Command.words()));
      } else if (arg.startsWith("--") && arg.length() > 2) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        if (FLAG_OPTIONS.contains(name)) {
          if (!command.options.contains(name)) {
            throw CliException.usage(
                "option --" + name + " does not apply to '" + command.word + "'");
          }
          if (eq >= 0) {
            throw CliException.usage("option --" + name + " takes no value");
          }
          options.put(name, "true");
        } else if (VALUE_OPTIONS.contains(name)) {
          if (!command.options.contains(name)) {
            throw CliException.usage(
                "option --" + name + " does not apply to '" + command.word + "'");
          }
          String value;
          if (eq >= 0) {
            value = arg.substring(eq + 1);
          } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
            value = args[++i];
          } else {
            throw CliException.usage("option --" + name + " needs a value");
          }
          options.put(name, value);
        } else {
          pipelineArgs.add(arg);
        }
      } else if (arg.startsWith("-") && arg.length() > 1) {
        throw CliException.usage(
            "unknown option '" + arg + "' (options start with '--', e.g. --runner=DirectRunner)");
      } else {
        positionals.add(arg);
      }
    }
    if (command == null) {
      command = Command.HELP;
    }
    if (!help && command != Command.HELP) {
      if (positionals.size() > command.positionals) {
        throw CliException.usage(
            "unexpected argument '"
                + positionals.get(command.positionals)
                + "' for '"
                + command.word
                + "' (pipeline options take the form --name=value)");
      }
      if (positionals.size() < command.positionals) {
        throw CliException.usage("'" + command.word + "' needs a table definition file (.sql)");
      }
    }
    return new CommandLine(command, positionals, options, pipelineArgs, verbose, help);
  }

  Command command() {
    return command;
  }

  public List<String> positionals() {
    return positionals;
  }

  /** A FileTables option's value, if given. */
  public Optional<String> option(String name) {
    return Optional.ofNullable(options.get(name));
  }

  /** True if a flag option (e.g. {@code --dry-run}) was given. */
  public boolean flag(String name) {
    return options.containsKey(name);
  }

  /** A FileTables option that must be given. */
  public String requiredOption(String name) {
    return option(name)
        .orElseThrow(
            () -> CliException.usage("'" + command.word + "' needs --" + name + " <value>"));
  }

  /** A whole-number option, e.g. {@code --rows 1_200_000} or {@code --rows 20k} (k and M suffixes). */
  public Optional<Long> longOption(String name, long min) {
    return option(name).map(v -> parseCount(name, v, min));
  }

  static long parseCount(String name, String value, long min) {
    String text = value.trim().replace("_", "").replace(",", "");
    long factor = 1;
    if (text.endsWith("k") || text.endsWith("K")) {
      factor = 1_000;
      text = text.substring(0, text.length() - 1);
    } else if (text.endsWith("m") || text.endsWith("M")) {
      factor = 1_000_000;
      text = text.substring(0, text.length() - 1);
    }
    long parsed;
    try {
      parsed = Math.multiplyExact(Long.parseLong(text), factor);
    } catch (NumberFormatException | ArithmeticException e) {
      throw CliException.usage(
          "--" + name + " must be a whole number (e.g. 20000, 20k, 1M), not '" + value + "'");
    }
    if (parsed < min) {
      throw CliException.usage("--" + name + " must be at least " + min + ", not " + value);
    }
    return parsed;
  }

  /** Pipeline options for Beam, in the order given (without {@code --runner}/{@code --preset}). */
  public List<String> pipelineArgs() {
    return pipelineArgs;
  }

  public boolean verbose() {
    return verbose;
  }

  public boolean help() {
    return help;
  }
}
