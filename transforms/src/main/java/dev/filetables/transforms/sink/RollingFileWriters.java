package dev.filetables.transforms.sink;

import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.RowWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * One writer's open part files, at most one per partition, each rolled to a new file once its
 * estimated size reaches the rolling size. Files are written under their hidden in-progress names;
 * making them visible is the publisher's job.
 *
 * <p>Not thread-safe and not serializable: a DoFn creates one per bundle (or per key group). The
 * streaming sink can reuse it and roll on time by calling {@link #roll}.
 */
public final class RollingFileWriters implements AutoCloseable {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final FileFormat format;
  private final Schema fileSchema;
  private final PartFiles files;
  private final String writerId;
  private final long rollingSize;
  private final Map<String, OpenFile> open = new HashMap<>();
  private final List<WrittenFile> completed = new ArrayList<>();
  private long nextCounter;

  public RollingFileWriters(
      FileFormat format, Schema fileSchema, PartFiles files, String writerId, long rollingSize) {
    this.format = format;
    this.fileSchema = fileSchema;
    this.files = files;
    this.writerId = writerId;
    this.rollingSize = rollingSize;
  }

  public String writerId() {
    return writerId;
  }

  /** Writes a row of the file schema to the open file of its partition, opening or rolling as needed. */
  public void write(String partitionPath, Row fileRow) throws IOException {
    OpenFile file = open.get(partitionPath);
    if (file == null) {
      file = openFile(partitionPath);
      open.put(partitionPath, file);
    }
    file.writer.write(fileRow);
    file.rows++;
    if (file.writer.estimatedSize() >= rollingSize) {
      roll(partitionPath);
    }
  }

  /** Closes the open file of a partition (if any); the next row of it starts a new file. */
  public void roll(String partitionPath) throws IOException {
    OpenFile file = open.remove(partitionPath);
    if (file != null) {
      completed.add(file.close());
    }
  }

  /** Closes every open file and returns all files completed since the last call. */
  public List<WrittenFile> closeAll() throws IOException {
    for (String partition : new ArrayList<>(open.keySet())) {
      roll(partition);
    }
    List<WrittenFile> result = new ArrayList<>(completed);
    completed.clear();
    return result;
  }

  /**
   * After a failure: closes and deletes what this writer left, best effort. Leftovers it misses are
   * removed by the publisher of a successful attempt.
   */
  @Override
  public void close() {
    for (OpenFile file : open.values()) {
      try {
        file.writer.close();
      } catch (IOException | RuntimeException e) {
        // the file is being discarded anyway
      }
      deleteQuietly(file.path);
    }
    open.clear();
    for (WrittenFile file : completed) {
      deleteQuietly(Path.of(file.path()));
    }
    completed.clear();
  }

  private OpenFile openFile(String partitionPath) throws IOException {
    Path path = files.inProgress(partitionPath, writerId, nextCounter++);
    Files.createDirectories(path.getParent());
    // TRUNCATE_EXISTING: a retried attempt with a deterministic writer id overwrites its own leftover.
    OutputStream out =
        new BufferedOutputStream(
            Files.newOutputStream(
                path,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE),
            BUFFER_BYTES);
    try {
      return new OpenFile(partitionPath, path, format.createWriter(out, fileSchema));
    } catch (IOException | RuntimeException e) {
      out.close();
      deleteQuietly(path);
      throw e;
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // best effort
    }
  }

  private static final class OpenFile {
    final String partitionPath;
    final Path path;
    final RowWriter writer;
    long rows;

    OpenFile(String partitionPath, Path path, RowWriter writer) {
      this.partitionPath = partitionPath;
      this.path = path;
      this.writer = writer;
    }

    WrittenFile close() throws IOException {
      writer.close();
      return WrittenFile.of(partitionPath, path.toString(), rows, Files.size(path));
    }
  }
}
