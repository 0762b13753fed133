package dev.filetables.transforms.sink.batch;

import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.Partitioner;
import dev.filetables.transforms.sink.WrittenFile;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;

/**
 * Writes the rows of one shuffle key with one set of rolling writers and emits the in-progress
 * files. The writer id in file names is the shard number ({@code sink.parallelism}), or {@code 0}
 * when each key is a partition (one writer per partition), so a retried key rewrites the same
 * names.
 */
class WriteGroupsFn extends DoFn<KV<String, Iterable<Row>>, WrittenFile> {
  private final TableSpec table;
  private final Schema inputSchema;
  private final PartFiles files;
  private final boolean keyIsWriterId;

  private transient Partitioner partitioner;
  private transient FileFormat format;

  WriteGroupsFn(TableSpec table, Schema inputSchema, PartFiles files, boolean keyIsWriterId) {
    this.table = table;
    this.inputSchema = inputSchema;
    this.files = files;
    this.keyIsWriterId = keyIsWriterId;
  }

  @Setup
  public void setup() {
    partitioner = Partitioner.of(table, inputSchema);
    format = FileFormats.of(table.options());
  }

  @ProcessElement
  public void processElement(
      @Element KV<String, Iterable<Row>> group, OutputReceiver<WrittenFile> out) throws Exception {
    String writerId = keyIsWriterId ? group.getKey() : "0";
    try (RollingFileWriters writers =
        new RollingFileWriters(
            format,
            partitioner.fileSchema(),
            files,
            writerId,
            table.options().rollingFileSize(),
            true)) {
      for (Row row : group.getValue()) {
        writers.write(partitioner.partitionPath(row), partitioner.toFileRow(row));
      }
      for (WrittenFile file : writers.closeAll()) {
        out.output(file);
      }
    }
  }
}
