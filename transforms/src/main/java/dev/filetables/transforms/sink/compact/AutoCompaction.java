package dev.filetables.transforms.sink.compact;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.time.Duration;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The compaction stage of the streaming sink ({@code auto-compaction = true}): takes the closed,
 * hidden part files of the writers and publishes fewer, larger files in their place.
 *
 * <pre>
 * hidden files ─► key by partition ─► GroupFiles (stateful: names + sizes) ─► CompactPublish (stable input)
 *                                      until compaction.file-size,             merge, rename, delete inputs
 *                                      compaction.max-delay or end of input
 * </pre>
 *
 * Files are merged without decoding where the format allows ({@link FileMergers}: byte
 * concatenation for csv and json, block copy for Avro, row-group copy for Parquet). Input files
 * stay hidden until their group's merged file is visible, so the partition commit, which waits for
 * every hidden file of the write in the partition, commits a partition only after its compaction.
 */
public final class AutoCompaction extends PTransform<PCollection<WrittenFile>, PCollection<WrittenFile>> {
  private static final long serialVersionUID = 1L;

  private final TableSpec table;
  private final String writeUuid;

  public AutoCompaction(TableSpec table, String writeUuid) {
    this.table = table;
    this.writeUuid = writeUuid;
  }

  @Override
  public PCollection<WrittenFile> expand(PCollection<WrittenFile> closed) {
    TableOptions options = table.options();
    long targetSize = options.compactionFileSize();
    Duration maxDelay = options.compactionMaxDelay();
    FileMerger merger = FileMergers.of(FileFormats.of(options), table.fileSchema());
    return closed
        .apply(
            "ByPartition",
            MapElements.into(
                    TypeDescriptors.kvs(
                        TypeDescriptors.strings(), org.apache.beam.sdk.values.TypeDescriptor.of(WrittenFile.class)))
                .via((WrittenFile file) -> KV.of(file.partitionPath(), file)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenFileCoder.of()))
        .apply("GroupFiles", ParDo.of(new GroupFilesFn(targetSize, maxDelay)))
        .setCoder(ListCoder.of(WrittenFileCoder.of()))
        .apply("CompactPublish", ParDo.of(new CompactPublishFn(writeUuid, merger)))
        .setCoder(WrittenFileCoder.of());
  }
}
