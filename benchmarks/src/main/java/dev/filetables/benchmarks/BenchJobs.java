package dev.filetables.benchmarks;

import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.flink.LocalFlinkCluster;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.transforms.FileTableIO;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;

/** What both benchmarks share: the job shape, Flink options, option parsing and file utilities. */
final class BenchJobs {
  private BenchJobs() {}

  /** Streaming options for a benchmark job on {@code cluster}. */
  static FlinkPipelineOptions options(
      LocalFlinkCluster cluster, String jobName, int parallelism, long checkpointMillis) {
    FlinkPipelineOptions options = cluster.options(jobName);
    options.setParallelism(parallelism);
    options.setCheckpointingInterval(checkpointMillis);
    options.setCheckpointingMode("EXACTLY_ONCE");
    options.setFasterCopy(true);
    // the bundles of runner-configs/flink-local.args: one sink segment per checkpoint, not per 1000
    // rows
    options.setMaxBundleSize(1_000_000L);
    options.setMaxBundleTimeMills(10_000L);
    // as the preset: bundles end before the barrier, so the sink may batch rows for its shuffle
    options.setFinishBundleBeforeCheckpointing(true);
    return options;
  }

  /** Orders → FileTableIO.write(table). */
  static Pipeline writePipeline(
      FlinkPipelineOptions options, OrdersSource source, TableSpec table) {
    return writePipeline(options, source, FileTableIO.write(table));
  }

  /** Orders → a configured write. */
  static Pipeline writePipeline(
      FlinkPipelineOptions options, OrdersSource source, FileTableIO.Write write) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Orders", Read.from(source))
        .setRowSchema(Orders.SCHEMA)
        .apply("WriteTable", write);
    return pipeline;
  }

  /** Orders → a step that drops every row: the ceiling the source and runner put on a write. */
  static Pipeline discardPipeline(FlinkPipelineOptions options, OrdersSource source) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Orders", Read.from(source))
        .setRowSchema(Orders.SCHEMA)
        .apply("Discard", ParDo.of(new Discard()));
    return pipeline;
  }

  private static final class Discard extends DoFn<Row, Void> {
    private static final long serialVersionUID = 1L;

    @ProcessElement
    public void processElement(@Element Row row) {}
  }

  /** {@code key=value} strings → map (values may contain '='). */
  static Map<String, String> keyValues(List<String> pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("Expected key=value, got '" + pair + "'");
      }
      map.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return map;
  }

  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            Files.delete(dir);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  /** Total size of the regular files under {@code root} (0 if it does not exist). */
  static long directorySize(Path root) throws IOException {
    if (!Files.exists(root)) {
      return 0;
    }
    long[] size = {0};
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            size[0] += attrs.size();
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
          }
        });
    return size[0];
  }

  static String seconds(long millis) {
    return String.format("%.1f s", millis / 1000.0);
  }

  static String megabytes(long bytes) {
    return String.format("%.1f MB", bytes / 1e6);
  }
}
