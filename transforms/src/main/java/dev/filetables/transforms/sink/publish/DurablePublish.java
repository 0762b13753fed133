package dev.filetables.transforms.sink.publish;

import dev.filetables.transforms.sink.WrittenFile;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;

/**
 * The commit point of the uncompacted streaming sink: makes each closed hidden part file visible
 * (rename, segments deleted) once the checkpoint that holds its close has completed.
 *
 * <pre>
 * hidden files ─► key by partition ─► PublishFiles (stateful: names + sizes + arrival mark per file;
 *                                      rename once a completed checkpoint covers the file's arrival)
 * </pre>
 *
 * The same keyed step as {@link AutoCompaction} with every file its own group and no merge ({@link
 * GroupFilesFn#eachFileAlone}, which has the exactly-once argument): no
 * {@code @RequiresStableInput} step, which Beam 2.62's Flink runner can release before the
 * checkpoint holding it completes after a restore. Pending files hold the step's output watermark
 * until they are published.
 */
@Internal
public final class DurablePublish
    extends PTransform<PCollection<WrittenFile>, PCollection<WrittenFile>> {
  private static final long serialVersionUID = 1L;

  private final String writeUuid;
  private final long commitInterval;

  /**
   * @param commitInterval the Flink checkpointing interval in ms, 0 on runners that commit a
   *     bundle's state and output together and never restore (Direct): files are published at once
   */
  public DurablePublish(String writeUuid, long commitInterval) {
    this.writeUuid = writeUuid;
    this.commitInterval = commitInterval;
  }

  /**
   * How often pending files are checked for durability: about ten times per checkpoint interval and
   * at least every 200 ms, since a file's visibility waits for the first poll after its checkpoint
   * completed (a check reads the key's few waiting names).
   */
  static long pollMillis(long commitInterval) {
    return commitInterval <= 0 ? 0 : Math.max(50, Math.min(200, commitInterval / 10));
  }

  @Override
  public PCollection<WrittenFile> expand(PCollection<WrittenFile> closed) {
    return AutoCompaction.byPartition(
        closed, "PublishFiles", GroupFilesFn.eachFileAlone(writeUuid, pollMillis(commitInterval)));
  }
}
