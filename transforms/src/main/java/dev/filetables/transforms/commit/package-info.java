/**
 * Partition commit ({@code sink.partition-commit.*}): {@link
 * dev.filetables.transforms.commit.PartitionCommit} (public) commits partitions as their files
 * become visible. {@code PartitionCommitFn} holds the state and timers per partition; its {@code
 * CommitTrigger} decides when a partition is due ({@code PartitionTimeTrigger}, {@code
 * ProcessTimeTrigger}); a {@code CommitAttempt} commits it once its files are visible, retrying
 * with {@code Backoff}; {@code PartitionCommitter} does the work (policies, success file); {@code
 * OverdueReports} reports partitions that stay pending. {@code FinalCommit} and {@code
 * EndOfInputCommits} cover the end of the input, {@code AfterJobCommit} the post-job publish.
 * Internal except {@code PartitionCommit} and {@code CommittedPartition}.
 */
package dev.filetables.transforms.commit;
