/**
 * Grouping and merging of the streaming sink's closed files, for auto-compaction: when the group a
 * partition is collecting is sealed ({@code GroupPolicy}: size, delay; applied to keyed state by
 * {@code PendingGroup}), and the idempotent operations that turn a sealed group into visible files
 * ({@code PartitionCompactor}: merge, sidecar, rename, inputs deleted; a group of one is just
 * renamed). When a sealed group may be published is decided by {@code sink.publish}. {@code
 * CompactionFailpoints} is a test hook. Internal.
 */
package dev.filetables.transforms.sink.compact;
