/**
 * Partition times, for the {@code partition-time} commit trigger: the local date-time a partition
 * stands for ({@link dev.filetables.io.partition.time.PartitionTimeExtractor}: Flink's default
 * {@code DefaultPartitionTimeExtractor}, or a custom class named by {@code
 * partition.time-extractor.class}), placed in the commit's time zone ({@code PartitionTimes}); and
 * the inverse, partition values derived from an event-time column ({@code PartitionDeriver}, option
 * {@code sink.partition-derive.time-column}). Public API: {@link
 * dev.filetables.io.partition.time.PartitionTimeExtractor} and {@link
 * dev.filetables.io.partition.time.PartitionTimeException}, what a custom extractor implements and
 * throws. Internal ({@code @Internal}, public for the transforms): {@code PartitionTimeExtractors},
 * {@code DefaultPartitionTimeExtractor}, {@code PartitionTimes}, {@code PartitionDeriver}; {@code
 * TimestampPattern} is package-private.
 */
package dev.filetables.io.partition.time;
