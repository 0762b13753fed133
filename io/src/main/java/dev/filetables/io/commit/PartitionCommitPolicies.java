package dev.filetables.io.commit;

import dev.filetables.io.partition.time.PartitionTimeExtractors;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The commit policies a table's {@code sink.partition-commit.policy.kind} lists, in the listed
 * order (the list is trimmed: {@code success-file, custom} works). {@code metastore} is rejected:
 * it is for Hive tables.
 */
@Internal
public final class PartitionCommitPolicies {
  private PartitionCommitPolicies() {}

  public static List<PartitionCommitPolicy> fromOptions(TableOptions options) {
    List<PartitionCommitPolicy> policies = new ArrayList<>();
    for (String kind : options.commitPolicyKinds()) {
      switch (kind) {
        case "success-file":
          policies.add(
              new SuccessFilePolicy(options.successFileName(), options.successFileManifest()));
          break;
        case "custom":
          policies.add(custom(options));
          break;
        case "metastore":
          throw new TableDefinitionException(
              "Commit policy 'metastore' (option '"
                  + TableOptions.COMMIT_POLICY_KIND
                  + "') is for Hive"
                  + " tables; FileTables supports success-file and custom");
        default:
          throw new TableDefinitionException(
              "Unknown commit policy '"
                  + kind
                  + "' in option '"
                  + TableOptions.COMMIT_POLICY_KIND
                  + "'; expected a comma list of success-file, custom");
      }
    }
    return policies;
  }

  /** The {@code custom} policy: {@code sink.partition-commit.policy.class}, created by name. */
  static PartitionCommitPolicy custom(TableOptions options) {
    String className =
        options
            .commitPolicyClass()
            .orElseThrow(
                () ->
                    new TableDefinitionException(
                        "Option '"
                            + TableOptions.COMMIT_POLICY_KIND
                            + "' lists custom, which requires option '"
                            + TableOptions.COMMIT_POLICY_CLASS
                            + "'"));
    return PartitionTimeExtractors.instantiate(
        className, PartitionCommitPolicy.class, TableOptions.COMMIT_POLICY_CLASS);
  }

  /** The success-file policy of the list, if any (its file is where a previous manifest lives). */
  public static java.util.Optional<SuccessFilePolicy> successFile(
      List<PartitionCommitPolicy> policies) {
    return policies.stream()
        .filter(SuccessFilePolicy.class::isInstance)
        .map(SuccessFilePolicy.class::cast)
        .findFirst();
  }
}
