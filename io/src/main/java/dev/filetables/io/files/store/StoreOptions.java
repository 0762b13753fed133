package dev.filetables.io.files.store;

import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The pipeline options that configure the stores ({@code --endpoint}, {@code --awsRegion}, ...):
 * the latest Beam handed to {@code FileSystems.setDefaultPipelineOptions}, which every runner calls
 * on every worker before user code runs, and which a command without a pipeline calls itself. Until
 * then, the defaults (environment variables, profiles).
 */
final class StoreOptions {
  private static volatile PipelineOptions current;

  private StoreOptions() {}

  static void set(PipelineOptions options) {
    current = options;
  }

  static PipelineOptions current() {
    PipelineOptions options = current;
    if (options == null) {
      options = PipelineOptionsFactory.create();
      current = options;
    }
    return options;
  }
}
