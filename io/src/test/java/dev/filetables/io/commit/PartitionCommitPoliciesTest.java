package dev.filetables.io.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionCommitPoliciesTest {
  @TempDir Path dir;

  /** A custom policy for the test: does nothing. */
  public static final class NoOpPolicy implements PartitionCommitPolicy {
    @Override
    public void commit(PartitionCommitContext context) {}
  }

  /** Not a policy. */
  public static final class NotAPolicy {}

  @Test
  void listIsTrimmedAndKeepsItsOrder() {
    List<PartitionCommitPolicy> policies =
        PartitionCommitPolicies.fromOptions(
            options(
                TableOptions.COMMIT_POLICY_KIND, " custom ,success-file ",
                TableOptions.COMMIT_POLICY_CLASS, NoOpPolicy.class.getName(),
                TableOptions.COMMIT_SUCCESS_FILE_NAME, "_DONE",
                TableOptions.COMMIT_SUCCESS_FILE_MANIFEST, "TRUE"));
    assertEquals(2, policies.size());
    assertInstanceOf(NoOpPolicy.class, policies.get(0));
    SuccessFilePolicy successFile = assertInstanceOf(SuccessFilePolicy.class, policies.get(1));
    assertEquals("_DONE", successFile.fileName());
    assertTrue(successFile.writesManifest());
    assertEquals(successFile, PartitionCommitPolicies.successFile(policies).orElseThrow());
  }

  @Test
  void noPolicies() {
    assertEquals(List.of(), PartitionCommitPolicies.fromOptions(options()));
  }

  @Test
  void manifestDefaultsToOff() {
    SuccessFilePolicy policy =
        (SuccessFilePolicy)
            PartitionCommitPolicies.fromOptions(
                    options(TableOptions.COMMIT_POLICY_KIND, "success-file"))
                .get(0);
    assertEquals("_SUCCESS", policy.fileName());
    assertEquals(false, policy.writesManifest());
  }

  @Test
  void metastoreIsRejectedWhenTheTableIsDefined() {
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () -> options(TableOptions.COMMIT_POLICY_KIND, "success-file,metastore"));
    assertTrue(e.getMessage().contains("metastore is for Hive tables"), e.getMessage());
  }

  @Test
  void customClassProblemsAreClear() {
    TableDefinitionException notAPolicy =
        assertThrows(
            TableDefinitionException.class,
            () ->
                PartitionCommitPolicies.fromOptions(
                    options(
                        TableOptions.COMMIT_POLICY_KIND,
                        "custom",
                        TableOptions.COMMIT_POLICY_CLASS,
                        NotAPolicy.class.getName())));
    assertTrue(
        notAPolicy
            .getMessage()
            .contains("does not implement " + PartitionCommitPolicy.class.getName()));
    TableDefinitionException missing =
        assertThrows(
            TableDefinitionException.class,
            () ->
                PartitionCommitPolicies.fromOptions(
                    options(
                        TableOptions.COMMIT_POLICY_KIND,
                        "custom",
                        TableOptions.COMMIT_POLICY_CLASS,
                        "no.Such")));
    assertTrue(
        missing.getMessage().contains("sink.partition-commit.policy.class"), missing.getMessage());
  }

  @Test
  void manifestOptionIsABoolean() {
    TableDefinitionException e =
        assertThrows(
            TableDefinitionException.class,
            () -> options(TableOptions.COMMIT_SUCCESS_FILE_MANIFEST, "yes"));
    assertTrue(e.getMessage().contains("expected true or false"), e.getMessage());
  }

  private TableOptions options(String... keyValues) {
    TableOptions.Builder builder = TableOptions.builder().path(dir).format("csv");
    for (int i = 0; i < keyValues.length; i += 2) {
      builder.set(keyValues[i], keyValues[i + 1]);
    }
    return builder.build();
  }
}
