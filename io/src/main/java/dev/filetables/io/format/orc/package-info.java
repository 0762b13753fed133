/**
 * The codec behind the {@code orc} format, on orc-core: rows written into orc-core's column batches
 * ({@code OrcRowWriter}, {@code VectorWriters}) and read back from them ({@code OrcRowReader},
 * {@code VectorReaders}), the ORC schema of a table ({@code OrcSchemas}, Flink's type mapping),
 * files opened without Hadoop file systems ({@code OrcFiles}, {@code ChannelFileSystem}), the
 * {@code orc.*} options ({@code OrcOptions}) and merging by copying stripes ({@code
 * OrcFileMerger}). Used through {@code dev.filetables.io.format}. Internal: the public classes are
 * public only for that package and for tests and benchmarks ({@code @Internal}).
 */
package dev.filetables.io.format.orc;
