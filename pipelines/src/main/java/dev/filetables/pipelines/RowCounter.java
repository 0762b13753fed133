package dev.filetables.pipelines;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Counts rows flowing through a pipeline, twice: in a JVM-wide counter the CLI's progress line
 * reads while the job runs (seen only when the runner executes in this JVM: Direct and embedded
 * Flink), and in a Beam metric that every runner reports at the end.
 */
final class RowCounter extends PTransform<PCollection<Row>, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  static final String METRICS_NAMESPACE = "filetables";
  static final String ROWS = "rows";

  private static final Map<String, LongAdder> RUNNING = new ConcurrentHashMap<>();

  private final String runId;

  private RowCounter(String runId) {
    this.runId = runId;
  }

  /** A fresh id for one pipeline run; {@link #rowsSoFar} reads its count. */
  static String newRun() {
    String runId = UUID.randomUUID().toString();
    RUNNING.put(runId, new LongAdder());
    return runId;
  }

  /** Rows counted so far in this JVM for a run. */
  static long rowsSoFar(String runId) {
    LongAdder adder = RUNNING.get(runId);
    return adder == null ? 0 : adder.sum();
  }

  /** Forgets a finished run. */
  static void endRun(String runId) {
    RUNNING.remove(runId);
  }

  static RowCounter of(String runId) {
    return new RowCounter(runId);
  }

  @Override
  public PCollection<Row> expand(PCollection<Row> input) {
    return input.apply(ParDo.of(new CountFn(runId))).setRowSchema(input.getSchema());
  }

  private static final class CountFn extends DoFn<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final String runId;
    private final Counter rows = Metrics.counter(METRICS_NAMESPACE, ROWS);
    private transient LongAdder local;

    CountFn(String runId) {
      this.runId = runId;
    }

    @Setup
    public void setup() {
      // Absent when this DoFn runs in another JVM (a remote cluster): only the metric counts then.
      local = RUNNING.get(runId);
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      rows.inc();
      if (local != null) {
        local.increment();
      }
      out.output(row);
    }
  }
}
