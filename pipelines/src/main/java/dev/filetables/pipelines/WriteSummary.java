package dev.filetables.pipelines;

import dev.filetables.transforms.sink.WrittenFile;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * What a write produced — partitions, files, rows, bytes — gathered through Beam metrics, so the
 * figures come back from any runner (embedded or a remote cluster) with the pipeline result.
 */
final class WriteSummary {
  static final String FILES = "files.written";
  static final String BYTES = "bytes.written";
  static final String FILE_ROWS = "rows.written";
  static final String PARTITIONS = "partitions.written";

  final long partitions;
  final long files;
  final long rows;
  final long bytes;

  WriteSummary(long partitions, long files, long rows, long bytes) {
    this.partitions = partitions;
    this.files = files;
    this.rows = rows;
    this.bytes = bytes;
  }

  /** Reads the counters {@link #count()} set up, from a finished pipeline. */
  static WriteSummary from(PipelineResult result) {
    return new WriteSummary(
        counter(result, PARTITIONS),
        counter(result, FILES),
        counter(result, FILE_ROWS),
        counter(result, BYTES));
  }

  /** Rows counted by {@link RowCounter} in a finished pipeline. */
  static long countedRows(PipelineResult result) {
    return counter(result, RowCounter.ROWS);
  }

  private static long counter(PipelineResult result, String name) {
    long total = 0;
    Iterable<MetricResult<Long>> counters =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(RowCounter.METRICS_NAMESPACE, name))
                    .build())
            .getCounters();
    for (MetricResult<Long> counter : counters) {
      // attempted: the Flink runner reports no committed values; batch jobs do not retry here
      Long value = counter.getAttempted();
      total += value == null ? 0 : value;
    }
    return total;
  }

  /** Counts the written files into metrics; partitions are counted only for bounded writes. */
  static PTransform<PCollection<WrittenFile>, PDone> count() {
    return new CountWrites();
  }

  private static final class CountWrites extends PTransform<PCollection<WrittenFile>, PDone> {
    private static final long serialVersionUID = 1L;

    @Override
    public PDone expand(PCollection<WrittenFile> files) {
      files.apply("CountFiles", ParDo.of(new CountFilesFn()));
      if (files.isBounded() == PCollection.IsBounded.BOUNDED) {
        // A global Distinct needs the end of the input; a streaming write has none.
        files
            .apply(
                "PartitionOf",
                MapElements.into(TypeDescriptors.strings()).via(WrittenFile::partitionPath))
            .apply("DistinctPartitions", Distinct.create())
            .apply("CountPartitions", Count.globally())
            .apply("RecordPartitions", ParDo.of(new RecordPartitionsFn()));
      }
      return PDone.in(files.getPipeline());
    }
  }

  private static final class CountFilesFn extends DoFn<WrittenFile, Void> {
    private static final long serialVersionUID = 1L;
    private final Counter files = Metrics.counter(RowCounter.METRICS_NAMESPACE, FILES);
    private final Counter bytes = Metrics.counter(RowCounter.METRICS_NAMESPACE, BYTES);
    private final Counter rows = Metrics.counter(RowCounter.METRICS_NAMESPACE, FILE_ROWS);

    @ProcessElement
    public void process(@Element WrittenFile file) {
      files.inc();
      bytes.inc(file.sizeBytes());
      rows.inc(file.rowCount());
    }
  }

  private static final class RecordPartitionsFn extends DoFn<Long, Void> {
    private static final long serialVersionUID = 1L;
    private final Counter partitions = Metrics.counter(RowCounter.METRICS_NAMESPACE, PARTITIONS);

    @ProcessElement
    public void process(@Element Long count) {
      partitions.inc(count);
    }
  }

  /** "N rows to F files in P partitions (size)", as the write commands print it. */
  String counts() {
    return Human.count(rows, "row")
        + " to "
        + Human.count(files, "file")
        + " in "
        + Human.count(partitions, "partition")
        + " ("
        + Human.bytes(bytes)
        + ")";
  }
}
