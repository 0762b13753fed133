package dev.filetables.io.format;

import dev.filetables.io.format.avro.AvroFileMerger;
import dev.filetables.io.format.orc.OrcFileMerger;
import dev.filetables.io.format.parquet.ParquetFileMerger;
import org.apache.beam.sdk.schemas.Schema;

/**
 * Finds the {@link FileMerger} of a format: byte concatenation for csv and json (records are
 * newline-terminated, files have no header), block copy for avro, row-group copy for parquet,
 * stripe copy for orc (rewriting the rows when the inputs' layouts differ), the format's own merger
 * for a {@link MergeableFormat}, and otherwise a merger that reads the rows back with the format
 * and writes them again.
 */
public final class FileMergers {
  private FileMergers() {}

  /** The merger for files of {@code format} holding rows of {@code fileSchema}. */
  public static FileMerger of(FileFormat format, Schema fileSchema) {
    if (format instanceof MergeableFormat) {
      return ((MergeableFormat) format).merger();
    }
    if (format instanceof CsvFormat || format instanceof JsonFormat) {
      return ConcatenatingMerger.INSTANCE;
    }
    if (format instanceof AvroFormat) {
      return new AvroFileMerger();
    }
    if (format instanceof ParquetFormat) {
      return new ParquetFileMerger(((ParquetFormat) format).options());
    }
    if (format instanceof OrcFormat) {
      return new OrcFileMerger(new RewritingMerger(format, fileSchema));
    }
    return new RewritingMerger(format, fileSchema);
  }
}
