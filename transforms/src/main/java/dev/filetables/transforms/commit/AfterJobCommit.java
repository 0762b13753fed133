package dev.filetables.transforms.commit;

import dev.filetables.io.commit.CommitManifest;
import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.commit.PartitionCommitPolicies;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Commits a partition after the writing job has ended, for the post-job publish: a partition whose
 * last files the job could not publish was not committed by it (its end-of-input commit never
 * commits while hidden files of the write are left). Runs the table's commit policies in their
 * order, as the job's committer does ({@link PartitionCommitter}); policies are idempotent.
 */
@Internal
public final class AfterJobCommit {
  /** The reason a commit context carries for these commits. */
  public static final String AFTER_JOB = "after-job";

  private AfterJobCommit() {}

  /**
   * Commits {@code partitionPath} (relative to the table root) of {@code table}, with {@code
   * newFiles} the files just published there (their row counts go into a manifest). The commit
   * number follows an earlier success file's manifest, if any.
   */
  public static PartitionCommitContext commit(
      TableSpec table, String partitionPath, List<WrittenFile> newFiles) throws Exception {
    if (!PartitionCommit.isConfigured(table)) {
      throw new IllegalArgumentException(
          "Table `"
              + table.name()
              + "` has no partition commit configured (partition keys and '"
              + dev.filetables.io.table.TableOptions.COMMIT_POLICY_KIND
              + "')");
    }
    PartitionCommitter committer = new PartitionCommitter(table);
    return committer.commit(
        partitionPath,
        newFiles,
        previousCommits(table, committer, partitionPath) + 1,
        Optional.empty(),
        AFTER_JOB);
  }

  private static int previousCommits(
      TableSpec table, PartitionCommitter committer, String partitionPath) {
    return PartitionCommitPolicies.successFile(PartitionCommitPolicies.fromOptions(table.options()))
        .map(
            success -> {
              Path file = committer.directory(partitionPath).resolve(success.fileName());
              try {
                return Files.isRegularFile(file) ? CommitManifest.read(file).commitNumber() : 0;
              } catch (IOException e) {
                return 0; // an empty success file (Flink's) or no manifest: the number is unknown
              }
            })
        .orElse(0);
  }
}
