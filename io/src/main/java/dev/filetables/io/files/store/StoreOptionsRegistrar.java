package dev.filetables.io.files.store;

import java.util.List;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.io.FileSystem;
import org.apache.beam.sdk.io.FileSystemRegistrar;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Registers no Beam file system: Beam calls every registrar with the pipeline options, on the
 * driver and on each worker, and this one keeps them for the stores ({@link StoreOptions}). So S3
 * is configured exactly the Beam way, on every runner, with nothing to pass by hand.
 */
@Internal
public final class StoreOptionsRegistrar implements FileSystemRegistrar {
  @Override
  public Iterable<FileSystem<?>> fromOptions(PipelineOptions options) {
    StoreOptions.set(options);
    return List.of();
  }
}
