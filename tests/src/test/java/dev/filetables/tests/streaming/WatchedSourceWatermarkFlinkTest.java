package dev.filetables.tests.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.transforms.FileTableIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5, point 4 on the Flink runner: the watched source's watermark follows the largest event
 * time read minus the WATERMARK delay (several shards, some of them empty, released by the idle
 * timeout), so event-time windows downstream close.
 */
class WatchedSourceWatermarkFlinkTest {
  static final Queue<String> FIRED = new ConcurrentLinkedQueue<>();

  @TempDir Path dir;

  static final class RecordFn extends DoFn<KV<String, Long>, Void> {
    @ProcessElement
    public void process(@Element KV<String, Long> count, BoundedWindow window) {
      FIRED.add(((IntervalWindow) window).start() + " " + count.getValue());
    }
  }

  private void place(String name, String... timestamps) throws Exception {
    Path target = dir.resolve("landing").resolve(name);
    Files.createDirectories(target.getParent());
    StringBuilder lines = new StringBuilder();
    for (String ts : timestamps) {
      lines.append("{\"msg\": \"m\", \"ts\": \"2020-05-20 ").append(ts).append(".000\"}\n");
    }
    Path hidden = target.resolveSibling("." + name);
    Files.writeString(hidden, lines);
    Files.move(hidden, target, StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void eventTimeWindowsCloseAsDataArrives() throws Exception {
    TableSpec table =
        DdlParser.parse(
            "CREATE TABLE logs (msg STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)"
                + " WITH ('connector' = 'filesystem', 'path' = '"
                + dir.resolve("landing")
                + "', 'format' = 'json', 'source.monitor-interval' = '200 ms', 'source.idle-timeout' = '2 s')");
    FIRED.clear();
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir.resolve("flink"), StreamingScenarios.PARALLELISM)) {
      org.apache.beam.runners.flink.FlinkPipelineOptions options =
          StreamingScenarios.options(cluster, "watch-watermark");
      // the Flink runner emits the watcher's watermark only between bundles; its polling bundles
      // close only at checkpoints with this option (see WatchedRead)
      options.setFinishBundleBeforeCheckpointing(true);
      Pipeline p = Pipeline.create(options);
      p.apply(FileTableIO.read(table).withWatchShards(2))
          .apply(Window.into(FixedWindows.of(org.joda.time.Duration.standardMinutes(1))))
          .apply(MapElements.into(TypeDescriptors.strings()).via(r -> "rows"))
          .apply(Count.perElement())
          .apply(ParDo.of(new RecordFn()));
      JobID job = cluster.submit(p);
      cluster.awaitAllTasksRunning(job, Duration.ofSeconds(60));
      place("a.json", "10:00:01", "10:00:30", "10:00:59");
      place("b.json", "10:01:10");
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (FIRED.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      cluster.cancel(job);
      assertEquals(
          List.of("2020-05-20T10:00:00.000Z 3"),
          List.copyOf(FIRED).subList(0, Math.min(1, FIRED.size())));
    }
  }
}
