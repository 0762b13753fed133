package dev.filetables.transforms.commit;

import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.commit.PartitionCommitPolicy;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.DoFn;

/** Tables, files, collectors and policies for partition commit tests. */
final class CommitTestSupport {
  private CommitTestSupport() {}

  static final String UUID_OF_WRITE = "3f0c2a9e-5b7d-4e61-9a35-0c8d2e4f6a10";
  static final String OTHER_WRITE = "77777777-5b7d-4e61-9a35-0c8d2e4f6a10";

  static final Schema SCHEMA =
      Schema.builder()
          .addInt64Field("id")
          .addNullableField("log_ts", FieldType.DATETIME)
          .addNullableField("dt", FieldType.STRING)
          .addNullableField("hour", FieldType.STRING)
          .build();

  /** {@code PARTITIONED BY (dt, hour)} with the success-file policy (manifest on) plus options. */
  static TableSpec hourly(Path root, String... options) {
    return table(root, List.of("dt", "hour"), options);
  }

  /**
   * {@link #hourly}, committed by {@code partition-time} once the watermark passes the hour's start
   * + 1 h ({@code $dt $hour:00:00}), plus options.
   */
  static TableSpec hourlyByPartitionTime(Path root, String... options) {
    List<String> all =
        new ArrayList<>(
            List.of(
                TableOptions.COMMIT_TRIGGER,
                "partition-time",
                TableOptions.COMMIT_DELAY,
                "1 h",
                TableOptions.TIME_EXTRACTOR_PATTERN,
                "$dt $hour:00:00"));
    all.addAll(List.of(options));
    return hourly(root, all.toArray(new String[0]));
  }

  static TableSpec daily(Path root, String... options) {
    return table(root, List.of("dt"), options);
  }

  static TableSpec table(Path root, List<String> keys, String... options) {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(TableOptions.CONNECTOR, "filesystem");
    map.put(TableOptions.PATH, root.toString());
    map.put(TableOptions.FORMAT, "csv");
    map.put(TableOptions.COMMIT_POLICY_KIND, "success-file");
    map.put(TableOptions.COMMIT_SUCCESS_FILE_MANIFEST, "true");
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    Schema.Builder schema =
        Schema.builder().addInt64Field("id").addNullableField("log_ts", FieldType.DATETIME);
    for (String key : keys) {
      schema.addNullableField(key, FieldType.STRING);
    }
    return TableSpec.builder()
        .setName("events")
        .setSchema(schema.build())
        .setPartitionKeys(keys)
        .setOptions(TableOptions.of(map))
        .build();
  }

  private static final AtomicInteger COUNTER = new AtomicInteger();

