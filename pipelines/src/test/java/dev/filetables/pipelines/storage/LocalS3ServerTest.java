package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The child-process S3 server takes objects, lists and hands them back through a real client. */
@Tag("cluster")
class LocalS3ServerTest {
  @TempDir Path dir;

  @Test
  void putsListsAndGetsObjectsThroughARealClient() throws Exception {
    long pid;
    try (LocalS3Server server = LocalS3Server.start(dir)) {
      pid = server.pid();
      assertTrue(server.endpoint().toString().startsWith("http://127.0.0.1:"), server.toString());
      assertFalse(server.toString().contains(server.secretKey()), "no secret in messages");
      Path bucket = server.createBucket("tables");
      assertThrows(
          IllegalArgumentException.class,
          () -> server.createBucket("../outside"),
          "a bucket name must not leave the data directory");

      try (S3Client s3 = client(server, server.secretKey())) {
        s3.putObject(
            b -> b.bucket("tables").key("t/dt=2024-01-01/part-0.json"),
            RequestBody.fromString("{\"id\":1}\n"));
        s3.putObject(
            b -> b.bucket("tables").key("t/dt=2024-01-02/part-0.json"),
            RequestBody.fromString("{\"id\":2}\n"));
        s3.putObject(b -> b.bucket("tables").key("t/_SUCCESS"), RequestBody.empty());

        assertEquals(
            "{\"id\":2}\n",
            s3.getObjectAsBytes(b -> b.bucket("tables").key("t/dt=2024-01-02/part-0.json"))
                .asUtf8String());
        // objects are plain files under the bucket's directory
        assertEquals(
            "{\"id\":1}\n",
            Files.readString(
                bucket.resolve("t/dt=2024-01-01/part-0.json"), StandardCharsets.UTF_8));

        ListObjectsV2Response listing =
            s3.listObjectsV2(b -> b.bucket("tables").prefix("t/").delimiter("/"));
        assertEquals(
            List.of("t/dt=2024-01-01/", "t/dt=2024-01-02/"),
            listing.commonPrefixes().stream().map(CommonPrefix::prefix).toList());
        assertEquals(
            List.of("t/_SUCCESS"), listing.contents().stream().map(S3Object::key).toList());
      }

      try (S3Client wrong = client(server, "not-the-secret")) {
        S3Exception refused =
            assertThrows(S3Exception.class, () -> wrong.listObjectsV2(b -> b.bucket("tables")));
        assertEquals(403, refused.statusCode());
      }
    }
    assertTrue(ProcessHandle.of(pid).isEmpty(), "the server process ended with close()");
  }

  private static S3Client client(LocalS3Server server, String secret) {
    return S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.of(server.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(server.accessKey(), secret)))
        .build();
  }
}
