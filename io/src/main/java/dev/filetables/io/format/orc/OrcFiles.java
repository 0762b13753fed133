package dev.filetables.io.format.orc;

import dev.filetables.io.format.internal.CountingOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.Writer;
import org.apache.orc.impl.PhysicalFsWriter;
import org.apache.orc.impl.writer.WriterEncryptionVariant;

/**
 * Opens orc-core's writers on a stream and readers on a channel, so neither needs a Hadoop file
 * system or a second open of the file: every FileTables store (local disk, HDFS, S3) works the
 * same. Timestamps are always converted in UTC ({@code useUTCTimestamp}), so a TIMESTAMP column
 * reads as the wall-clock time written whatever the JVM's time zone.
 */
final class OrcFiles {
  private OrcFiles() {}

  private static final int BUFFER_SIZE = 64 * 1024;

  /** orc-core's memory manager tells writers apart by path: each writer gets its own. */
  private static final AtomicLong WRITERS = new AtomicLong();

  /** An ORC writer on a stream, and how many bytes it has passed to the stream. */
  static final class Output {
    final Writer writer;
    private final FSDataOutputStream stream;

    private Output(Writer writer, FSDataOutputStream stream) {
      this.writer = writer;
      this.stream = stream;
    }

    /** Bytes written to the stream so far: the header and every stripe flushed. */
    long position() throws IOException {
      return stream.getPos();
    }
  }

  /**
   * Opens a writer of {@code options} (schema and settings given) on {@code out}; closing the
   * writer closes {@code out}. On failure {@code out} is closed.
   */
  static Output createWriter(OutputStream out, OrcFile.WriterOptions options) throws IOException {
    try {
      FSDataOutputStream stream =
          new FSDataOutputStream(
              new CountingOutputStream(new BufferedOutputStream(out, BUFFER_SIZE)), null);
      options
          .useUTCTimestamp(true)
          .fileSystem(new ChannelFileSystem(null, 0))
          .physicalWriter(new PhysicalFsWriter(stream, options, new WriterEncryptionVariant[0]));
      Path name = new Path("/filetables-orc/writer-" + WRITERS.incrementAndGet());
      return new Output(OrcFile.createWriter(name, options), stream);
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /**
   * Opens a reader of the ORC file in {@code channel} ({@code length} bytes); the channel stays
   * open. A 0-byte file is refused: orc-core reads one as an empty ORC file (Hive writes them), but
   * for FileTables, as for Parquet, a file of a binary format without its footer is a bad file.
   */
  static Reader openReader(SeekableByteChannel channel, long length) throws IOException {
    if (length == 0) {
      throw new IOException("The file has 0 bytes: not an ORC file (no postscript, no footer)");
    }
    return OrcFile.createReader(
        ChannelFileSystem.FILE,
        OrcFile.readerOptions(OrcOptions.conf())
            .filesystem(new ChannelFileSystem(channel, length))
            .maxLength(length)
            .useUTCTimestamp(true));
  }
}
