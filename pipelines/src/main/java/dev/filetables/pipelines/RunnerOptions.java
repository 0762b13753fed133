package dev.filetables.pipelines;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Turns a command line into Beam {@link PipelineOptions}: preset options first, then the options
 * given explicitly (an explicit option replaces a preset option of the same name).
 *
 * <p>Defaults: without {@code --preset} and {@code --runner} the {@value #DEFAULT_PRESET} preset
 * applies (Flink's embedded mini cluster, {@code [local]}). On the Flink runner an unset {@code
 * --flinkMaster} means {@code [local]}, an unset {@code --fasterCopy} means true, and on {@code
 * [local]} an unset {@code --parallelism} means the number of cores, so the embedded cluster uses
 * the whole machine.
 */
@Internal
public final class RunnerOptions {
  static final String DEFAULT_PRESET = "flink-local";
  static final String DIRECT = "DirectRunner";
  static final String FLINK = "FlinkRunner";
  static final String LOCAL_MASTER = "[local]";

  /** Used when no {@value #DEFAULT_PRESET} preset file can be found at all. */
  private static final List<String> BUILT_IN_DEFAULT =
      List.of("--runner=" + FLINK, "--flinkMaster=" + LOCAL_MASTER);

  private RunnerOptions() {}

  /** The effective pipeline arguments for a command line (presets merged, defaults applied). */
  static List<String> effectiveArgs(
      RunnerArgs given, String command, List<String> unmatched, RunnerPresets presets) {
    return effectiveArgs(
        given.preset(), given.runner(), given.pipelineArgs(command, unmatched), presets);
  }

  /** The effective pipeline arguments (presets merged, defaults applied). */
  static List<String> effectiveArgs(
      Optional<String> preset,
      Optional<String> givenRunner,
      List<String> pipelineArgs,
      RunnerPresets presets) {
    Optional<String> runner = givenRunner.map(RunnerOptions::normalizeRunner);
    List<String> base;
    if (preset.isPresent()) {
      base = presets.load(preset.get());
    } else if (runner.isEmpty()) {
      base = presets.find(DEFAULT_PRESET).orElse(BUILT_IN_DEFAULT);
    } else {
      base = List.of();
    }
    List<String> explicit = new ArrayList<>(pipelineArgs);
    runner.ifPresent(r -> explicit.add("--runner=" + r));
    Map<String, String> merged = merge(base, explicit);
    String effectiveRunner = merged.containsKey("runner") ? valueOf(merged.get("runner")) : DIRECT;
    if (FLINK.equals(normalizeRunner(effectiveRunner))) {
      merged.putIfAbsent("flinkMaster", "--flinkMaster=" + LOCAL_MASTER);
      // Beam rows are immutable, so the deep copy between chained operators is wasted work (and
      // the runner warns without this option).
      merged.putIfAbsent("fasterCopy", "--fasterCopy=true");
      if (LOCAL_MASTER.equals(valueOf(merged.get("flinkMaster")))) {
        merged.putIfAbsent(
            "parallelism", "--parallelism=" + Runtime.getRuntime().availableProcessors());
      }
    }
    return new ArrayList<>(merged.values());
  }

  /**
   * Creates validated options and makes them the file systems' defaults; a bad option is a {@link
   * CliException} with Beam's explanation.
   */
  public static PipelineOptions create(List<String> args) {
    for (String arg : args) {
      if (optionName(arg).equals("runner")) {
        normalizeRunner(valueOf(arg)); // our message beats Beam's list of every registered runner
      }
    }
    try {
      PipelineOptions options =
          PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).withValidation().create();
      // The stores (S3's --endpoint, --awsRegion) take their settings from here: set them before
      // a command touches a table, not only when a pipeline is created.
      FileSystems.setDefaultPipelineOptions(options);
      return options;
    } catch (IllegalArgumentException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      throw new CliException(
          "invalid pipeline option: " + message.replaceAll("\\s*\\R\\s*", " ").strip(), e);
    }
  }

  /**
   * A pipeline for a remote Flink cluster ships the job jar ({@link JobJar}) unless {@code
   * --filesToStage} says otherwise; called just before a pipeline is submitted, so a missing job
   * jar is reported only when one is needed.
   */
  static void stageJobJarOnRemoteCluster(PipelineOptions options) {
    if (!FLINK.equals(options.getRunner().getSimpleName()) || runsInThisJvm(options)) {
      return;
    }
    FlinkPipelineOptions flink = options.as(FlinkPipelineOptions.class);
    if (flink.getFilesToStage() == null || flink.getFilesToStage().isEmpty()) {
      flink.setFilesToStage(List.of(JobJar.require().toString()));
    }
  }

  /**
   * Options by name, in first-seen order; a later option replaces an earlier one of the same name.
   */
  static Map<String, String> merge(List<String> base, List<String> overrides) {
    Map<String, String> merged = new LinkedHashMap<>();
    for (String arg : base) {
      merged.put(optionName(arg), arg);
    }
    for (String arg : overrides) {
      merged.put(optionName(arg), arg);
    }
    return merged;
  }

  /** {@code --name=value} → {@code name}. */
  static String optionName(String arg) {
    String body = arg.startsWith("--") ? arg.substring(2) : arg;
    int eq = body.indexOf('=');
    return eq < 0 ? body : body.substring(0, eq);
  }

  /** {@code --name=value} → {@code value}; {@code --flag} → {@code true}. */
  static String valueOf(String arg) {
    int eq = arg.indexOf('=');
    return eq < 0 ? "true" : arg.substring(eq + 1);
  }

  /** {@code direct}, {@code DirectRunner}, its class name, ... → the runner's Beam name. */
  static String normalizeRunner(String runner) {
    String key = runner.trim().toLowerCase(Locale.ROOT);
    switch (key) {
      case "direct":
      case "directrunner":
      case "org.apache.beam.runners.direct.directrunner":
        return DIRECT;
      case "flink":
      case "flinkrunner":
      case "org.apache.beam.runners.flink.flinkrunner":
        return FLINK;
      default:
        throw CliException.usage(
            "unknown runner '" + runner + "'; use --runner=" + DIRECT + " or --runner=" + FLINK);
    }
  }

  /** One line for the user: {@code FlinkRunner [local], parallelism 2} or {@code DirectRunner}. */
  public static String describe(PipelineOptions options) {
    String runner = options.getRunner().getSimpleName();
    if (FLINK.equals(runner)) {
      FlinkPipelineOptions flink = options.as(FlinkPipelineOptions.class);
      Integer parallelism = flink.getParallelism();
      return runner
          + " "
          + flink.getFlinkMaster()
          + (parallelism == null || parallelism < 1 ? "" : ", parallelism " + parallelism);
    }
    return runner;
  }

  /** True when the pipeline runs inside this JVM (so JVM-wide progress counters see its rows). */
  static boolean runsInThisJvm(PipelineOptions options) {
    String runner = options.getRunner().getSimpleName();
    if (FLINK.equals(runner)) {
      String master = options.as(FlinkPipelineOptions.class).getFlinkMaster();
      return LOCAL_MASTER.equals(master)
          || "[auto]".equals(master)
          || "[collection]".equals(master);
    }
    return DIRECT.equals(runner);
  }
}
