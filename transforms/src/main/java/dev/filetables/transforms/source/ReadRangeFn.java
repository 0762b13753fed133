package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * Reads one range of a data file and emits rows of the table schema (file columns, partition
 * columns, metadata columns). A bad record fails the read with a message naming file and position.
 */
class ReadRangeFn extends DoFn<FileRange, Row> {
  private final TableSpec table;

  private transient FileFormat format;
  private transient RowAssembler assembler;

  ReadRangeFn(TableSpec table) {
    this.table = table;
  }

  @Setup
  public void setup() {
    format = FileFormats.of(table.options());
    assembler = new RowAssembler(table);
  }

  @ProcessElement
  public void processElement(@Element FileRange range, OutputReceiver<Row> out) throws IOException {
    DataFile file = range.file();
    Object[] constants = assembler.constantsFor(file);
    try (SeekableByteChannel channel = Files.newByteChannel(Path.of(file.path()));
        RowReader reader =
            format.createReader(channel, file.size(), range.range(), assembler.fileSchema())) {
      Row row;
      while ((row = next(reader, file, range)) != null) {
        out.output(assembler.assemble(row, constants));
      }
    } catch (BadRecordException e) {
      throw e; // already names file and position
    } catch (IOException | RuntimeException e) {
      // formats may throw unchecked exceptions (e.g. a corrupt footer) that do not name the file
      throw new IOException(
          "Cannot read " + file.path() + " range " + range.range() + ": " + e.getMessage(), e);
    }
  }

  private static Row next(RowReader reader, DataFile file, FileRange range) throws IOException {
    try {
      return reader.next();
    } catch (BadRecordException e) {
      throw new BadRecordException(
          "Bad record in "
              + file.path()
              + " at "
              + reader.position()
              + " (range "
              + range.range()
              + "): "
              + e.getMessage(),
          e);
    }
  }
}
