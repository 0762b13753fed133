package dev.filetables.tests.streaming;

import dev.filetables.io.commit.CommittedFile;
import dev.filetables.io.commit.PartitionFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;

/**
 * Watches the published files of a write the way a partition-time commit does, to show whether the
 * watermark raced ahead of the sink's buffered writes (Beam issue #39991): an event-time timer per
 * hourly partition ({@code dt=yyyy-MM-dd/hour=HH}) at its time + {@code delay}, set when its first
 * file is published, like the committer's. When it fires (the watermark is past that time) the
 * partition directory is looked at: how many rows are visible then, and which hidden files are
 * there. A partition whose visible rows are then fewer than its final rows had rows still in open
 * or hidden files while the watermark said it was complete: a commit trusting the watermark alone
 * would have been wrong there.
 *
 * <p>Observations go to a JVM-static registry (the embedded cluster runs in the test's JVM).
 */
final class WatermarkRaceWitness extends PTransform<PCollection<WrittenFile>, PDone> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, List<Observation>> OBSERVATIONS = new ConcurrentHashMap<>();
  private static final Pattern HOURLY = Pattern.compile("dt=(\\d{4}-\\d{2}-\\d{2})/hour=(\\d{2})");

  /** What the directory of a partition held when the watermark passed its time + delay. */
  static final class Observation {
    final String partition;
    final long visibleRows;
    final List<String> hiddenFiles;

    Observation(String partition, long visibleRows, List<String> hiddenFiles) {
      this.partition = partition;
      this.visibleRows = visibleRows;
      this.hiddenFiles = hiddenFiles;
    }

    @Override
    public String toString() {
      return partition + ": " + visibleRows + " visible rows, hidden " + hiddenFiles;
    }
  }

  private final String id;
  private final String tableRoot;
  private final long delayMillis;

  private WatermarkRaceWitness(String id, Path tableRoot, java.time.Duration delay) {
    this.id = id;
    this.tableRoot = tableRoot.toAbsolutePath().toString();
    this.delayMillis = delay.toMillis();
  }

  /**
   * A witness for the hourly table at {@code tableRoot} committed {@code delay} after partition
   * time.
   */
  static WatermarkRaceWitness of(Path tableRoot, java.time.Duration delay) {
    String id = UUID.randomUUID().toString();
    OBSERVATIONS.put(id, new CopyOnWriteArrayList<>());
    return new WatermarkRaceWitness(id, tableRoot, delay);
  }

  /** What it saw so far (after restores, a partition may be seen more than once). */
  List<Observation> observations() {
    return List.copyOf(OBSERVATIONS.getOrDefault(id, List.of()));
  }

  void forget() {
    OBSERVATIONS.remove(id);
  }

  @Override
  public PDone expand(PCollection<WrittenFile> files) {
    files
        .apply(
            "ByPartition",
            WithKeys.of(WrittenFile::partitionPath).withKeyType(TypeDescriptors.strings()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenFileCoder.of()))
        .apply("Watch", ParDo.of(new WatchFn(id, tableRoot, delayMillis)));
    return PDone.in(files.getPipeline());
  }

  private static final class WatchFn extends DoFn<KV<String, WrittenFile>, Void> {
    private static final long serialVersionUID = 1L;
    private final String id;
    private final String tableRoot;
    private final long delayMillis;

    @StateId("due")
    private final StateSpec<ValueState<Long>> dueSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("passed")
    private final TimerSpec passedSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    WatchFn(String id, String tableRoot, long delayMillis) {
      this.id = id;
      this.tableRoot = tableRoot;
      this.delayMillis = delayMillis;
    }

    @ProcessElement
    public void process(
        @Element KV<String, WrittenFile> file,
        @StateId("due") ValueState<Long> due,
        @TimerId("passed") Timer passed) {
      if (due.read() != null) {
        return;
      }
      Matcher m = HOURLY.matcher(file.getKey());
      if (!m.matches()) {
        throw new IllegalArgumentException("not an hourly partition: " + file.getKey());
      }
      long millis =
          LocalDateTime.parse(m.group(1) + "T" + m.group(2) + ":00:00")
                  .toInstant(ZoneOffset.UTC)
                  .toEpochMilli()
              + delayMillis;
      due.write(millis);
      passed.set(new Instant(millis));
    }

    @OnTimer("passed")
    public void onPassed(@Key String partition) throws IOException {
      Path dir = Path.of(tableRoot).resolve(partition);
      long rows = 0;
      for (CommittedFile file : PartitionFiles.visibleDataFiles(dir)) {
        try (Stream<String> lines = Files.lines(Path.of(file.path()), StandardCharsets.UTF_8)) {
          rows += lines.filter(l -> !l.isBlank()).count();
        }
      }
      List<String> hidden;
      try (Stream<Path> entries = Files.list(dir)) {
        hidden =
            entries
                .map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("."))
                .sorted()
                .toList();
      }
      List<Observation> observations = OBSERVATIONS.get(id);
      if (observations != null) {
        observations.add(new Observation(partition, rows, hidden));
      }
    }
  }
}
