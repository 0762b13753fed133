/**
 * Partition commit without Beam: the policies run once a partition is complete ({@link
 * dev.filetables.io.commit.PartitionCommitPolicy}; the built-in {@code success-file} policy, or a
 * custom class named by {@code sink.partition-commit.policy.class}), what a policy is told ({@link
 * dev.filetables.io.commit.PartitionCommitContext}, {@link dev.filetables.io.commit.CommittedFile})
 * and the success file's manifest ({@link dev.filetables.io.commit.CommitManifest}). The
 * transforms' {@code PartitionCommit} step decides when a partition is due and runs these. Public
 * API: those four. Internal ({@code @Internal}, public for the transforms): {@code
 * PartitionCommitPolicies}, {@code SuccessFilePolicy}, {@code PartitionFiles}.
 */
package dev.filetables.io.commit;
