/**
 * Partition commit ({@code sink.partition-commit.*}): {@link
 * dev.filetables.transforms.commit.PartitionCommit} (public) commits partitions as their files
 * become visible; {@code PartitionCommitFn} decides when (partition time or process time), {@code
 * PartitionCommitter} does it (policies, success file), {@code EndOfInputCommits} and {@code
 * AfterJobCommit} cover the end of the input and the post-job publish. Internal except {@code
 * PartitionCommit} and {@code CommittedPartition}.
 */
package dev.filetables.transforms.commit;
