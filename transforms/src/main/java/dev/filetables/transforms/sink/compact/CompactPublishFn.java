package dev.filetables.transforms.sink.compact;

import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.sink.WrittenFile;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Merges one compaction group and publishes the result ({@link PartitionCompactor}).
 *
 * <p>{@code @RequiresStableInput} makes this the commit point, as for the uncompacted sink: on Flink
 * the group is handed over only after the checkpoint that contains it has completed. By then the
 * writer state in which the files are closed and the grouping state from which they were removed
 * are durable, so no restore can put one of the files into another group (which would be named
 * differently and publish its rows a second time). A restore may hand the same group over again;
 * the compactor is idempotent for it.
 */
final class CompactPublishFn extends DoFn<List<WrittenFile>, WrittenFile> {
  private static final long serialVersionUID = 1L;

  private final String writeUuid;
  private final FileMerger merger;
  private transient PartitionCompactor compactor;

  CompactPublishFn(String writeUuid, FileMerger merger) {
    this.writeUuid = writeUuid;
    this.merger = merger;
  }

  @Setup
  public void setup() {
    compactor = new PartitionCompactor(writeUuid, merger);
  }

  @RequiresStableInput
  @ProcessElement
  public void processElement(@Element List<WrittenFile> group, OutputReceiver<WrittenFile> out)
      throws Exception {
    WrittenFile published = compactor.compact(group);
    if (published != null) {
      out.output(published);
    }
  }
}
