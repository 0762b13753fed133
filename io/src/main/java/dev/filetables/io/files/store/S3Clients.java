package dev.filetables.io.files.store;

import java.net.URI;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.aws2.s3.S3FileSystemConfiguration;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The S3 client for the current options, built by Beam's aws2 module exactly as Beam's own S3 file
 * system builds it (endpoint, region, credential chain, HTTP settings), plus path-style addressing
 * whenever an endpoint is given: S3-compatible servers (MinIO, Ceph, s3proxy) and {@code localhost}
 * endpoints do not resolve {@code bucket.host} names. Rebuilt only when the options change (a new
 * job in the same JVM).
 */
final class S3Clients {
  private static String builtFor;
  private static S3Client client;

  private S3Clients() {}

  static synchronized S3Client current() {
    S3Options options = StoreOptions.current().as(S3Options.class);
    String settings = settings(options);
    if (client == null || !settings.equals(builtFor)) {
      // The previous client is left to the garbage collector, not closed: another thread may be
      // in the middle of a request with it. Settings change only between jobs.
      client = build(options);
      builtFor = settings;
    }
    return client;
  }

  /**
   * What the client depends on. Each operator of a job deserializes its own copy of the options, so
   * copies must compare equal here. No credentials: only the provider's class.
   */
  private static String settings(S3Options options) {
    return options.getEndpoint()
        + "|"
        + options.getAwsRegion()
        + "|"
        + (options.getAwsCredentialsProvider() == null
            ? null
            : options.getAwsCredentialsProvider().getClass().getName())
        + "|"
        + options.getS3ClientFactoryClass();
  }

  /** The endpoint for messages: the {@code --endpoint} given, or AWS's for the region. */
  static String describeEndpoint() {
    S3Options options = StoreOptions.current().as(S3Options.class);
    URI endpoint = options.getEndpoint();
    if (endpoint != null) {
      return endpoint.toString();
    }
    return "AWS S3 (region " + options.getAwsRegion() + ")";
  }

  private static S3Client build(S3Options options) {
    S3ClientBuilder builder;
    try {
      builder = S3FileSystemConfiguration.fromS3Options(options).getS3ClientBuilder();
    } catch (RuntimeException e) {
      throw new StoreException(
          "Cannot configure S3: "
              + e.getMessage()
              + " (pass --awsRegion=<region> or set AWS_REGION)",
          e);
    }
    if (options.getEndpoint() != null) {
      builder.forcePathStyle(true);
    }
    if (options.getAwsRegion() == null) {
      throw new StoreException(
          "Cannot configure S3: no region; pass --awsRegion=<region> or set AWS_REGION",
          new IllegalStateException("no AWS region"));
    }
    return builder.build();
  }
}
