package dev.filetables.transforms.sink.batch;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.RowWriter;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
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
@Internal
public final class RollingFileWriters implements AutoCloseable {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final FileFormat format;
  private final Schema fileSchema;
  private final PartFiles files;
  private final String writerId;
  private final long rollingSize;
  private final boolean replaceOwnLeftovers;
  private final Map<String, OpenFile> open = new HashMap<>();
  private final List<WrittenFile> completed = new ArrayList<>();
  private long nextCounter;

  /**
   * @param writerId unique among the concurrently running writers of this write
   * @param replaceOwnLeftovers true when {@code writerId} is deterministic (a shard number): a
   *     retried attempt then finds its failed predecessor's in-progress files under the same names
   *     and replaces them. False for random writer ids, where an existing name means two writers
   *     collided (an error).
   */
  public RollingFileWriters(
      FileFormat format,
      Schema fileSchema,
      PartFiles files,
      String writerId,
      long rollingSize,
      boolean replaceOwnLeftovers) {
    this.format = format;
    this.fileSchema = fileSchema;
    this.files = files;
    this.writerId = writerId;
    this.rollingSize = rollingSize;
    this.replaceOwnLeftovers = replaceOwnLeftovers;
  }

  public String writerId() {
    return writerId;
  }

  /**
   * Writes a row of the file schema to the open file of its partition, opening or rolling as
   * needed.
   */
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
      deleteQuietly(TablePaths.of(file.path()));
    }
    completed.clear();
  }

  private OpenFile openFile(String partitionPath) throws IOException {
    Path directory = files.directory(partitionPath);
    String name = files.inProgressName(writerId, nextCounter++);
    Path path = directory.resolve(name);
    if (replaceOwnLeftovers) {
      FileOps.deleteQuietly(path);
    }
    OutputStream out =
        new BufferedOutputStream(FileOps.createForPublish(directory, name), BUFFER_BYTES);
    try {
      return new OpenFile(partitionPath, path, format.createWriter(out, fileSchema));
    } catch (IOException | RuntimeException e) {
      out.close();
      deleteQuietly(path);
      throw e;
    }
  }

  private static void deleteQuietly(Path path) {
    FileOps.deleteQuietly(path);
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
