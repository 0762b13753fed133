package dev.filetables.tests;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;

/**
 * Reads a whole table with {@link FileTableIO#read} on an embedded runner and hands the rows back
 * to the test. Embedded runners (Direct, Flink {@code [local]}) execute in this JVM, so a static
 * sink keyed by a run id is enough.
 */
final class ReadBack {
  private static final Map<String, Queue<Row>> SINKS = new ConcurrentHashMap<>();

  private ReadBack() {}

  static List<Row> rows(TableSpec table, String runner, String... extraArgs) {
    String[] args = new String[extraArgs.length + 1];
    args[0] = "--runner=" + runner;
    System.arraycopy(extraArgs, 0, args, 1, extraArgs.length);
    String runId = UUID.randomUUID().toString();
    SINKS.put(runId, new ConcurrentLinkedQueue<>());
    try {
      Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs(args).create());
      p.apply(FileTableIO.read(table)).apply(ParDo.of(new Collect(runId)));
      p.run().waitUntilFinish();
      return new ArrayList<>(SINKS.get(runId));
    } finally {
      SINKS.remove(runId);
    }
  }

  private static final class Collect extends DoFn<Row, Void> {
    private final String runId;

    Collect(String runId) {
      this.runId = runId;
    }

    @ProcessElement
    public void process(@Element Row row) {
      SINKS.get(runId).add(row);
    }
  }
}