  /** Writes a visible part file of {@code rows} lines into the partition and describes it. */
  static WrittenFile visibleFile(Path root, String partitionPath, int rows) {
    Path file = hiddenFile(root, partitionPath, rows, UUID_OF_WRITE);
    try {
      Path visible = FileOps.publish(file);
      return WrittenFile.of(partitionPath, visible.toString(), rows, Files.size(visible));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes an in-progress (hidden) part file of write {@code uuid} into the partition. */
  static Path hiddenFile(Path root, String partitionPath, int rows, String uuid) {
    Path dir = root.resolve(partitionPath);
    String name = PartFileName.hidden(uuid, "0", COUNTER.incrementAndGet(), ".csv");
    StringBuilder content = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      content.append(i).append('\n');
    }
    try {
      Files.createDirectories(dir);
      return Files.write(dir.resolve(name), content.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A marker element: the test pipeline publishes this hidden file when it reaches it. */
  static WrittenFile publishMarker(Path hidden, int rows) {
    return WrittenFile.of(PUBLISH_MARKER, hidden.toString(), rows, 0);
  }

  /** A marker element: the test pipeline renames this hidden file but does not pass it on yet. */
  static WrittenFile renameMarker(Path hidden, int rows) {
    return WrittenFile.of(RENAME_MARKER, hidden.toString(), rows, 0);
  }

  /** A marker element: the test pipeline passes on the file renamed for {@link #renameMarker}. */
  static WrittenFile deliverMarker(Path hidden, int rows) {
    return WrittenFile.of(DELIVER_MARKER, hidden.toString(), rows, 0);
  }

  /**
   * A file that appears in the partition only when the test pipeline reaches this element (it waits
   * in a staging directory next to the table until then): data published later, e.g. late data.
   */
  static WrittenFile laterFile(Path root, String partitionPath, int rows) {
    WrittenFile staged = visibleFile(staging(root), partitionPath, rows);
    return WrittenFile.of(MOVE_MARKER, staged.path(), rows, 0);
  }

  static Path staging(Path root) {
    return root.resolveSibling(root.getFileName() + ".staging");
  }

  static final String MOVE_MARKER = "#move";
  static final String PUBLISH_MARKER = "#publish";
  static final String RENAME_MARKER = "#rename";
  static final String DELIVER_MARKER = "#deliver";

  /**
   * Publishes marked hidden files as the sink would (rename, then pass on the visible file), or in
   * two steps, and passes every other file on.
   */
  static final class PublishMarkedFn extends DoFn<WrittenFile, WrittenFile> {
    private final String root;
    private final long moveDelayMillis;

    PublishMarkedFn(Path root) {
      this(root, 0);
    }

    /**
     * With a move delay, a staged file is moved in only after that pause: on Flink the operators
     * run concurrently, and the pause lets a commit that is already due finish before the file
     * appears.
     */
    PublishMarkedFn(Path root, long moveDelayMillis) {
      this.root = root.toAbsolutePath().toString();
      this.moveDelayMillis = moveDelayMillis;
    }

    @ProcessElement
    public void process(@Element WrittenFile file, OutputReceiver<WrittenFile> out)
        throws IOException {
      String marker = file.partitionPath();
      if (!marker.startsWith("#")) {
        out.output(file);
        return;
      }
      Path hidden = Path.of(file.path());
      Path visible;
      if (marker.equals(MOVE_MARKER)) {
        sleep(moveDelayMillis);
        Path staged = hidden;
        visible = Path.of(root).resolve(staging(Path.of(root)).relativize(staged));
        Files.createDirectories(visible.getParent());
        Files.move(staged, visible);
      } else if (marker.equals(DELIVER_MARKER)) {
        visible = hidden.resolveSibling(PartFileName.visibleOf(hidden.getFileName().toString()));
      } else {
        visible = FileOps.publish(hidden);
      }
      if (marker.equals(RENAME_MARKER)) {
        return;
      }
      String partitionPath = Path.of(root).relativize(visible.getParent()).toString();
      out.output(
          WrittenFile.of(partitionPath, visible.toString(), file.rowCount(), Files.size(visible)));
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static PipelineOptions directOptions() {
    PipelineOptions options = PipelineOptionsFactory.create();
    options.setRunner(DirectRunner.class);
    return options;
  }

  // ---- collecting outputs in this JVM

  static String newCollector() {
    return dev.filetables.transforms.JvmCollector.newCollector();
  }

  static <T> List<T> collected(String id) {
    return dev.filetables.transforms.JvmCollector.collected(id);
  }

  static final class CollectFn<T> extends dev.filetables.transforms.JvmCollector.CollectFn<T> {
    CollectFn(String id) {
      super(id);
    }
  }

  // ---- metrics

  static long counter(PipelineResult result, String name) {
    MetricQueryResults metrics =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(CommitMetrics.NAMESPACE, name))
                    .build());
    long sum = 0;
    for (MetricResult<Long> counter : metrics.getCounters()) {
      sum += counter.getAttempted();
    }
    return sum;
  }

  static long distributionCount(PipelineResult result, String name) {
    MetricQueryResults metrics =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(CommitMetrics.NAMESPACE, name))
                    .build());
    long count = 0;
    for (MetricResult<org.apache.beam.sdk.metrics.DistributionResult> d :
        metrics.getDistributions()) {
      count += d.getAttempted().getCount();
    }
    return count;
  }

  // ---- policies

  /** Records "name:partition#commitNumber" per commit into a shared log. */
  public static final class RecordingPolicy implements PartitionCommitPolicy {
    static final Queue<String> LOG = new ConcurrentLinkedQueue<>();

    @Override
    public void commit(PartitionCommitContext context) {
      boolean successFileThere = Files.exists(context.partitionDirectory().resolve("_SUCCESS"));
      LOG.add(
          context.partitionPath()
              + "#"
              + context.commitNumber()
              + (successFileThere ? " after success-file" : " before success-file"));
    }
  }

  /**
   * Records every commit that finds an in-progress file of {@link #UUID_OF_WRITE} in its partition.
   */
  public static final class VisibilityCheckingPolicy implements PartitionCommitPolicy {
    static final Queue<String> VIOLATIONS = new ConcurrentLinkedQueue<>();

    @Override
    public void commit(PartitionCommitContext context) throws IOException {
      List<Path> hidden =
          dev.filetables.io.commit.PartitionFiles.inProgressFiles(
              context.partitionDirectory(), List.of(UUID_OF_WRITE));
      if (!hidden.isEmpty()) {
        VIOLATIONS.add(context.partitionPath() + "#" + context.commitNumber() + " while " + hidden);
      }
    }
  }

  /** Fails its first {@link #failures} calls, then succeeds. */
  public static final class FlakyPolicy implements PartitionCommitPolicy {
    static final AtomicInteger CALLS = new AtomicInteger();
    static volatile int failures = 2;

    @Override
    public void commit(PartitionCommitContext context) throws IOException {
      if (CALLS.incrementAndGet() <= failures) {
        throw new IOException("injected failure " + CALLS.get());
      }
    }
  }

  /**
   * Publishes (renames) the hidden files registered for a partition when that partition is
   * committed: stands in for a publisher that can only make progress while the commit step is free,
   * as Flink's checkpoint that publishes the last files of a write needs the commit operator.
   */
  public static final class PublishingPolicy implements PartitionCommitPolicy {
    static final Map<String, List<Path>> PUBLISH_WHEN_COMMITTED =
        new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void commit(PartitionCommitContext context) throws IOException {
      for (Path hidden : PUBLISH_WHEN_COMMITTED.getOrDefault(context.partitionPath(), List.of())) {
        if (Files.exists(hidden)) {
          FileOps.publish(hidden);
        }
      }
    }
  }
}
