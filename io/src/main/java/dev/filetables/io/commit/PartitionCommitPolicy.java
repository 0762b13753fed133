package dev.filetables.io.commit;

/**
 * An action run when a partition is committed: its data files are all visible and the trigger says
 * the partition is complete ({@code sink.partition-commit.policy.kind}). Built-in: {@code
 * success-file} ({@link SuccessFilePolicy}). A {@code custom} policy is a public class with a
 * public no-argument constructor implementing this interface, named by {@code
 * sink.partition-commit.policy.class}; it is created once per worker and need not be serializable.
 *
 * <p>Contract: a partition can be committed more than once (late data re-opens it; a failed commit
 * is retried, running every policy again in the listed order), so {@link #commit} must be
 * idempotent. Throw to fail the commit: it is retried with backoff, never skipped.
 */
public interface PartitionCommitPolicy {

  void commit(PartitionCommitContext context) throws Exception;
}
