/**
 * The codec behind the {@code parquet} format: rows written straight to Parquet's column writers
 * ({@code ParquetRowWriter}, {@code RowWriteSupport}) and read straight from its column readers
 * ({@code ParquetRowReader}, {@code ColumnConverters}), files opened without Hadoop file systems
 * ({@code ChannelInputFile}, {@code StreamOutputFile}), the {@code parquet.*} options ({@code
 * ParquetOptions}) and merging by copying row groups ({@code ParquetFileMerger}). Used through
 * {@code dev.filetables.io.format}. Internal: the public classes are public only for that package
 * and for tests and benchmarks that open the Parquet files a write left ({@code @Internal}).
 */
package dev.filetables.io.format.parquet;
