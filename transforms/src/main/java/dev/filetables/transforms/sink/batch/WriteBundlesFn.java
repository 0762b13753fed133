package dev.filetables.transforms.sink.batch;

import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.Partitioner;
import dev.filetables.transforms.sink.WrittenFile;
import java.util.UUID;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.Row;

/**
 * The default (unshuffled) write: within a bundle, one rolling writer per partition; everything is
 * closed at the end of the bundle and the in-progress files are emitted for publishing.
 *
 * <p>On Flink batch a bundle is a task's whole input, so this gives one file per (partition, task)
 * plus rolls, like Flink's own filesystem sink. The writer id is random per bundle: parallel
 * instances and retried bundles never share file names.
 */
class WriteBundlesFn extends DoFn<Row, WrittenFile> {
  private final TableSpec table;
  private final Schema inputSchema;
  private final PartFiles files;

  private transient Partitioner partitioner;
  private transient FileFormat format;
  private transient RollingFileWriters writers;

  WriteBundlesFn(TableSpec table, Schema inputSchema, PartFiles files) {
    this.table = table;
    this.inputSchema = inputSchema;
    this.files = files;
  }

  @Setup
  public void setup() {
    partitioner = Partitioner.of(table, inputSchema);
    format = FileFormats.of(table.options());
  }

  @StartBundle
  public void startBundle() {
    writers =
        new RollingFileWriters(
            format,
            partitioner.fileSchema(),
            files,
            randomWriterId(),
            table.options().rollingFileSize(),
            false);
  }

  @ProcessElement
  public void processElement(@Element Row row) throws Exception {
    writers.write(partitioner.partitionPath(row), partitioner.toFileRow(row));
  }

  @FinishBundle
  public void finishBundle(FinishBundleContext context) throws Exception {
    for (WrittenFile file : writers.closeAll()) {
      context.output(file, GlobalWindow.INSTANCE.maxTimestamp(), GlobalWindow.INSTANCE);
    }
    writers = null;
  }

  @Teardown
  public void teardown() {
    if (writers != null) {
      writers.close(); // a failed bundle: drop its files
      writers = null;
    }
  }

  /** 12 hex digits: unique enough across the bundles of one write, short in file names. */
  static String randomWriterId() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
