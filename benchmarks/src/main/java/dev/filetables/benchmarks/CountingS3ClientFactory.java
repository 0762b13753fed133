package dev.filetables.benchmarks;

import org.apache.beam.sdk.io.aws2.options.S3ClientBuilderFactory;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.aws2.s3.DefaultS3ClientBuilderFactory;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Beam's S3 client builder plus one {@link S3RequestCounter} for this JVM: passed as {@code
 * --s3ClientFactoryClass}, it counts every request the stores' S3 client sends (the client is built
 * by Beam from the options, so a class name is the only way in). Only for jobs that run in this
 * JVM. The override configuration it sets replaces Beam's, which Beam sets only for retry options.
 */
public final class CountingS3ClientFactory implements S3ClientBuilderFactory {
  static final S3RequestCounter COUNTER = new S3RequestCounter();

  @Override
  public S3ClientBuilder createBuilder(S3Options options) {
    S3ClientBuilder builder = new DefaultS3ClientBuilderFactory().createBuilder(options);
    builder.overrideConfiguration(
        ClientOverrideConfiguration.builder().addExecutionInterceptor(COUNTER).build());
    return builder;
  }
}
