package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.StoreException;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableDefinitionException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Stores that cannot be used fail fast with one line that says what to fix, and are never taken for
 * an empty table: an endpoint that does not answer, wrong credentials, a bucket that does not
 * exist, a NameNode that is down, a table path that is a file, a directory the user may not read.
 */
@Tag("cluster")
class StoreFaultsTest {
  private static StorageServers servers;

  @BeforeAll
  static void startServers() throws Exception {
    servers = StorageServers.shared();
  }

  @AfterEach
  void restoreSettings() {
    servers.makeDefault();
  }

  @Test
  void anUnreachableEndpointFailsWithinSecondsNamingIt() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // closed again: nothing listens there
    }
    FileSystems.setDefaultPipelineOptions(
        PipelineOptionsFactory.fromArgs(
                "--endpoint=http://127.0.0.1:" + port, "--awsRegion=us-east-1")
            .create());
    long started = System.nanoTime();
    StoreException e =
        assertThrows(StoreException.class, () -> Files.exists(TablePaths.of("s3://tables/orders")));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "failed after " + took);
    assertContains(e.getMessage(), "http://127.0.0.1:" + port, "--endpoint");
  }

  @Test
  void wrongCredentialsAreRefusedWithoutShowingThem() {
    System.setProperty("aws.secretAccessKey", "wrong-secret-for-the-test");
    StoreException e =
        assertThrows(
            StoreException.class, () -> Files.exists(TablePaths.of("s3://tables/orders/x")));
    assertContains(e.getMessage(), "denied access", "credentials");
    assertFalse(e.getMessage().contains("wrong-secret-for-the-test"), e.getMessage());
    assertFalse(e.getMessage().contains(servers.s3().secretKey()), e.getMessage());
  }

  @Test
  void aMissingBucketIsNotAnEmptyTable() {
    StoreException e =
        assertThrows(StoreException.class, () -> scan(TablePaths.of("s3://no-such-bucket/orders")));
    assertContains(e.getMessage(), "bucket 'no-such-bucket' does not exist");
  }

  @Test
  void aDownNameNodeFailsNamingIt() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    long started = System.nanoTime();
    StoreException e =
        assertThrows(
            StoreException.class,
            () -> scan(TablePaths.of("hdfs://127.0.0.1:" + port + "/orders")));
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertContains(e.getMessage(), "NameNode", "127.0.0.1:" + port);
    assertTrue(took.compareTo(Duration.ofSeconds(60)) < 0, "failed after " + took);
  }

  @Test
  void aTablePathThatIsAFileIsRefusedOnBothStores() throws Exception {
    for (String store : List.of("s3", "hdfs")) {
      Path file = TablePaths.of(servers.root(store) + "/faults/a-file");
      Files.write(file, "x".getBytes(StandardCharsets.UTF_8));
      TableDefinitionException e = assertThrows(TableDefinitionException.class, () -> scan(file));
      assertContains(e.getMessage(), "is a file");
    }
  }

  @Test
  void aDirectoryTheUserMayNotReadIsAnErrorNotAnEmptyTable() throws Exception {
    String root = servers.root("hdfs");
    FileSystem admin = FileSystem.get(java.net.URI.create(root), new Configuration());
    org.apache.hadoop.fs.Path locked = new org.apache.hadoop.fs.Path(root + "/faults/locked");
    admin.mkdirs(locked);
    admin.create(new org.apache.hadoop.fs.Path(locked, "dt=1/part-0.csv")).close();
    admin.setPermission(locked, new FsPermission((short) 0700));
    admin.setOwner(locked, "owner", "owners");
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    StoreException e =
        assertThrows(
            StoreException.class,
            () ->
                alice.doAs(
                    (PrivilegedExceptionAction<Object>)
                        () -> scan(TablePaths.of(root + "/faults/locked"))));
    assertContains(e.getMessage(), "HDFS denied access", "alice");
  }

  private static TableListing.Result scan(Path root) throws IOException {
    return TableListing.scan(
        root, List.of("dt"), "__DEFAULT_PARTITION__", PartitionFilter.all(), Optional.empty());
  }

  private static void assertContains(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "'" + part + "' in: " + message);
    }
  }
}
