package dev.filetables.transforms.sink.batch;

import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the in-progress files of one write: all of them meet at one key (a GroupByKey, which
 * also waits for every writer to finish), then one DoFn renames each to its visible name and
 * deletes the write's leftovers from failed attempts. Outputs the published files (visible paths).
 */
@Internal
public final class PublishFiles
    extends PTransform<PCollection<WrittenFile>, PCollection<WrittenFile>> {
  private static final long serialVersionUID = 1L;

  private final PartFiles files;

  public PublishFiles(PartFiles files) {
    this.files = files;
  }

  @Override
  public PCollection<WrittenFile> expand(PCollection<WrittenFile> inProgress) {
    return inProgress
        .apply("OneKey", WithKeys.of(0))
        .setCoder(KvCoder.of(VarIntCoder.of(), WrittenFileCoder.of()))
        .apply("AllFiles", GroupByKey.create())
        .apply("Rename", ParDo.of(new PublishFn(files)))
        .setCoder(WrittenFileCoder.of());
  }

  private static final class PublishFn
      extends DoFn<KV<Integer, Iterable<WrittenFile>>, WrittenFile> {
    private static final Logger LOG = LoggerFactory.getLogger(PublishFiles.class);
    private final PartFiles files;

    PublishFn(PartFiles files) {
      this.files = files;
    }

    @ProcessElement
    public void processElement(
        @Element KV<Integer, Iterable<WrittenFile>> all, OutputReceiver<WrittenFile> out)
        throws Exception {
      FilePublisher publisher = new FilePublisher(files);
      List<WrittenFile> inProgress = new ArrayList<>();
      all.getValue().forEach(inProgress::add);
      List<WrittenFile> published = new ArrayList<>(inProgress.size());
      for (WrittenFile file : inProgress) {
        published.add(publisher.publish(file));
      }
      List<Path> deleted = publisher.deleteLeftovers(inProgress);
      LOG.info(
          "Published {} file(s) of write {} under {}; removed {} leftover(s) of failed attempts",
          published.size(),
          files.writeUuid(),
          files.root(),
          deleted.size());
      published.forEach(out::output);
    }
  }
}
