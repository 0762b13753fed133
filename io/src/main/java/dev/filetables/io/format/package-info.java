/**
 * Data file formats (csv, json, avro, parquet, orc): a {@link dev.filetables.io.format.FileFormat}
 * turns rows of a table's file schema into bytes and back and cuts a file into independently
 * readable {@link dev.filetables.io.format.ByteRange}s; {@link
 * dev.filetables.io.format.FileFormats} finds a table's format by its {@code format} option. The
 * sinks write with its {@link dev.filetables.io.format.RowWriter}, the sources read with its {@link
 * dev.filetables.io.format.RowReader} (a record that cannot be decoded is a {@link
 * dev.filetables.io.format.BadRecordException}), the streaming sink and compaction join files with
 * a {@link dev.filetables.io.format.FileMerger} ({@link dev.filetables.io.format.FileMergers},
 * {@link dev.filetables.io.format.MergeableFormat}; where a merge put each input's rows: {@link
 * dev.filetables.io.format.InputPlacement}). Public API: these types. Internal: the formats
 * themselves ({@code CsvFormat}, {@code JsonFormat}, {@code AvroFormat}, {@code ParquetFormat},
 * {@code OrcFormat}, reached through {@code FileFormats}), their readers and writers, and, public
 * only for other packages and modules ({@code @Internal}), {@code FileFormatCatalog} (the table
 * options' {@code FormatCatalog} service), {@code ConcatenatingMerger}, {@code RecordDecoder} and
 * {@code RecordEncoder} (one row as one Kafka message). The avro, parquet and orc codecs are in
 * {@code format.avro}, {@code format.parquet} and {@code format.orc}, helpers the formats share in
 * {@code format.internal}.
 */
package dev.filetables.io.format;
