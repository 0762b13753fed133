package dev.filetables.pipelines;

import java.nio.file.Path;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;

/** Runs a pipeline to the end with the progress line, and times it. */
final class PipelineRun {
  final PipelineResult result;
  final long elapsedMillis;

  private PipelineRun(PipelineResult result, long elapsedMillis) {
    this.result = result;
    this.elapsedMillis = elapsedMillis;
  }

  /**
   * Runs and waits; fails unless the pipeline finished successfully.
   *
   * @param runId the {@link RowCounter} run whose rows the progress line shows
   * @param sinkRoot the directory whose files the progress line counts, if any
   */
  static PipelineRun execute(Pipeline pipeline, CliContext context, String runId, Optional<Path> sinkRoot)
      throws Exception {
    long start = System.nanoTime();
    PipelineResult result;
    try (AutoCloseable progress =
        ProgressLine.startIf(
            context.terminal(), context.err(), () -> RowCounter.rowsSoFar(runId), sinkRoot)) {
      RunnerOptions.stageJobJarOnRemoteCluster(pipeline.getOptions());
      result = pipeline.run();
      PipelineResult.State state = result.waitUntilFinish();
      if (state != null && state != PipelineResult.State.DONE) {
        throw new CliException("the pipeline ended in state " + state);
      }
    } finally {
      RowCounter.endRun(runId);
    }
    return new PipelineRun(result, (System.nanoTime() - start) / 1_000_000);
  }
}
