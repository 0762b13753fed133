package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.TableOptions;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Cuts each data file into ranges of about the target split size, as its format allows. */
class SplitFileFn extends DoFn<DataFile, FileRange> {
  private static final Logger LOG = LoggerFactory.getLogger(SplitFileFn.class);
  private final TableOptions options;
  private final long targetSplitSize;

  private transient FileFormat format;

  SplitFileFn(TableOptions options, long targetSplitSize) {
    this.options = options;
    this.targetSplitSize = targetSplitSize;
  }

  @Setup
  public void setup() {
    format = FileFormats.of(options);
  }

  @ProcessElement
  public void processElement(@Element DataFile file, OutputReceiver<FileRange> out)
      throws IOException {
    if (file.size() <= targetSplitSize) {
      out.output(FileRange.of(file, ByteRange.of(0, file.size())));
      return;
    }
    List<ByteRange> ranges;
    try (SeekableByteChannel channel = ListedFiles.open(TablePaths.of(file.path()))) {
      ranges = format.split(channel, file.size(), targetSplitSize);
    } catch (IOException | RuntimeException e) {
      // Deleted, unreadable or broken: read it as one range, whose reader meets the same problem
      // and handles it by the table's bad-record policy (FileRangeReader), in one place.
      LOG.debug("Cannot split {}; reading it as one range: {}", file.path(), e.toString());
      ranges = List.of(ByteRange.of(0, file.size()));
    }
    for (ByteRange range : ranges) {
      out.output(FileRange.of(file, range));
    }
  }
}
