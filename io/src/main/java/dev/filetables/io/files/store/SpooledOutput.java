package dev.filetables.io.files.store;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a file of a remote store: the bytes go to a local spool file and are sent when the stream
 * is closed, by the {@link Sender} that says how (on S3 one PutObject, or the parts of a multipart
 * upload completed later, see {@link S3PendingUploads}; on HDFS a create, write and hsync of the
 * whole file, see {@link HdfsStore#create}).
 *
 * <p>Why spool to disk rather than upload parts from memory (Beam's way, 64 MiB per open file): a
 * streaming sink keeps one file open per partition it writes, and hundreds of open partitions would
 * hold gigabytes of heap. On disk they cost what they hold. A crash before close sends nothing (at
 * most a spool file stays in the temporary directory).
 */
final class SpooledOutput extends OutputStream {
  /** What happens to the spooled bytes at close. */
  interface Sender {
    void send(Path spool, long size) throws IOException;
  }

  private final Sender sender;
  private final Path spool;
  private final OutputStream out;
  private boolean closed;

  SpooledOutput(Sender sender) throws IOException {
    this.sender = sender;
    this.spool = Files.createTempFile("filetables-upload-", ".spool");
    this.out = new BufferedOutputStream(Files.newOutputStream(spool), 64 * 1024);
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      sender.send(spool, Files.size(spool));
    } finally {
      Files.deleteIfExists(spool);
    }
  }
}
