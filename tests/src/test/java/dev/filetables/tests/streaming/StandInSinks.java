package dev.filetables.tests.streaming;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.Partitioner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;

/**
 * Simple streaming sinks that prove the harness itself, independent of the FileTables streaming
 * sink: one visible file per row, written as a hidden file and renamed.
 *
 * <ul>
 *   <li>{@link #exactlyOnce}: runs under {@code @RequiresStableInput} (Flink replays a row only
 *       after the checkpoint that holds it completes) and names each file after the row id, so a
 *       replayed row finds its file already published. Exactly once: the harness must pass it.
 *   <li>{@link #atLeastOnce}: no stable input and a random name per write, so rows replayed after a
 *       failure are written again. The harness must catch its duplicates.
 * </ul>
 */
final class StandInSinks {
  private StandInSinks() {}

  static ParDo.SingleOutput<Row, String> exactlyOnce(TableSpec table) {
    return ParDo.<Row, String>of(new StableFilePerRow(table));
  }

  static ParDo.SingleOutput<Row, String> atLeastOnce(TableSpec table) {
    return ParDo.<Row, String>of(new RandomFilePerRow(table));
  }

  private abstract static class FilePerRow extends DoFn<Row, String> {
    private static final long serialVersionUID = 1L;
    private final TableSpec table;
    private final FileFormat format;
    private transient Partitioner partitioner;

    FilePerRow(TableSpec table) {
      this.table = table;
      this.format = FileFormats.of(table.options());
    }

    /** Writes {@code row} to {@code dir/name} via a hidden file and publishes it. */
    String write(Row row, String uuid, String writer) throws IOException {
      if (partitioner == null) {
        partitioner = Partitioner.of(table, row.getSchema());
      }
      Path dir = table.options().rootPath().resolve(partitioner.partitionPath(row));
      String hidden = PartFileName.hidden(uuid, writer, 0, format.extension());
      Path visible = dir.resolve(PartFileName.visibleOf(hidden));
      if (Files.exists(visible)) {
        return visible.toString(); // a replay of a row published before
      }
      FileOps.deleteQuietly(dir.resolve(hidden)); // an attempt that died while writing
      try (RowWriter writerOut =
          format.createWriter(FileOps.createHidden(dir, hidden), partitioner.fileSchema())) {
        writerOut.write(partitioner.toFileRow(row));
      }
      return FileOps.publish(dir.resolve(hidden)).toString();
    }
  }

  private static final class StableFilePerRow extends FilePerRow {
    private static final long serialVersionUID = 1L;

    StableFilePerRow(TableSpec table) {
      super(table);
    }

    @RequiresStableInput
    @ProcessElement
    public void processElement(@Element Row row, OutputReceiver<String> out) throws IOException {
      out.output(write(row, "standin", Long.toString(row.getInt64("order_id"))));
    }
  }

  private static final class RandomFilePerRow extends FilePerRow {
    private static final long serialVersionUID = 1L;

    RandomFilePerRow(TableSpec table) {
      super(table);
    }

    @ProcessElement
    public void processElement(@Element Row row, OutputReceiver<String> out) throws IOException {
      String writer = UUID.randomUUID().toString().replace("-", "");
      out.output(write(row, "naive", writer));
    }
  }
}
