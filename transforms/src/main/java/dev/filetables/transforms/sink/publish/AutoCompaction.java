package dev.filetables.transforms.sink.publish;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.compact.GroupPolicy;
import dev.filetables.transforms.sink.compact.PartitionCompactor;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The compaction stage of the streaming sink ({@code auto-compaction = true}): takes the closed,
 * hidden part files of the writers and publishes fewer, larger files in their place.
 *
 * <pre>
 * hidden files ─► key by partition ─► GroupFiles (stateful: names + sizes, then merge, rename, delete inputs)
 *                                      groups sealed at compaction.file-size, compaction.max-delay or end of
 *                                      input; published once their files' arrival is in a completed checkpoint
 * </pre>
 *
 * No {@code @RequiresStableInput} step: on Flink the grouping step itself learns from bundle
 * finalizers when a checkpoint covering a group's files has completed, and publishes the group from
 * its keyed state then ({@link GroupFilesFn} has the exactly-once argument; {@link
 * PartitionCompactor} the idempotence of one publication).
 *
 * <p>Files are merged without decoding where the format allows ({@link FileMergers}: byte
 * concatenation for csv and json, block copy for Avro, row-group copy for Parquet). Input files
 * stay hidden until their group's merged file is visible, so the partition commit, which waits for
 * every hidden file of the write in the partition, commits a partition only after its compaction.
 */
@Internal
public final class AutoCompaction
    extends PTransform<PCollection<WrittenFile>, PCollection<WrittenFile>> {
  private static final long serialVersionUID = 1L;

  private final TableSpec table;
  private final String writeUuid;
  private final long commitInterval;

  /**
   * @param commitInterval the Flink checkpointing interval in ms, 0 on runners that commit a
   *     bundle's state and output together and never restore (Direct)
   */
  public AutoCompaction(TableSpec table, String writeUuid, long commitInterval) {
    this.table = table;
    this.writeUuid = writeUuid;
    this.commitInterval = commitInterval;
  }

  /** How often a sealed group is checked for durability: a few times per checkpoint interval. */
  static long pollMillis(long commitInterval) {
    return commitInterval <= 0 ? 0 : Math.max(50, Math.min(1000, commitInterval / 4));
  }

  @Override
  public PCollection<WrittenFile> expand(PCollection<WrittenFile> closed) {
    TableOptions options = table.options();
    GroupPolicy policy = GroupPolicy.of(options.compactionFileSize(), options.compactionMaxDelay());
    FileMerger merger = FileMergers.of(FileFormats.of(options), table.fileSchema());
    return byPartition(
        closed,
        "GroupFiles",
        new GroupFilesFn(policy, writeUuid, merger, pollMillis(commitInterval)));
  }

  /** Keys the closed files by partition path and applies the keyed publishing step to them. */
  static PCollection<WrittenFile> byPartition(
      PCollection<WrittenFile> closed, String name, GroupFilesFn step) {
    return closed
        .apply(
            "ByPartition",
            MapElements.into(
                    TypeDescriptors.kvs(
                        TypeDescriptors.strings(), TypeDescriptor.of(WrittenFile.class)))
                .via((WrittenFile file) -> KV.of(file.partitionPath(), file)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenFileCoder.of()))
        .apply(name, ParDo.of(step))
        .setCoder(WrittenFileCoder.of());
  }
}
