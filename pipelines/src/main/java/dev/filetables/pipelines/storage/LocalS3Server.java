package dev.filetables.pipelines.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.beam.sdk.annotations.Internal;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * A real S3 API server (s3proxy) on loopback with a free port, for tests and try-outs.
 *
 * <p>It runs as a child JVM on the classpath that the {@code s3-server} module writes to {@code
 * s3-server/target/server.classpath} (s3proxy's Jetty, Jackson 3 and AWS SDK never meet Beam's),
 * and stops with {@link #close}, with this JVM, or when this JVM is killed ({@link ServerProcess}).
 * Objects are plain files under {@code <directory>/data/<bucket>/<key>}, so tests can look at them;
 * the server's log is {@code <directory>/s3-server.log}. Requests must be signed (AWS signature v2
 * or v4) with {@link #accessKey} and {@link #secretKey}; any region is accepted, {@link #region}
 * names one for clients that need it. Clients must address buckets path-style: {@link #endpoint} is
 * an IP address, which AWS SDKs address path-style by themselves ({@code localhost} would make them
 * try {@code bucket.localhost}).
 */
@Internal
public final class LocalS3Server implements AutoCloseable {
  /** System property naming the server's classpath file (or holding the classpath itself). */
  public static final String CLASSPATH_PROPERTY = "filetables.s3.server.classpath";

  static final String CLASSPATH_FILE = "s3-server/target/server.classpath";
  static final String MAIN_CLASS = "dev.filetables.servers.s3.S3ServerMain";
  private static final String REGION = "us-east-1";

  /** S3's rules for bucket names, which also keep a name from leaving the data directory. */
  private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ServerProcess process;
  private final Path directory;
  private final String accessKey;
  private final String secretKey;

  private LocalS3Server(ServerProcess process, Path directory, String accessKey, String secretKey) {
    this.process = process;
    this.directory = directory;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
  }

  /** Starts a server with freshly generated credentials and waits until it answers. */
  public static LocalS3Server start(Path directory) throws IOException {
    return start(directory, randomKey("FT", 20), randomKey("", 40));
  }

  /** Starts a server that accepts {@code accessKey} and {@code secretKey}. */
  public static LocalS3Server start(Path directory, String accessKey, String secretKey)
      throws IOException {
    Path absolute = directory.toAbsolutePath();
    Path data = absolute.resolve("data");
    Files.createDirectories(data);
    ServerProcess process =
        ServerProcess.start(
            "S3 server",
            ServerClasspath.find(CLASSPATH_PROPERTY, CLASSPATH_FILE),
            "256m",
            MAIN_CLASS,
            List.of("--basedir=" + data, "--port=0"),
            Map.of(
                "FILETABLES_S3_ACCESS_KEY", accessKey,
                "FILETABLES_S3_SECRET_KEY", secretKey),
            absolute.resolve("s3-server.log"));
    return new LocalS3Server(process, absolute, accessKey, secretKey);
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return URI.create(process.address());
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  /** A region name for clients that need one; the server accepts any. */
  public String region() {
    return REGION;
  }

  /**
   * A plain AWS SDK client of this server (path-style, this server's credentials), for tests and
   * benchmarks that look at what the stores hide, such as open multipart uploads; the caller closes
   * it.
   */
  public S3Client client() {
    return S3Client.builder()
        .endpointOverride(endpoint())
        .region(Region.of(REGION))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .build();
  }

  /**
   * The keys of the multipart uploads still open under {@code prefix} of {@code bucket}, at any
   * depth: they are invisible to HEAD and listings.
   */
  public List<String> openUploads(String bucket, String prefix) {
    try (S3Client client = client()) {
      return client
          .listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix(prefix))
          .uploads()
          .stream()
          .map(MultipartUpload::key)
          .toList();
    }
  }

  /**
   * Completes the multipart upload that the marker {@code markerKey} of a pending file names
   * (FileTables' S3 store writes one for each file created for publishing: JSON with {@code
   * visibleKey}, {@code uploadId} and {@code parts}), leaving the marker: what a publish stopped
   * between its completion and the marker's delete leaves, for tests and benchmarks of the replay.
   */
  public void completeLeavingMarker(String bucket, String markerKey) throws IOException {
    try (S3Client client = client()) {
      JsonNode marker =
          JSON.readTree(
              client.getObjectAsBytes(b -> b.bucket(bucket).key(markerKey)).asByteArray());
      List<CompletedPart> parts = new ArrayList<>();
      for (JsonNode part : marker.get("parts")) {
        parts.add(
            CompletedPart.builder()
                .partNumber(part.get("number").asInt())
                .eTag(part.get("etag").asText())
                .build());
      }
      client.completeMultipartUpload(
          b ->
              b.bucket(bucket)
                  .key(marker.get("visibleKey").asText())
                  .uploadId(marker.get("uploadId").asText())
                  .multipartUpload(m -> m.parts(parts)));
    }
  }

  /** Creates an empty bucket (a directory of the data directory) and returns its directory. */
  public Path createBucket(String bucket) throws IOException {
    return Files.createDirectory(bucketDirectory(bucket));
  }

  /** Where the objects of {@code bucket} are: {@code <bucket directory>/<key>}. */
  public Path bucketDirectory(String bucket) {
    if (!BUCKET_NAME.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          "not a bucket name: '"
              + bucket
              + "' (3 to 63 lower-case letters, digits, '.' and '-', starting and ending with a"
              + " letter or digit)");
    }
    return directory.resolve("data").resolve(bucket);
  }

  public Path directory() {
    return directory;
  }

  /**
   * The server's process id, for tests and benchmarks (what the server itself does, e.g. its I/O).
   */
  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    process.close();
  }

  /** For messages: the endpoint, never the secret. */
  @Override
  public String toString() {
    return "S3 server at " + endpoint() + " (" + directory + ")";
  }

  private static String randomKey(String prefix, int length) {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    SecureRandom random = new SecureRandom();
    StringBuilder key = new StringBuilder(prefix);
    while (key.length() < length) {
      key.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return key.toString();
  }
}
