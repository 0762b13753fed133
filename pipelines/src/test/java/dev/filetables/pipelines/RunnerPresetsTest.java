package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerPresetsTest {
  @TempDir Path dir;

  @Test
  void parsesOneOptionPerLineWithComments() {
    assertEquals(
        List.of("--runner=FlinkRunner", "--flinkMaster=[local]"),
        RunnerPresets.parse(
            "# a comment\n\n  --runner=FlinkRunner\r\n--flinkMaster=[local]\n#--parallelism=1\n",
            "p"));
  }

  @Test
  void rejectsLinesThatAreNotOneOption() {
    CliException e =
        assertThrows(
            CliException.class,
            () -> RunnerPresets.parse("--runner=FlinkRunner\nparallelism=2\n", "x.args"));
    assertEquals(
        "x.args line 2: expected one pipeline option such as --runner=FlinkRunner, found 'parallelism=2'",
        e.getMessage());
    assertThrows(CliException.class, () -> RunnerPresets.parse("--a=1 --b=2", "x.args"));
  }

  @Test
  void firstDirectoryWins() throws Exception {
    Path first = Files.createDirectories(dir.resolve("first"));
    Path second = Files.createDirectories(dir.resolve("second"));
    Files.writeString(
        first.resolve("direct.args"), "--runner=DirectRunner\n--targetParallelism=1\n");
    Files.writeString(second.resolve("direct.args"), "--runner=DirectRunner\n");
    Files.writeString(second.resolve("other.args"), "--runner=FlinkRunner\n");
    RunnerPresets presets = new RunnerPresets(List.of(first, second));
    assertEquals(List.of("--runner=DirectRunner", "--targetParallelism=1"), presets.load("direct"));
    assertEquals(List.of("--runner=FlinkRunner"), presets.load("other"));
    assertEquals(List.of("direct", "other"), presets.available());
  }

  @Test
  void projectPresetsAreBundledInTheJar() {
    RunnerPresets presets = new RunnerPresets(List.of(dir.resolve("missing")));
    Optional<List<String>> flink = presets.find("flink-local");
    assertTrue(flink.isPresent());
    assertTrue(flink.get().contains("--runner=FlinkRunner"));
    assertEquals(List.of("--runner=DirectRunner"), presets.load("direct"));
    assertEquals(List.of("direct", "flink-cluster", "flink-local"), presets.available());
  }

  @Test
  void missingPresetFile() {
    CliException e =
        assertThrows(CliException.class, () -> new RunnerPresets(List.of()).load("conf/x.args"));
    assertEquals("preset file not found: conf/x.args", e.getMessage());
  }
}
