package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.runners.flink.FlinkRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster job's options and table (the job itself runs in tests/…/FlinkSessionClusterTest). */
class OrdersStreamJobTest {
  @TempDir Path dir;

  @Test
  void streamingDefaultsOnTopOfAPreset() {
    OrdersStreamJob.Options options =
        OrdersStreamJob.options("--preset=flink-local", "--output=" + dir, "--rows=10");
    assertEquals(FlinkRunner.class, options.getRunner());
    assertEquals("[local]", options.getFlinkMaster());
    assertTrue(options.isStreaming());
    assertEquals(10_000L, options.getCheckpointingInterval());
    // the sink has no @RequiresStableInput step: a job whose input ends finishes without the option
    assertFalse(options.getEnableStableInputDrain());
    assertEquals(10L, options.getRows());
    assertTrue(
        options.getFilesToStage() == null || options.getFilesToStage().isEmpty(),
        "nothing staged in-process");
  }

  @Test
  void explicitOptionsWinOverThePreset() {
    OrdersStreamJob.Options options =
        OrdersStreamJob.options(
            "--preset=flink-cluster",
            "--flinkMaster=jm:9081",
            "--filesToStage=/jobs/my.jar",
            "--checkpointingInterval=2000",
            "--output=" + dir);
    assertEquals("jm:9081", options.getFlinkMaster());
    assertEquals(2, options.getParallelism());
    assertEquals(2_000L, options.getCheckpointingInterval());
    assertEquals(List.of("/jobs/my.jar"), options.getFilesToStage());
  }

  @Test
  void tableCommitsHourlyPartitions() {
    TableSpec table =
        OrdersStreamJob.table(OrdersStreamJob.options("--output=" + dir.resolve("t")));
    assertEquals(List.of("dt", "hour"), table.partitionKeys());
    assertEquals("partition-time", table.options().commitTrigger());
    assertEquals(List.of("success-file"), table.options().commitPolicyKinds());
    TableSpec processTime =
        OrdersStreamJob.table(
            OrdersStreamJob.options(
                "--output=" + dir.resolve("t"), "--commitTrigger=process-time"));
    assertEquals("process-time", processTime.options().commitTrigger());
    assertEquals(java.time.Duration.ZERO, processTime.options().commitDelay());
    assertEquals(false, table.options().autoCompaction());
    TableSpec compacted =
        OrdersStreamJob.table(
            OrdersStreamJob.options("--output=" + dir.resolve("t"), "--autoCompaction=true"));
    assertEquals(true, compacted.options().autoCompaction());
  }

  @Test
  void remoteClusterStagesTheJobJarOfTheProject() throws Exception {
    Path target = Files.createDirectories(dir.resolve("home/pipelines/target"));
    Path jar = Files.createFile(target.resolve("filetables-pipelines-bundled-9.9.jar"));
    String before = System.getProperty("filetables.home");
    System.setProperty("filetables.home", dir.resolve("home").toString());
    try {
      OrdersStreamJob.Options remote =
          OrdersStreamJob.options("--preset=flink-cluster", "--output=" + dir);
      RunnerOptions.stageJobJarOnRemoteCluster(remote);
      assertEquals(List.of(jar.toAbsolutePath().normalize().toString()), remote.getFilesToStage());

      OrdersStreamJob.Options local =
          OrdersStreamJob.options("--preset=flink-local", "--output=" + dir);
      RunnerOptions.stageJobJarOnRemoteCluster(local);
      assertTrue(local.getFilesToStage() == null || local.getFilesToStage().isEmpty());
    } finally {
      if (before == null) {
        System.clearProperty("filetables.home");
      } else {
        System.setProperty("filetables.home", before);
      }
    }
  }

  @Test
  void jobJarIsRecognisedByName() throws Exception {
    Path jar = Files.createFile(dir.resolve("filetables-pipelines-bundled-1.0.jar"));
    assertTrue(JobJar.isJobJar(jar));
    assertFalse(JobJar.isJobJar(Files.createFile(dir.resolve("filetables-pipelines-1.0.jar"))));
  }
}
