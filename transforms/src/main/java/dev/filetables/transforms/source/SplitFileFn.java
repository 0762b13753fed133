package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.TableOptions;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.transforms.DoFn;

/** Cuts each data file into ranges of about the target split size, as its format allows. */
class SplitFileFn extends DoFn<DataFile, FileRange> {
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
    try (SeekableByteChannel channel = Files.newByteChannel(Path.of(file.path()))) {
      for (ByteRange range : format.split(channel, file.size(), targetSplitSize)) {
        out.output(FileRange.of(file, range));
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException("Cannot split " + file.path() + ": " + e.getMessage(), e);
    }
  }
}
