package dev.filetables.pipelines;

import java.nio.file.Path;
import java.util.Optional;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;

/** Runs a pipeline to the end with the progress line, and times it. */
final class PipelineRun {
  final PipelineResult result;
  final long elapsedMillis;

  /**
   * True if the pipeline ended by itself ({@code DONE}), false if it was cancelled after {@code
   * stopAfter}.
   */
  final boolean finishedByItself;

  private PipelineRun(PipelineResult result, long elapsedMillis, boolean finishedByItself) {
    this.result = result;
    this.elapsedMillis = elapsedMillis;
    this.finishedByItself = finishedByItself;
  }

  /**
   * Runs and waits; fails unless the pipeline finished successfully.
   *
   * @param runId the {@link RowCounter} run whose rows the progress line shows
   * @param sinkRoot the directory whose files the progress line counts, if any
   */
  static PipelineRun execute(
      Pipeline pipeline, CliContext context, String runId, Optional<Path> sinkRoot)
      throws Exception {
    return execute(pipeline, context, runId, sinkRoot, Optional.empty());
  }

  /** Like {@link #execute}; a pipeline still running after {@code stopAfter} is cancelled. */
  static PipelineRun execute(
      Pipeline pipeline,
      CliContext context,
      String runId,
      Optional<Path> sinkRoot,
      Optional<java.time.Duration> stopAfter)
      throws Exception {
    long start = System.nanoTime();
    PipelineResult result;
    boolean byItself = true;
    try (AutoCloseable progress =
        ProgressLine.startIf(
            context.terminal(), context.err(), () -> RowCounter.rowsSoFar(runId), sinkRoot)) {
      RunnerOptions.stageJobJarOnRemoteCluster(pipeline.getOptions());
      result = pipeline.run();
      PipelineResult.State state;
      if (stopAfter.isPresent()) {
        state = result.waitUntilFinish(org.joda.time.Duration.millis(stopAfter.get().toMillis()));
        if (state == null || !state.isTerminal()) {
          result.cancel(); // an unbounded (watched) run stopped on purpose
          state = PipelineResult.State.DONE;
          byItself = false;
        }
      } else {
        state = result.waitUntilFinish();
      }
      if (state != null && state != PipelineResult.State.DONE) {
        throw new CliException("the pipeline ended in state " + state);
      }
    } finally {
      RowCounter.endRun(runId);
    }
    return new PipelineRun(result, (System.nanoTime() - start) / 1_000_000, byItself);
  }
}
