package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.pipelines.FileTablesCli;
import dev.filetables.testfixtures.SessionCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 17 on the scripted session cluster: {@code filetables run} of a watched directory,
 * submitted from the job jar, is resumed by the same command twice while files keep landing — after
 * its client was killed with {@code kill -9} (its job still runs on the cluster: the next start
 * cancels it and restores from its latest checkpoint), and after the JobManager and the TaskManager
 * were killed together with {@code kill -9} (a new cluster on the same directories, other ports:
 * the next start finds the dead job's newest retained checkpoint on disk). Every landed row is then
 * in the table once for DuckDB, no hidden file is left, every partition is committed and all files
 * carry one write id.
 */
@Tag("cluster")
class ResumeOnSessionClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(ResumeOnSessionClusterTest.class);
  private static final Duration CHECKPOINTS = Duration.ofMinutes(3);

  /** Kept when the test fails: the cluster's and the clients' logs are in it. */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void theSameCommandResumesAfterItsClientAndThenTheWholeClusterWereKilled() throws Exception {
    WatchedCopy copy = WatchedCopy.in(dir, 300);
    Path clusterDir = dir.resolve("cluster");
    List<String> command = copy.runCommand(dir.resolve("run-state"));
    List<String> phases = new ArrayList<>();
    long start = System.nanoTime();
    copy.startLanding(10);
    ScriptedFlinkCluster cluster = ScriptedFlinkCluster.start(clusterDir);
    try {
      phases.add("cluster up " + seconds(start));
      ScriptedFlinkCluster.Client first =
          cluster.startClient(FileTablesCli.class.getName(), command, "resume-1");
      String job1 = first.jobId();
      cluster.awaitCheckpoints(job1, 2, CHECKPOINTS);
      first.kill();
      assertEquals("RUNNING", cluster.state(job1), "the job outlives its client");
      phases.add(
          "client of " + job1 + " killed " + seconds(start) + ", " + copy.landed() + " files");

      ScriptedFlinkCluster.Client second =
          cluster.startClient(FileTablesCli.class.getName(), command, "resume-2");
      String job2 = second.jobId();
      String log = second.log();
      assertEquals("CANCELED", cluster.state(job1), log);
      assertTrue(log.contains("job " + job1 + " of this run still runs on "), log);
      assertTrue(log.contains("resuming the run from its checkpoint "), log);
      assertTrue(log.contains(" of job " + job1 + " (write "), log);
      cluster.awaitCheckpoints(job2, 2, CHECKPOINTS);
      phases.add("resumed as " + job2 + " " + seconds(start));

      SessionCluster session = cluster.session();
      List<Long> pids = new ArrayList<>(session.taskManagerPids());
      pids.add(session.jobManagerPid());
      for (long pid : pids) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
      for (long pid : pids) {
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().join());
      }
      second.kill(); // it fails once its cluster is gone; a user would start it again anyway
      cluster.close();
      phases.add(
          "JobManager and TaskManager killed " + seconds(start) + ", " + copy.landed() + " files");

      cluster = ScriptedFlinkCluster.start(clusterDir);
      phases.add("new cluster up " + seconds(start));
      try (ScriptedFlinkCluster.Client third =
          cluster.startClient(FileTablesCli.class.getName(), command, "resume-3")) {
        log = third.log();
        assertTrue(log.contains(" of job " + job2 + " (write "), "resumed from job2:\n" + log);
        long resumedNanos = System.nanoTime();
        int landedAtResume = copy.landed();
        while (copy.countVisible() < (long) landedAtResume * WatchedCopy.ROWS_PER_FILE) {
          String state = cluster.state(third.jobId());
          assertTrue(!ScriptedFlinkCluster.isTerminal(state), state + ":\n" + third.log());
          Thread.sleep(200);
        }
        phases.add(
            "caught up with "
                + landedAtResume
                + " files "
                + seconds(resumedNanos)
                + " after the job appeared");
        Thread.sleep(3_000);
        copy.stopLanding();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!copy.complete() && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        phases.add("complete " + seconds(start) + ", " + copy.landed() + " files");
      }
    } finally {
      cluster.close();
    }
    LOG.info("Phases: {}", phases);
    copy.assertEveryLandedRowOnce(phases.toString());
  }

  private static String seconds(long sinceNanos) {
    return String.format("%.1f s", (System.nanoTime() - sinceNanos) / 1e9);
  }
}
