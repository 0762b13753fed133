/**
 * What every write shares: the files it outputs ({@link
 * dev.filetables.transforms.sink.WrittenFile}), their names ({@code PartFiles}), how a row is split
 * into partition and stored columns ({@code Partitioner}, {@code DerivePartitionsFn}) and the input
 * check at construction ({@code SinkInputCheck}). The bounded write is in {@code sink.batch}; the
 * streaming write in {@code sink.streaming} (writers), {@code sink.segment} (the hidden files
 * behind an open file), {@code sink.publish} (visibility after the checkpoint) and {@code
 * sink.compact} (grouping and merging for auto-compaction). Internal except {@code WrittenFile}.
 */
package dev.filetables.transforms.sink;
