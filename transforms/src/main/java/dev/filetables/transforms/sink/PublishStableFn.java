package dev.filetables.transforms.sink;

import java.nio.file.Path;
import org.apache.beam.sdk.transforms.DoFn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes closed part files of the streaming sink: renames each hidden file to its visible name and
 * deletes its segments. Outputs the visible file with the input's timestamp.
 *
 * <p>{@code @RequiresStableInput} is what makes this a commit point: on Flink the runner buffers the
 * input (in checkpointed state) and hands it over only after the checkpoint that contains it has
 * completed. By then the writer state in which the file is closed is durable, so no restore can
 * bring the file's rows back into an open file. Every step is idempotent, since a restore may hand
 * the same file over again: a file already renamed is found under its visible name, segments
 * already deleted are simply absent.
 */
class PublishStableFn extends DoFn<WrittenFile, WrittenFile> {
  private static final Logger LOG = LoggerFactory.getLogger(PublishStableFn.class);

  private final PartFiles files;
  private transient FilePublisher publisher;

  PublishStableFn(PartFiles files) {
    this.files = files;
  }

  @Setup
  public void setup() {
    publisher = new FilePublisher(files);
  }

  @RequiresStableInput
  @ProcessElement
  public void processElement(@Element WrittenFile hidden, OutputReceiver<WrittenFile> out)
      throws Exception {
    WrittenFile visible = publisher.publish(hidden);
    Path hiddenPath = Path.of(hidden.path());
    int segments = SegmentFiles.deleteSegments(hiddenPath.getParent(), hiddenPath.getFileName().toString());
    LOG.debug("Published {} ({} rows, {} bytes, {} segment(s) removed)", visible.path(), visible.rowCount(), visible.sizeBytes(), segments);
    out.output(visible);
  }
}
