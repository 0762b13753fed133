package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerOptionsTest {
  @TempDir Path presetsDir;

  private static final String CORES = String.valueOf(Runtime.getRuntime().availableProcessors());

  private RunnerPresets presets() throws Exception {
    Files.writeString(
        presetsDir.resolve("flink-local.args"),
        "# embedded\n--runner=FlinkRunner\n\n--flinkMaster=[local]\n  --fasterCopy=true  \n");
    Files.writeString(presetsDir.resolve("direct.args"), "--runner=DirectRunner\n");
    Files.writeString(
        presetsDir.resolve("flink-four.args"),
        "--runner=FlinkRunner\n--parallelism=4\n--maxBundleSize=500\n");
    return new RunnerPresets(List.of(presetsDir));
  }

  private List<String> args(String... commandLine) throws Exception {
    return CliRunner.pipelineArgs(presets(), commandLine);
  }

  @Test
  void defaultIsTheFlinkLocalPresetWithOneSlotPerCore() throws Exception {
    assertEquals(
        List.of(
            "--runner=FlinkRunner",
            "--flinkMaster=[local]",
            "--fasterCopy=true",
            "--parallelism=" + CORES),
        args("demo"));
    PipelineOptions options = RunnerOptions.create(args("demo"));
    assertEquals(FlinkRunner.class, options.getRunner());
    assertEquals("FlinkRunner [local], parallelism " + CORES, RunnerOptions.describe(options));
    assertTrue(RunnerOptions.runsInThisJvm(options));
  }

  @Test
  void builtInDefaultWhenNoPresetFileExists() throws Exception {
    List<String> args =
        CliRunner.pipelineArgs(new RunnerPresets(List.of(presetsDir.resolve("none"))), "demo");
    // the jar's own copy of runner-configs/flink-local.args, or the built-in default
    assertTrue(args.contains("--runner=FlinkRunner"), args.toString());
    assertTrue(args.contains("--flinkMaster=[local]"), args.toString());
  }

  @Test
  void explicitRunnerReplacesTheDefaultPreset() throws Exception {
    assertEquals(List.of("--runner=DirectRunner"), args("demo", "--runner=direct"));
    PipelineOptions options = RunnerOptions.create(args("demo", "--runner", "DirectRunner"));
    assertEquals(DirectRunner.class, options.getRunner());
    assertEquals("DirectRunner", RunnerOptions.describe(options));
  }

  @Test
  void explicitFlinkRunnerGetsLocalMasterAndCores() throws Exception {
    assertEquals(
        List.of(
            "--runner=FlinkRunner",
            "--flinkMaster=[local]",
            "--fasterCopy=true",
            "--parallelism=" + CORES),
        args("demo", "--runner=flink"));
  }

  @Test
  void explicitOptionsOverridePresetValues() throws Exception {
    List<String> args =
        args("demo", "--preset=flink-four", "--parallelism=2", "--objectReuse=true");
    assertEquals(
        List.of(
            "--runner=FlinkRunner",
            "--parallelism=2",
            "--maxBundleSize=500",
            "--objectReuse=true",
            "--flinkMaster=[local]",
            "--fasterCopy=true"),
        args);
    FlinkPipelineOptions flink = RunnerOptions.create(args).as(FlinkPipelineOptions.class);
    assertEquals(2, flink.getParallelism());
    assertEquals(500L, flink.getMaxBundleSize());
  }

  @Test
  void runnerFlagOverridesThePresetRunner() throws Exception {
    List<String> args = args("demo", "--preset", "flink-local", "--runner=DirectRunner");
    assertEquals(
        List.of("--runner=DirectRunner", "--flinkMaster=[local]", "--fasterCopy=true"), args);
    assertEquals(DirectRunner.class, RunnerOptions.create(args).getRunner());
  }

  @Test
  void remoteMasterKeepsFlinksOwnParallelism() throws Exception {
    List<String> args = args("demo", "--flinkMaster=jobmanager:8081");
    assertEquals(
        List.of("--runner=FlinkRunner", "--flinkMaster=jobmanager:8081", "--fasterCopy=true"),
        args);
    PipelineOptions options = RunnerOptions.create(args);
    assertEquals("FlinkRunner jobmanager:8081", RunnerOptions.describe(options));
    assertEquals(false, RunnerOptions.runsInThisJvm(options));
  }

  @Test
  void presetFromAFilePath() throws Exception {
    Path file = presetsDir.resolve("mine.args");
    Files.writeString(file, "--runner=DirectRunner\n--targetParallelism=3\n");
    assertEquals(
        List.of("--runner=DirectRunner", "--targetParallelism=3"),
        args("demo", "--preset=" + file));
  }

  @Test
  void unknownRunnerAndPresetAndOptionAreClearErrors() throws Exception {
    CliException runner = assertThrows(CliException.class, () -> args("demo", "--runner=Spark"));
    assertEquals(
        "unknown runner 'Spark'; use --runner=DirectRunner or --runner=FlinkRunner",
        runner.getMessage());

    CliException preset = assertThrows(CliException.class, () -> args("demo", "--preset=cluster"));
    assertEquals(
        "unknown preset 'cluster'; available: direct, flink-four, flink-local (files runner-configs/<name>.args)",
        preset.getMessage());

    CliException option =
        assertThrows(
            CliException.class, () -> RunnerOptions.create(args("demo", "--flinkMastr=x")));
    assertTrue(option.getMessage().startsWith("invalid pipeline option: "), option.getMessage());
    assertTrue(option.getMessage().contains("flinkMastr"), option.getMessage());
    assertTrue(!option.getMessage().contains("\n"));
  }
}
